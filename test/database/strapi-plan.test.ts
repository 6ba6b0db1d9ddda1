import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildModel, loadModel, readModelFiles, type Model } from '../../src/model/index.js';
import type { DatabaseLayout, LayoutTable } from '../../src/database/layout.js';
import type { DialectName } from '../../src/database/types.js';
import { planStrapiLayout } from '../../src/database/strapi-layout/plan.js';
import { STRAPI_FIXTURE_DIR, strapiFixtureLayout } from '../helpers/strapi-fixture.js';

const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

/**
 * The fixture's tables that Cairn does not plan: Strapi's admin panel (roles, permissions and their links; only
 * admin_users is planned, every content table points at it) and its features' tables (webhooks, history, releases,
 * review workflows, transfer tokens, sessions, AI jobs). Every other table of the fixture derives from the model.
 */
const NOT_PLANNED = [
  'admin_permissions',
  'admin_permissions_api_token_lnk',
  'admin_permissions_role_lnk',
  'admin_roles',
  'admin_users_roles_lnk',
  'strapi_ai_localization_jobs',
  'strapi_ai_metadata_jobs',
  'strapi_history_versions',
  'strapi_release_actions',
  'strapi_release_actions_release_lnk',
  'strapi_releases',
  'strapi_sessions',
  'strapi_transfer_token_permissions',
  'strapi_transfer_token_permissions_token_lnk',
  'strapi_transfer_tokens',
  'strapi_webhooks',
  'strapi_workflows',
  'strapi_workflows_stage_required_to_publish_lnk',
  'strapi_workflows_stages',
  'strapi_workflows_stages_permissions_lnk',
  'strapi_workflows_stages_workflow_lnk',
];

const fixtureTables = (layout: unknown): Map<string, LayoutTable> => new Map((layout as DatabaseLayout).tables.map((t) => [t.name, t]));

/** Each planned table beside the fixture's table of that name (undefined when the fixture has none). */
function pairs(planned: LayoutTable[], fixture: Map<string, LayoutTable>): Array<[LayoutTable, LayoutTable | undefined]> {
  return planned.map((t) => [t, fixture.get(t.name)]);
}

let model: Model;
beforeAll(async () => {
  model = await loadModel(CONFORMANCE_APP);
});

describe.each(['sqlite', 'postgres', 'mysql'] as DialectName[])("Strapi's layout planned for the conformance model [%s]", (dialect) => {
  it('every planned table equals the fixture table of the same name: columns, types, nullability, key, indexes, foreign keys', () => {
    const fixture = fixtureTables(strapiFixtureLayout(dialect));
    for (const [planned, found] of pairs(planStrapiLayout(model, dialect), fixture)) expect(planned, planned.name).toEqual(found);
  });

  it('every fixture table that derives from the model (all but the admin panel and feature tables) is planned', () => {
    const planned = planStrapiLayout(model, dialect).map((t) => t.name);
    const fixture = [...fixtureTables(strapiFixtureLayout(dialect)).keys()];
    expect(planned).toEqual(fixture.filter((name) => !NOT_PLANNED.includes(name)));
    expect(planned).toHaveLength(38);
  });
});

