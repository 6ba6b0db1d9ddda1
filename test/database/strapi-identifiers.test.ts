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
  ...ids.STRAPI_NAME_RULES,
  getComponentJoinTableName: ids.componentJoinTableName,
  getComponentFkIndexName: ids.componentFkIndexName,
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

  it('give the names of layout.long-names.sqlite.json from their parts (strapi-plan.test.ts compares every table)', () => {
    const snake = ids.strapiSnakeCase;
    const component = ids.tableName('components_long_category_some_extremely_long_component_collection_names');
    expect(component).toBe('components_long_category_some_extremely_long_compo21308');
    // A link table is named from the owner's table as Strapi's metadata holds it: shortened, then snake_cased again.
    const componentLink = ids.joinTableName(snake(component), snake('dishesRelationFromAComponentWithAVeryLongAttributeName'));
    expect(componentLink).toBe('components_long_cate5301e_dishes_relation_fromd556a_lnk');
    expect(ids.fkIndexName(componentLink)).toBe('components_long_cate5301e_dishes_relation_fromd54165_fk');
    expect(ids.inverseFkIndexName(componentLink)).toBe('components_long_cate5301e_dishes_relation_from54165_ifk');
    const archives = 'restaurant_reservation_confirmation_messages_archives';
    const self = ids.joinTableName(archives, snake('selfReferencingRelationWithAnExtremelyLongName'));
    expect(self).toBe('restaurant_reservati4bff2_self_referencing_relb3db9_lnk');
    expect(ids.orderInverseFkIndexName(self)).toBe('restaurant_reservati4bff2_self_referencing_re0100b_oifk');
    expect(ids.columnName(snake('anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit'))).toBe('an_extraordinarily_long_scalar_attribute_name_thate953d');
    expect(ids.componentJoinTableName(archives)).toBe('restaurant_reservation_confirmation_messages_4bff2_cmps');
    expect(ids.componentFkIndexName(archives)).toBe('restaurant_reservation_confirmation_mess4bff2_entity_fk');
    expect(ids.indexName([archives, 'component_type'])).toBe('restaurant_reservation_confirma4bff2_component_type_idx');
    expect(ids.indexName([archives, 'documents'])).toBe('restaurant_reservation_confirmation_4bff2_documents_idx');
    expect(ids.fkIndexName([archives, 'created_by_id'])).toBe('restaurant_reservation_confirmati4bff2_created_by_id_fk');
  });

  it("snake_case names with lodash's rule, which splits digits (Cairn's own snakeCase does not)", () => {
    expect(ids.strapiSnakeCase('line2')).toBe('line_2');
    expect(ids.strapiSnakeCase('publishDate')).toBe('publish_date');
    expect(ids.strapiSnakeCase('reservation-confirmation-message-archive')).toBe('reservation_confirmation_message_archive');
    expect(ids.strapiSnakeCase('components_long_category_some_extremely_long_compo21308')).toBe('components_long_category_some_extremely_long_compo_21308');
  });
});
