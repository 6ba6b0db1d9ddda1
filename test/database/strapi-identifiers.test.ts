import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as ids from '../../src/database/strapi-layout/identifiers.js';
import { STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';

interface Case {
  fn: string;
  args: unknown[];
  result: string | { error: string };
}
const { cases } = JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'identifiers.json'), 'utf8')) as { cases: Case[] };

/** Strapi's function name → Cairn's (the same rule, without `get`). */
const FUNCTIONS: Record<string, (...args: never[]) => string> = {
  getTableName: ids.tableName,
  getColumnName: ids.columnName,
  getJoinTableName: ids.joinTableName,
  getMorphTableName: ids.morphTableName,
  getJoinColumnAttributeIdName: ids.joinColumnAttributeIdName,
  getInverseJoinColumnAttributeIdName: ids.inverseJoinColumnAttributeIdName,
  getOrderColumnName: ids.orderColumnName,
  getInverseOrderColumnName: ids.inverseOrderColumnName,
  getMorphColumnJoinTableIdName: ids.morphColumnJoinTableIdName,
  getMorphColumnAttributeIdName: ids.morphColumnAttributeIdName,
  getMorphColumnTypeName: ids.morphColumnTypeName,
  getIndexName: ids.indexName,
  getFkIndexName: ids.fkIndexName,
  getUniqueIndexName: ids.uniqueIndexName,
  getPrimaryIndexName: ids.primaryIndexName,
  getInverseFkIndexName: ids.inverseFkIndexName,
  getOrderFkIndexName: ids.orderFkIndexName,
  getOrderInverseFkIndexName: ids.orderInverseFkIndexName,
  getIdColumnIndexName: ids.idColumnIndexName,
  getOrderIndexName: ids.orderIndexName,
  getComponentJoinTableName: ids.componentJoinTableName,
  getComponentFkIndexName: ids.componentFkIndexName,
  getNameFromTokens: ids.nameFromTokens,
};

describe("Strapi's identifier rules", () => {
  it('reproduce every name of identifiers.json, computed by Strapi 5.54 itself', () => {
    expect(cases.length).toBe(1252);
    const wrong: string[] = [];
    for (const c of cases) {
      const fn = FUNCTIONS[c.fn];
      if (!fn) throw new Error(`no Cairn function for ${c.fn}`);
      expect(typeof c.result).toBe('string'); // Strapi answered every case (no error to reproduce)
      const got = (fn as (...args: unknown[]) => string)(...c.args);
      if (got !== c.result) wrong.push(`${c.fn}(${JSON.stringify(c.args)}): expected ${String(c.result)}, got ${got}`);
    }
    expect(wrong).toEqual([]);
  });

  it('cover long names: many of the cases are shortened, and every result fits 55 characters', () => {
    const shortened = cases.filter((c) => typeof c.result === 'string' && /[0-9a-f]{5}(_[a-z]+)?$/.test(c.result) && c.result.length >= 50);
    expect(shortened.length).toBeGreaterThan(300);
    for (const c of cases) expect((c.result as string).length).toBeLessThanOrEqual(55);
  });

  it('use fixed short forms whatever the length, and leave a name of 55 characters as it is', () => {
    expect(ids.joinTableName('a', 'b')).toBe('a_b_lnk');
    expect(ids.orderColumnName('x')).toBe('x_ord');
    expect(ids.tableName('t'.repeat(55))).toBe('t'.repeat(55));
    expect(ids.tableName('t'.repeat(56))).toBe(`${'t'.repeat(50)}${ids.identifierHash('t'.repeat(56))}`);
    expect(ids.identifierHash('restaurant_reservation_confirmation_messages_archives')).toBe('4bff2');
  });

  it('refuse a name that cannot be shortened, as Strapi does', () => {
    // A long fixed token leaves 4 characters to the compressible one: too few for 3 characters and a hash of 5.
    expect(() => ids.nameFromTokens([{ name: 'x'.repeat(60), compressible: true }, { name: 'y'.repeat(50), compressible: false }])).toThrow(/cannot be shortened/);
    // Share under 3 characters each.
    expect(() => ids.nameFromTokens(Array.from({ length: 15 }, (_, i) => ({ name: `part${i}`.repeat(3), compressible: true })))).toThrow(/cannot be shortened/);
    expect(() => ids.nameFromTokens([{ name: 'fixed_'.repeat(10), compressible: false }])).toThrow(/cannot be shortened/);
  });

  it("snake_case names with lodash's rule, which splits digits (Cairn's own snakeCase does not)", () => {
    expect(ids.strapiSnakeCase('line2')).toBe('line_2');
    expect(ids.strapiSnakeCase('publishDate')).toBe('publish_date');
    expect(ids.strapiSnakeCase('reservation-confirmation-message-archive')).toBe('reservation_confirmation_message_archive');
    expect(ids.strapiSnakeCase('components_long_category_some_extremely_long_compo21308')).toBe('components_long_category_some_extremely_long_compo_21308');
  });
});
