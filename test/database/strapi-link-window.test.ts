import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../src/database/index.js';
import { exactWindow, linksAndWindow, linksAndWindows, walkWindow, type WindowSide } from '../../src/database/strapi-store/link-window.js';
import type { WindowMember } from '../../src/database/store/link-types.js';
import type { DialectName } from '../../src/database/types.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';

/**
 * The window a connect is ordered from (link-window.ts): SQLite's bounded walks along the order index must answer
 * exactly what the one exact statement answers, on lists whose values other lists share (walks that give up and read
 * the row's own list), ties at both ends (longer than a walk returns: the exact statement), links without an order
 * value, and an empty list. The walks are plain SQL, so every dialect runs them here too.
 */
describeEachDialect('the window of a connect on a Strapi join table', (dialect: DialectName) => {
  let db: Database;
  let drop: () => Promise<void>;
  const side: WindowSide = { t: 'lnk', key: 'owner_id', order: 'target_ord' };
  const ids = new Map<number, number[]>();

  const insert = async (rows: Array<[owner: number, order: number | null]>) => {
    for (let i = 0; i < rows.length; i += 200) {
      const part = rows.slice(i, i + 200);
      await db.execute(`INSERT INTO lnk (owner_id, target_id, target_ord) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}`, part.flatMap(([owner, order], j) => [owner, i + j, order]));
    }
  };
  const sorted = (members: WindowMember[]) => [...members].sort((a, b) => a.key.localeCompare(b.key));
  /** Both answers for `anchors`, and the statements the walks sent. */
  const both = async (owner: number, anchors: number[]) => {
    const sent: string[] = [];
    const off = db.onQuery((sql) => sent.push(sql));
    const walked = await walkWindow(db, side, owner, anchors);
    off();
    return { walked: sorted(walked), exact: sorted(await exactWindow(db, side, owner, anchors)), sent };
  };

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    drop = fresh.drop;
    db = await createDatabase(fresh.config);
    const id = dialect === 'postgres' ? 'id serial PRIMARY KEY' : dialect === 'mysql' ? 'id integer AUTO_INCREMENT PRIMARY KEY' : 'id integer PRIMARY KEY AUTOINCREMENT';
    await db.execute(`CREATE TABLE lnk (${id}, owner_id integer, target_id integer, target_ord double precision)`);
    // Strapi's indexes: the row alone, the order value alone (no index on both).
    await db.execute('CREATE INDEX lnk_fk ON lnk (owner_id)');
    await db.execute('CREATE INDEX lnk_ofk ON lnk (target_ord)');
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const rows: Array<[number, number | null]> = [];
    // Owner 1: 300 links on values 1..40 (many ties) and a few without a value, inserted in a random order among
    // 200 other rows' lists on the same values, so a walk along the order index meets mostly others' links.
    for (let i = 0; i < 300; i++) rows.push([1, i % 50 === 7 ? null : 1 + Math.floor(random() * 40)]);
    for (let owner = 100; owner < 300; owner++) for (let v = 1; v <= 5; v++) rows.push([owner, v * 8]);
    rows.sort(() => random() - 0.5);
    // Owner 2: a tie of 20 links at its first value and of 3 at its last, its values beyond everyone else's.
    for (let i = 0; i < 20; i++) rows.push([2, 1000]);
    for (let v = 1001; v < 1010; v++) rows.push([2, v]);
    for (let i = 0; i < 3; i++) rows.push([2, 2000]);
    // Owner 3: a short list alone on its values: every walk ends within the index entries it reads.
    for (const v of [5000, 5000.5, 5001, 5001, 5002]) rows.push([3, v]);
    await insert(rows);
    // A table that holds one list, tied at both ends longer than a walk returns: every walk reads all there is.
    await db.execute(`CREATE TABLE lnk_small (${id}, owner_id integer, target_id integer, target_ord double precision)`);
    await db.execute('CREATE INDEX lnk_small_fk ON lnk_small (owner_id)');
    await db.execute('CREATE INDEX lnk_small_ofk ON lnk_small (target_ord)');
    const small = [...Array.from({ length: 20 }, () => 1), 2, 3, ...Array.from({ length: 18 }, () => 4)];
    await db.execute(`INSERT INTO lnk_small (owner_id, target_id, target_ord) VALUES ${small.map(() => '(5, 0, ?)').join(', ')}`, small);
    for (const owner of [1, 2, 3]) ids.set(owner, (await db.query<{ id: number }>('SELECT id FROM lnk WHERE owner_id = ? ORDER BY id', [owner])).map((r) => Number(r.id)));
  });

  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('a list whose values other lists share: the same members and neighbours as the exact statement, for every anchor', async () => {
    const links = ids.get(1)!;
    const other = (await db.query<{ id: number }>('SELECT id FROM lnk WHERE owner_id = 100'))[0].id;
    let ownReads = 0;
    for (const anchors of [[], [links[0]], [links.at(-1)!], [links[7], links[57]], [links[1], links[1], Number(other)], ...links.slice(0, 120).map((id) => [id])]) {
      const { walked, exact, sent } = await both(1, anchors);
      expect(walked, `anchors ${anchors.join(', ')}`).toEqual(exact);
      ownReads += sent.filter((sql) => sql.includes('+target_ord')).length;
    }
    // Walks from anchors next to values 200 other lists share met others' links only: the row's own list was read.
    expect(ownReads).toBeGreaterThan(0);
  });

  it('ties longer than a walk returns fall back to the exact statement; shorter ties are walked', async () => {
    const links = ids.get(2)!;
    for (const anchors of [[], [links[0]], [links[19]], [links[20]], [links.at(-1)!], [links[5], links[25]]]) {
      const { walked, exact, sent } = await both(2, anchors);
      expect(walked, `anchors ${anchors.join(', ')}`).toEqual(exact);
      expect(sent.some((sql) => sql.includes('MIN('))).toBe(true);
    }
    const first = sorted(await exactWindow(db, side, 2, [])).filter((m) => m.order === 1000);
    expect(first).toHaveLength(20);
  });

  it('a list alone on its values: its anchors and its last value walked in one statement, whatever the anchors', async () => {
    const links = ids.get(3)!;
    // Not its first link: the walk to that one's predecessor goes down among other lists' links too.
    for (const anchors of [[], [links[2]], [links[2], links[3]], links.slice(1)]) {
      const { walked, exact, sent } = await both(3, anchors);
      expect(walked).toEqual(exact);
      // The anchors' links, the walks, and the row's own list read for its first value: every other list's values
      // lie below it, so the walk from the start of the index meets none of its links.
      expect(sent).toHaveLength(anchors.length ? 3 : 2);
      expect(sent.filter((sql) => sql.includes('+target_ord'))).toHaveLength(1);
    }
    const { walked } = await both(3, [links[2]]);
    // 5001 ties with the link after it: its next is its own value (no room), as the orderer expects.
    expect(walked.find((m) => m.key === `link:${links[2]}`)).toEqual({ key: `link:${links[2]}`, order: 5001, prev: 5000.5, next: 5001 });
  });

  it('a table holding one list tied at both ends: walks that read everything still stop at the ties they return', async () => {
    const smallSide = { ...side, t: 'lnk_small' };
    const links = (await db.query<{ id: number }>('SELECT id FROM lnk_small ORDER BY id')).map((r) => Number(r.id));
    for (const anchors of [[], [links[20]], [links[0], links[39]]]) {
      const walked = sorted(await walkWindow(db, smallSide, 5, anchors));
      expect(walked).toEqual(sorted(await exactWindow(db, smallSide, 5, anchors)));
      expect(walked.filter((m) => m.order === 1)).toHaveLength(20);
      expect(walked.filter((m) => m.order === 4)).toHaveLength(18);
    }
  });

  it('an anchor without an order value, and an empty list', async () => {
    const links = ids.get(1)!;
    const unordered = (await db.query<{ id: number }>('SELECT id FROM lnk WHERE owner_id = 1 AND target_ord IS NULL'))[0].id;
    expect(links).toContain(Number(unordered));
    const { walked, exact } = await both(1, [Number(unordered)]);
    expect(walked).toEqual(exact);
    expect((await both(4, [])).walked).toEqual([]);
  });

  it("several rows' links and windows in one statement: each row's answer as its own statement gives it", async () => {
    const member = { ...side, member: 'target_id' };
    const targetsOf = async (owner: number) => (await db.query<{ t: number }>('SELECT target_id AS t FROM lnk WHERE owner_id = ? ORDER BY id', [owner])).map((r) => Number(r.t));
    const [one, two, three] = [await targetsOf(1), await targetsOf(2), await targetsOf(3)];
    // Members some rows link and others do not (another row's members, one no row links), anchors among them.
    const members = [one[3], one[40], two[0], two[25], three[2], 99_999];
    const anchors = [one[40], two[25], three[2]];
    const sent: string[] = [];
    const off = db.onQuery((sql) => sent.push(sql));
    const together = await linksAndWindows(db, member, [1, 2, 3, 4], members, anchors);
    off();
    expect(sent).toHaveLength(1);
    const alone = [];
    for (const owner of [1, 2, 3, 4]) alone.push(await linksAndWindow(db, member, owner, members, anchors));
    const comparable = (r: Awaited<ReturnType<typeof linksAndWindow>>) => ({ links: [...r.links].sort((a, b) => a[0] - b[0]), window: sorted(r.window) });
    expect(together.map(comparable)).toEqual(alone.map(comparable));
    // Each row's answer is its own: its links only, its anchors' neighbours in the window.
    expect([...together[1].links.keys()].sort((a, b) => a - b)).toEqual([two[0], two[25]].sort((a, b) => a - b));
    expect(together[3]).toEqual({ links: new Map(), window: [] });
    expect(together[2].window.map((m) => m.key)).toContain(`link:${ids.get(3)![2]}`);
  });
});