describe("Strapi's layout planned for the conformance model", () => {
  it('differs between dialects only where Strapi does: decimal is a double on SQLite', () => {
    const sqlite = planStrapiLayout(model, 'sqlite');
    const postgres = planStrapiLayout(model, 'postgres');
    const decimals = postgres.flatMap((t) => t.columns.filter((c) => c.type === 'decimal(10,2)').map((c) => `${t.name}.${c.name}`));
    expect(decimals).toEqual(['dishes.price', 'files.size', 'restaurants.price']);
    const sqliteTypes = new Map<string, string>(sqlite.flatMap((t) => t.columns.map((c) => [`${t.name}.${c.name}`, c.type] as [string, string])));
    for (const column of decimals) expect(sqliteTypes.get(column)).toBe('double');
    expect(planStrapiLayout(model, 'mysql')).toEqual(postgres);
  });

  it("follows Strapi's definitions of its own types where Cairn's model says otherwise (files' folder, which Cairn's model lacks)", () => {
    const file = model.contentTypes.get('plugin::upload.file')!;
    expect(file.attributes.has('folder')).toBe(false);
    const plan = planStrapiLayout(model, 'postgres');
    expect(plan.some((t) => t.name === 'files_folder_lnk')).toBe(true);
    const files = plan.find((t) => t.name === 'files')!;
    for (const name of ['alternative_text', 'caption', 'url', 'preview_url']) expect(files.columns.find((c) => c.name === name)?.type).toBe('text');
  });

  it('plans a model with no relation, component or media: its table and the Strapi tables only', () => {
    const small = buildModel({ contentTypes: [{ schema: { kind: 'singleType', info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' }, attributes: { line2: { type: 'string' } } } }] });
    const names = planStrapiLayout(small, 'sqlite').map((t) => t.name);
    expect(names).toContain('homes');
    expect(names.filter((n) => !planStrapiLayout(model, 'sqlite').some((t) => t.name === n))).toEqual(['homes']);
    // lodash's snake_case, as Strapi names columns: digits are split off.
    expect(planStrapiLayout(small, 'sqlite').find((t) => t.name === 'homes')!.columns.map((c) => c.name)).toContain('line_2');
  });

  it('refuses a relation whose target it does not know', () => {
    const bad = { ...model, contentTypes: new Map([...model.contentTypes].filter(([uid]) => uid !== 'api::author.author')) } as Model;
    expect(() => planStrapiLayout(bad, 'sqlite')).toThrow('api::article.article.author: unknown relation target api::author.author');
  });
});

describe("Strapi's layout planned for a model whose names are too long (long-names-model/)", () => {
  let dir: string;
  let longModel: Model;
  const LONG_TABLES = [
    'components_long_cate5301e_dishes_relation_fromd556a_lnk',
    'components_long_category_some_extremely_long_compo21308',
    'restaurant_reservati4bff2_one_chef_with_an_exc25b21_lnk',
    'restaurant_reservati4bff2_self_referencing_relb3db9_lnk',
    'restaurant_reservati4bff2_very_long_attribute_6a407_lnk',
    'restaurant_reservation_confirmation_messages_4bff2_cmps',
    'restaurant_reservation_confirmation_messages_archives',
  ];
  beforeAll(async () => {
    // Strapi ran with both: the conformance app's schemas and the two long-names files under src/.
    dir = mkdtempSync(join(tmpdir(), 'cairn-long-names-'));
    cpSync(join(CONFORMANCE_APP, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(STRAPI_FIXTURE_DIR, 'long-names-model'), join(dir, 'src'), { recursive: true });
    longModel = buildModel(await readModelFiles(dir), { strapiLayout: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('equals layout.long-names.sqlite.json, table by table, shortened names included', () => {
    const fixture = fixtureTables(JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'layout.long-names.sqlite.json'), 'utf8')));
    const planned = planStrapiLayout(longModel, 'sqlite');
    for (const [table, found] of pairs(planned, fixture)) expect(table, table.name).toEqual(found);
    expect(planned.map((t) => t.name).filter((n) => !planStrapiLayout(model, 'sqlite').some((t) => t.name === n))).toEqual(LONG_TABLES);
    expect([...fixture.keys()].filter((n) => !NOT_PLANNED.includes(n) && !planned.some((t) => t.name === n))).toEqual([]);
  });

  it("needs the model built for Strapi's layout: Cairn's own layout refuses a collectionName over 63 characters", async () => {
    expect(() => buildModel({ components: [{ uid: 'long-category.extremely-long-component', schema: { collectionName: 'c'.repeat(64), attributes: {} } }], contentTypes: [] })).toThrow(
      'is longer than 63 characters',
    );
  });
});
