import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel, readModelFiles, type Model } from '../../src/model/index.js';
import { parseReadParams } from '../../src/query/index.js';
import { compileRead } from '../../src/database/sql/index.js';
import { withStrapiNames } from '../../src/database/strapi-layout/named-model.js';
import type { DatabaseLayout } from '../../src/database/layout.js';
import { STRAPI_FIXTURE_DIR } from '../helpers/strapi-fixture.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');
const ARCHIVE = 'api::reservation-confirmation-message-archive.reservation-confirmation-message-archive';
const SETTINGS = { defaultLimit: 25, maxLimit: 100, withCount: true, locales: ['en', 'fr'], defaultLocale: 'en' };

describe("a model renamed by Strapi's rules (a database that Strapi made)", () => {
  let dir: string;
  let model: Model;
  /** The layout Strapi made for the conformance model plus long-names-model/ (layout.long-names.sqlite.json). */
  const layout = JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'layout.long-names.sqlite.json'), 'utf8')) as DatabaseLayout;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-names-'));
    cpSync(join(CONFORMANCE_APP, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(STRAPI_FIXTURE_DIR, 'long-names-model'), join(dir, 'src'), { recursive: true });
    model = withStrapiNames(buildModel(await readModelFiles(dir), { strapiLayout: true }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names tables, component tables and columns as Strapi's database has them", () => {
    const archive = model.contentTypes.get(ARCHIVE)!;
    expect(archive.table).toBe('restaurant_reservation_confirmation_messages_archives');
    expect(archive.componentsTable).toBe('restaurant_reservation_confirmation_messages_4bff2_cmps');
    const long = archive.attributes.get('anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit');
    expect(long?.kind === 'scalar' && long.column).toBe('an_extraordinarily_long_scalar_attribute_name_thate953d');
    const component = model.components.get('long-category.extremely-long-component')!;
    expect(component.table).toBe('components_long_category_some_extremely_long_compo21308');
    // Every table and column the renamed model names is one of the database's.
    const tables = new Map(layout.tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
    for (const schema of [...model.contentTypes.values(), ...model.components.values()]) {
      expect(tables.has(schema.table), schema.table).toBe(true);
      for (const attribute of schema.attributes.values()) {
        if (attribute.kind === 'scalar') expect(tables.get(schema.table)!.has(attribute.column), `${schema.table}.${attribute.column}`).toBe(true);
      }
    }
  });

  it("splits digits from letters in column names, as lodash's snake_case does", () => {
    const small = withStrapiNames(buildModel({ contentTypes: [{ schema: { kind: 'collectionType', info: { singularName: 'place', pluralName: 'places', displayName: 'Place' }, attributes: { line2: { type: 'string' }, addressLine10: { type: 'string' } } } }] }));
    const place = small.contentTypes.get('api::place.place')!;
    expect([...place.attributes.values()].map((a) => a.kind === 'scalar' && a.column)).toEqual(['line_2', 'address_line_10']);
    // The unrenamed model keeps Cairn's names: its own layout is unchanged.
    const own = buildModel({ contentTypes: [{ schema: { kind: 'collectionType', info: { singularName: 'place', pluralName: 'places', displayName: 'Place' }, attributes: { line2: { type: 'string' } } } }] });
    expect([...own.contentTypes.get('api::place.place')!.attributes.values()].map((a) => a.kind === 'scalar' && a.column)).toEqual(['line2']);
  });

  it('reads through every long name: the statement runs on tables made as Strapi named them', () => {
    // A database with the tables and columns of Strapi's layout (no rows: what matters is that every name resolves).
    const db = new SQLite(':memory:');
    for (const table of layout.tables) db.exec(`CREATE TABLE "${table.name}" (${table.columns.map((c) => `"${c.name}" ${c.type}`).join(', ')})`);
    const archive = model.contentTypes.get(ARCHIVE)!;
    const spec = parseReadParams(
      model,
      archive,
      {
        populate: {
          veryLongAttributeNameForTheRestaurantRelation: true,
          selfReferencingRelationWithAnExtremelyLongName: true,
          inverseSideOfTheSelfReferencingRelation: true,
          oneChefWithAnExceptionallyLongRelationAttributeName: true,
          attachmentsWithAVeryLongMediaFieldName: true,
          longComponentFieldName: { populate: '*' },
          longDynamicZoneFieldName: true,
        },
        filters: { anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit: { $startsWith: 'a' }, selfReferencingRelationWithAnExtremelyLongName: { id: { $gt: 0 } } },
        sort: 'anExtraordinarilyLongScalarAttributeNameThatExceedsTheLimit:asc',
      },
      SETTINGS,
    );
    const { data } = compileRead(model, 'sqlite', archive, spec);
    expect(db.prepare(data.sql).all(...(data.params as unknown[]))).toEqual([]);
    expect(data.sql).toContain('"restaurant_reservati4bff2_self_referencing_relb3db9_lnk"');
    expect(data.sql).toContain('"restaurant_reservation_confirmation_messages_4bff2_cmps"');
    db.close();
  });
});
