import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadModel, type Model, type RelationAttribute } from '../../src/model/index.js';
import { ModelError } from '../../src/errors/index.js';

const CONFORMANCE_APP = join(import.meta.dirname, '../fixtures/conformance/app');
const EXAMPLE_APP = join(import.meta.dirname, '../../examples/restaurants');

/** An app folder in a temp dir with these files (path -> text or JSON object). */
function app(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-model-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

async function loadError(dir: string): Promise<ModelError> {
  const error = await loadModel(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const schema = (singularName: string, pluralName: string, attributes: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName, displayName: singularName },
  attributes,
});

describe('the conformance app (a Strapi v5 project) loads unchanged', () => {
  let model: Model;
  const ct = (name: string) => model.contentTypes.get(`api::${name}.${name}`)!;
  const attr = (name: string, attribute: string) => ct(name).attributes.get(attribute) as RelationAttribute;

  it('has its content-types, components and the built-in ones', async () => {
    model = await loadModel(CONFORMANCE_APP);
    expect([...model.byPluralName.keys()].sort()).toEqual(['articles', 'authors', 'categories', 'chefs', 'dishes', 'restaurants']);
    expect([...model.bySingularName.keys()].sort()).toEqual(['article', 'author', 'category', 'chef', 'dish', 'restaurant']);
    expect([...model.components.keys()].sort()).toEqual(['location.address', 'location.geo', 'sections.hero', 'sections.menu']);
    expect(model.contentTypes.has('plugin::upload.file')).toBe(true);
    expect(ct('restaurant').file).toBe('src/api/restaurant/content-types/restaurant/schema.json');
    expect(model.components.get('location.geo')!.file).toBe('src/components/location/geo.json');
  });

  it('tables and component tables', () => {
    const tables = Object.fromEntries([...model.byPluralName.values()].map((c) => [c.uid, c.table]));
    expect(tables).toEqual({
      'api::article.article': 'articles',
      'api::author.author': 'authors',
      'api::category.category': 'categories',
      'api::chef.chef': 'chefs',
      'api::dish.dish': 'dishes',
      'api::restaurant.restaurant': 'restaurants',
    });
    expect(ct('restaurant').componentsTable).toBe('restaurants_cmps');
    expect(model.components.get('location.address')).toMatchObject({ table: 'components_location_addresses', componentsTable: 'components_location_addresses_cmps', category: 'location', info: { displayName: 'Address' } });
  });

  it('owning relations have their link tables; inverse sides read the owner’s', () => {
    expect(attr('restaurant', 'chef')).toMatchObject({ relation: 'manyToOne', owner: true, toMany: false, linkTable: 'restaurants_chef_lnk', inverseOf: 'restaurants', inversedBy: 'restaurants' });
    expect(attr('chef', 'restaurants')).toMatchObject({ relation: 'oneToMany', owner: false, toMany: true, linkTable: 'restaurants_chef_lnk', inverseOf: 'chef', mappedBy: 'chef' });
    expect(attr('restaurant', 'categories')).toMatchObject({ owner: true, toMany: true, linkTable: 'restaurants_categories_lnk', inverseOf: 'restaurants' });
    expect(attr('category', 'restaurants')).toMatchObject({ owner: false, toMany: true, linkTable: 'restaurants_categories_lnk', inverseOf: 'categories' });
    expect(attr('article', 'author')).toMatchObject({ owner: true, linkTable: 'articles_author_lnk', inverseOf: 'articles' });
    expect(attr('author', 'articles')).toMatchObject({ owner: false, linkTable: 'articles_author_lnk', inverseOf: 'author' });
    expect(attr('category', 'articles')).toMatchObject({ owner: false, linkTable: 'articles_categories_lnk', inverseOf: 'categories' });
    // Self relation without an inverse side.
    expect(attr('article', 'related')).toMatchObject({ target: 'api::article.article', owner: true, toMany: true, linkTable: 'articles_related_lnk', inverseOf: undefined });
    // A relation inside a component.
    expect(model.components.get('sections.menu')!.attributes.get('dishes')).toMatchObject({ kind: 'relation', target: 'api::dish.dish', owner: true, toMany: true, linkTable: 'components_sections_menus_dishes_lnk' });
  });

  it('media, components and the dynamic zone', () => {
    expect(ct('restaurant').attributes.get('cover')).toMatchObject({ kind: 'media', multiple: false, allowedTypes: ['images'], target: 'plugin::upload.file', linkTable: 'restaurants_cover_lnk' });
    expect(ct('author').attributes.get('avatar')).toMatchObject({ kind: 'media', linkTable: 'authors_avatar_lnk' });
    expect(ct('restaurant').attributes.get('address')).toMatchObject({ kind: 'component', component: 'location.address', repeatable: false });
    expect(model.components.get('location.address')!.attributes.get('geo')).toMatchObject({ kind: 'component', component: 'location.geo', repeatable: false });
    expect(ct('restaurant').attributes.get('blocks')).toMatchObject({ kind: 'dynamiczone', components: ['sections.hero', 'sections.menu'] });
  });

  it('scalars: columns, options', () => {
    expect(ct('restaurant').attributes.get('openedOn')).toMatchObject({ kind: 'scalar', type: 'date', column: 'opened_on' });
    expect(ct('article').attributes.get('publishDate')).toMatchObject({ type: 'datetime', column: 'publish_date' });
    expect(ct('restaurant').attributes.get('name')).toMatchObject({ required: true, unique: false });
    expect(ct('restaurant').attributes.get('slug')).toMatchObject({ type: 'uid', targetField: 'name', unique: true });
    expect(ct('restaurant').attributes.get('category')).toMatchObject({ type: 'enumeration', enum: ['italian', 'french', 'japanese', 'mexican', 'other'] });
    expect(ct('category').attributes.get('name')).toMatchObject({ unique: true });
    expect(ct('chef').attributes.get('email')).toMatchObject({ type: 'email', private: false });
  });

  it('draft & publish and localized flags', () => {
    expect(ct('restaurant')).toMatchObject({ draftAndPublish: true, localized: true, kind: 'collectionType' });
    expect(ct('article')).toMatchObject({ draftAndPublish: true, localized: false });
    expect(ct('chef')).toMatchObject({ draftAndPublish: false, localized: false });
    for (const attribute of ct('restaurant').attributes.values()) expect(attribute.localized).toBe(true);
    for (const attribute of ct('article').attributes.values()) expect(attribute.localized).toBe(false);
    for (const component of model.components.values()) {
      for (const attribute of component.attributes.values()) expect(attribute.localized).toBe(false);
    }
    expect(ct('restaurant').pluginOptions).toEqual({ i18n: { localized: true } });
  });
});

describe('loadModel reads Strapi’s folder layout', () => {
  it('ignores routes/, controllers/ and services/; a missing src/components is fine; the uid uses singularName', async () => {
    const dir = app({
      'src/api/shop/content-types/store/schema.json': schema('shop', 'shops', { title: { type: 'string' } }),
      'src/api/shop/routes/shop.js': 'module.exports = {}; syntax error is never read (',
      'src/api/shop/controllers/shop.js': '((',
      'src/api/shop/services/shop.js': '((',
    });
    const model = await loadModel(dir);
    expect(model.contentTypes.get('api::shop.shop')).toMatchObject({ table: 'shops', file: 'src/api/shop/content-types/store/schema.json' });
    expect(model.components.size).toBe(0);
  });

  it('an empty folder is an app without content-types', async () => {
    const model = await loadModel(app({}));
    expect(model.byPluralName.size).toBe(0);
    expect(model.contentTypes.has('plugin::upload.file')).toBe(true);
  });

  it('a schema.json that is not JSON stops loading with its path', async () => {
    const error = await loadError(app({ 'src/api/thing/content-types/thing/schema.json': '{ "kind": ' }));
    expect(error.file).toBe('src/api/thing/content-types/thing/schema.json');
    expect(error.message).toMatch(/^src\/api\/thing\/content-types\/thing\/schema.json: invalid JSON/);
  });

  it('a component file that is not JSON stops loading with its path', async () => {
    const error = await loadError(app({ 'src/components/shared/seo.json': '{ attributes: {} }' }));
    expect(error.file).toBe('src/components/shared/seo.json');
    expect(error.reason).toMatch(/invalid JSON/);
  });

  it('a content-type folder without schema.json', async () => {
    const error = await loadError(app({ 'src/api/thing/content-types/thing/lifecycles.js': '' }));
    expect(error.file).toBe('src/api/thing/content-types/thing/schema.json');
    expect(error.reason).toMatch(/cannot read/);
  });

  it('an invalid attribute in a file names that file, the attribute and the reason', async () => {
    const dir = app({
      'src/api/thing/content-types/thing/schema.json': schema('thing', 'things', { seo: { type: 'component', component: 'shared.seo' } }),
      'src/components/shared/seo.json': { attributes: { title: { type: 'strnig' } } },
    });
    const error = await loadError(dir);
    expect(error.message).toBe('src/components/shared/seo.json (attribute "title"): unknown attribute type "strnig"');
  });

  it('components from files get their uid from category folder and file name', async () => {
    const dir = app({
      'src/api/thing/content-types/thing/schema.json': schema('thing', 'things', { seo: { type: 'component', component: 'shared.seo-meta' } }),
      'src/components/shared/seo-meta.json': { info: { displayName: 'SEO' }, attributes: { title: { type: 'string' } } },
      'src/components/shared/README.md': 'not a component',
    });
    const model = await loadModel(dir);
    expect([...model.components.keys()]).toEqual(['shared.seo-meta']);
    // No collectionName: derived like Strapi's default.
    expect(model.components.get('shared.seo-meta')!.table).toBe('components_shared_seo_metas');
  });

  it('the example app loads', async () => {
    const model = await loadModel(EXAMPLE_APP);
    expect(model.byPluralName.size).toBeGreaterThan(0);
  });
});
