import type { PoolClient } from 'pg';
import { BoundedCache } from './bounded-cache.js';

/** The end of a statement marked by plannedPerRun: a comment, which every database reads past. */
const PLANNED_PER_RUN = ' /* planned per run */';

/**
 * `sql`, marked as a statement whose best plan depends on its values (how long the relation list it reads or writes
 * is): it is never named, so PostgreSQL plans it with each run's values. Cairn's are the statements whose work grows
 * with one row's list: a connect's window reads and neighbour reads, renumbering, and the list copies of a publish
 * or a discard (link-window.ts, link-list.ts, copy-links.ts, publish-links.ts). Generic plans, made for an average
 * list, cost 11 ms instead of 0.8 ms for the window read on a list of 10,000 links (bench/strapi-writes.js), and
 * 15.7 ms instead of 0.9 ms for a publish's delete of dropped links on a list of 1,000. The mark goes at the end, so
 * that whoever reads a statement's first word (a log, a test) reads the statement's.
 */
export function plannedPerRun(sql: string): string {
  return sql + PLANNED_PER_RUN;
}

/**
 * PostgreSQL statement names, shared by the connections of one pool. A SQL text run a second time gets a name, and
 * each connection prepares a named text the first time it runs it: the server then parses and plans it once per
 * connection instead of on every run. Planning is most of what a write's statements cost the server (a positioned
 * connect that publishes runs a dozen, each planned anew: bench/strapi-writes.js), and reads gain the same.
 *
 * A text seen once stays unnamed, so texts that differ on every run never take a name; so does one marked by
 * plannedPerRun. Names are never reused for another text (pg refuses that). A text dropped from the cache leaves its
 * statement on the connections that prepared it: `tidy`, at each checkout, deallocates those (queued before the
 * borrower's first statement), so a connection never holds more than about `capacity` statements, however long it
 * lives.
 */
export class StatementNames {
  private readonly names: BoundedCache<string>;
  private readonly seen: BoundedCache<true>;
  private next = 0;
  /** Per connection: the cache's `drops` when it was last tidied (nothing to look at while that stays the same). */
  private readonly tidied = new WeakMap<object, number>();

  constructor(capacity: number) {
    this.names = new BoundedCache(capacity);
    this.seen = new BoundedCache(capacity);
  }

  /** The name `text` runs under; undefined the first time it is seen (it runs unnamed). */
  nameOf(text: string): string | undefined {
    if (text.endsWith(PLANNED_PER_RUN)) return undefined;
    const name = this.names.get(text);
    if (name !== undefined) return name;
    if (this.seen.get(text) === undefined) {
      this.seen.set(text, true);
      return undefined;
    }
    const given = `cairn_${(this.next++).toString(36)}`;
    this.names.set(text, given);
    return given;
  }

  /**
   * Deallocates the statements `client` prepared under names the cache has dropped since its last checkout. Reads
   * pg's record of them (`connection.parsedStatements`, name -> text); without it, nothing is tidied.
   */
  tidy(client: PoolClient): void {
    const drops = this.names.drops;
    if (this.tidied.get(client) === drops) return;
    this.tidied.set(client, drops);
    const prepared = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
    if (!prepared) return;
    const stale = Object.entries(prepared).filter(([name, text]) => this.names.peek(text) !== name);
    if (!stale.length) return;
    for (const [name] of stale) delete prepared[name];
    // One simple-protocol query, queued on the client before its borrower's statements. A failure (the connection
    // lost) is the borrower's to see, on its own statement.
    client.query(stale.map(([name]) => `DEALLOCATE "${name}"`).join('; ')).catch(() => undefined);
  }

  /**
   * Makes `client` run Cairn's statements under their names: a text with parameters (Kysely's `begin`, `commit`
   * and savepoints have none and run as they are) named by `nameOf` goes as a named statement.
   */
  nameStatements(client: PoolClient): void {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, values?: unknown, callback?: unknown) => {
      if (typeof config === 'string' && Array.isArray(values) && values.length) {
        const name = this.nameOf(config);
        if (name !== undefined) return query({ name, text: config, values }, callback);
      }
      return query(config, values, callback);
    };
  }
}
