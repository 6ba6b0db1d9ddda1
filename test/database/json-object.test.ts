import { expect, it } from 'vitest';
import { describeEachDialect, useFreshDatabase } from '../helpers/databases.js';
import { sqlDialect, stringLiteral } from '../../src/database/sql/dialect.js';

/**
 * Entry objects are built by the database (dialect.jsonObject). PostgreSQL builds them with row_to_json over a
 * sub-select whose column aliases are the keys; identifiers stop at 63 bytes there, so an object with a longer key
 * (a long GraphQL alias) is built another way. Either way keys keep their order and their full names.
 */
describeEachDialect('JSON objects built by the database', (dialect) => {
  const database = useFreshDatabase(dialect);

  /** The object of `[key, value]` pairs (values printed as SQL literals), as the database prints it. */
  const objectText = async (pairs: Array<[string, string | number]>) => {
    const d = sqlDialect(dialect);
    const object = d.jsonObject(pairs.map(([k, v]) => [k, typeof v === 'number' ? String(v) : stringLiteral(v)] as const));
    const [{ doc }] = await database().query<{ doc: unknown }>(`SELECT ${d.rowText(object)} AS doc`);
    return typeof doc === 'string' ? doc : JSON.stringify(doc);
  };
  /** Keys and values in the order the text has them. */
  const entries = (text: string) => Object.entries(JSON.parse(text) as Record<string, unknown>);

  it('keeps keys of up to 63 bytes and longer ones, in order', async () => {
    const pairs: Array<[string, string | number]> = [
      ['id', 1],
      ['k'.repeat(63), 'up to the limit'],
      ['é'.repeat(31) + 'x', 'multibyte, 63 bytes'],
      ['say "hi"', 'quoted'],
    ];
    expect(entries(await objectText(pairs))).toEqual(pairs);
    const longer: Array<[string, string | number]> = [...pairs, ['l'.repeat(64), 'past the limit'], ['é'.repeat(32), '64 bytes']];
    expect(entries(await objectText(longer))).toEqual(longer);
  });

  it('builds objects of many keys, long ones too, in order', async () => {
    const many = Array.from({ length: 120 }, (_, i): [string, number] => [`key${i}`, i]);
    expect(entries(await objectText(many))).toEqual(many);
    const withLongKey: Array<[string, number]> = [...many.slice(0, 70), ['m'.repeat(80), 70], ...many.slice(70)];
    expect(entries(await objectText(withLongKey))).toEqual(withLongKey);
  });

  it('builds an empty object', async () => {
    expect(await objectText([])).toBe('{}');
  });

  // Entry texts go to clients as the database printed them (MySQL's are re-serialized by docText: compact too).
  it('prints compact JSON, without spaces after colons and commas', async () => {
    expect(await objectText([['a', 1], ['b', 'two']])).toBe('{"a":1,"b":"two"}');
  });
});
