import { describe, expect, it } from 'vitest';
import {
  buildModel,
  getComponent,
  getContentType,
  isSelectableScalar,
  scalarAttributes,
  snakeCase,
  type MediaAttribute,
  type RelationAttribute,
} from '../../src/model/index.js';
import { thing } from './helpers.js';

const one = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  getContentType(buildModel({ contentTypes: [{ schema: thing(attributes, extra) }] }), 'api::thing.thing');

describe('snakeCase', () => {
  it.each([
    ['publishDate', 'publish_date'],
    ['openedOn', 'opened_on'],
    ['already_snake', 'already_snake'],
    ['title', 'title'],
    ['HTMLBody', 'html_body'],
    ['seo-meta', 'seo_meta'],
    ['provider_metadata', 'provider_metadata'],
  ])('%s -> %s', (name, snake) => expect(snakeCase(name)).toBe(snake));
});

describe('normalization', () => {
  it('uid defaults to api::<api ?? singularName>.<singularName>', () => {
    const model = buildModel({ contentTypes: [{ schema: thing({}) }, { api: 'shop', schema: thing({}, { collectionName: 'items', info: { singularName: 'item', pluralName: 'items', displayName: 'Item' } }) }] });
    expect(model.contentTypes.has('api::thing.thing')).toBe(true);
    expect(model.contentTypes.has('api::shop.item')).toBe(true);
  });

  it('table falls back to snake_case(pluralName); components to components_<category>_<plural name>', () => {
    const model = buildModel({
      contentTypes: [{ schema: thing({ seo: { type: 'component', component: 'shared.seo-entry' } }, { collectionName: undefined, info: { singularName: 'blog-post', pluralName: 'blog-posts', displayName: 'Post' } }) }],
      components: [{ uid: 'shared.seo-entry', schema: { attributes: { title: { type: 'string' } } } }],
    });
    const post = getContentType(model, 'api::blog-post.blog-post');
    expect(post).toMatchObject({ table: 'blog_posts', componentsTable: 'blog_posts_cmps' });
    expect(getComponent(model, 'shared.seo-entry')).toMatchObject({ table: 'components_shared_seo_entries', componentsTable: 'components_shared_seo_entries_cmps', info: { displayName: 'seo-entry' } });
  });

  it('draftAndPublish is true only when explicitly true; kind defaults to collectionType', () => {
    expect(one({}).draftAndPublish).toBe(false);
    expect(one({}, { options: { draftAndPublish: false } }).draftAndPublish).toBe(false);
    expect(one({}, { options: { draftAndPublish: true } }).draftAndPublish).toBe(true);
    expect(one({}, { kind: undefined }).kind).toBe('collectionType');
    expect(one({}, { kind: 'singleType' }).kind).toBe('singleType');
  });

  it('localized: per content-type, and per attribute unless pluginOptions.i18n.localized is false', () => {
    const i18n = (localized: boolean) => ({ pluginOptions: { i18n: { localized } } });
    const localizedType = one({ title: { type: 'string' }, sku: { type: 'string', ...i18n(false) }, body: { type: 'text', ...i18n(true) } }, i18n(true));
    expect(localizedType.localized).toBe(true);
    expect(localizedType.attributes.get('title')!.localized).toBe(true);
    expect(localizedType.attributes.get('sku')!.localized).toBe(false);
    expect(localizedType.attributes.get('body')!.localized).toBe(true);
    const plain = one({ body: { type: 'text', ...i18n(true) } });
    expect(plain.localized).toBe(false);
    expect(plain.attributes.get('body')!.localized).toBe(false);
  });

  it('password is always private; privateAttributes lists private ones; scalarAttributes and isSelectableScalar skip them', () => {
    const ct = one({ title: { type: 'string' }, secret: { type: 'string', private: true }, pass: { type: 'password' }, owner: { type: 'relation', relation: 'oneWay', target: 'api::thing.thing' } });
    expect(ct.attributes.get('pass')).toMatchObject({ private: true });
    expect([...ct.privateAttributes].sort()).toEqual(['pass', 'secret']);
    expect(scalarAttributes(ct).map((a) => a.name)).toEqual(['title']);
    expect(isSelectableScalar(ct.attributes.get('title')!)).toBe(true);
    expect(isSelectableScalar(ct.attributes.get('secret')!)).toBe(false);
    expect(isSelectableScalar(ct.attributes.get('owner')!)).toBe(false);
  });

  it('scalar options are carried over', () => {
    const ct = one({
      code: { type: 'string', required: true, unique: true, minLength: 2, maxLength: 8, regex: '^[A-Z]+$', default: 'AB' },
      stars: { type: 'integer', min: 0, max: 5, default: 3 },
      meta: { type: 'json', default: { a: [1] } },
    });
    expect(ct.attributes.get('code')).toMatchObject({ kind: 'scalar', type: 'string', column: 'code', required: true, unique: true, minLength: 2, maxLength: 8, regex: '^[A-Z]+$', default: 'AB' });
    expect(ct.attributes.get('stars')).toMatchObject({ min: 0, max: 5, default: 3, unique: false, required: false });
    expect(ct.attributes.get('meta')).toMatchObject({ default: { a: [1] } });
  });

  it('relation kinds: toMany and owner', () => {
    const rel = (relation: string) => ({ type: 'relation', relation, target: 'api::thing.thing' });
    const ct = one({ a: rel('oneToOne'), b: rel('oneToMany'), c: rel('manyToOne'), d: rel('manyToMany'), e: rel('oneWay'), f: rel('manyWay') });
    const toMany = Object.fromEntries([...ct.attributes.values()].map((a) => [a.name, (a as RelationAttribute).toMany]));
    expect(toMany).toEqual({ a: false, b: true, c: false, d: true, e: false, f: true });
    for (const a of ct.attributes.values()) expect(a).toMatchObject({ owner: true, linkTable: `things_${a.name}_lnk` });
  });

  it('media defaults: single, any type', () => {
    expect(one({ file: { type: 'media' } }).attributes.get('file')).toMatchObject({ kind: 'media', multiple: false, allowedTypes: [], linkTable: 'things_file_lnk' });
    expect((one({ gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'videos'] } }).attributes.get('gallery') as MediaAttribute).allowedTypes).toEqual(['images', 'videos']);
  });

  it('derived table names longer than 63 characters are shortened with a stable hash', () => {
    const long = 'anAttributeWithAVeryLongNameThatKeepsGoingAndGoing';
    const a = one({ [long]: { type: 'media' } }, { collectionName: 'a_rather_long_collection_name' }).attributes.get(long) as MediaAttribute;
    expect(a.linkTable.length).toBeLessThanOrEqual(63);
    expect(a.linkTable).toMatch(/^a_rather_long_collection_name_an_attribute_with_a_very_[0-9a-f]{8}$/);
    expect((one({ [long]: { type: 'media' } }, { collectionName: 'a_rather_long_collection_name' }).attributes.get(long) as MediaAttribute).linkTable).toBe(a.linkTable);
  });
});

describe('the built-in upload file type', () => {
  const model = buildModel({ contentTypes: [] });
  const file = getContentType(model, 'plugin::upload.file');

  it('is always present, not routed, not draft & publish, not localized', () => {
    expect(file).toMatchObject({ table: 'files', plugin: 'upload', draftAndPublish: false, localized: false, kind: 'collectionType', info: { singularName: 'file', pluralName: 'files' } });
    expect(model.byPluralName.has('files')).toBe(false);
  });

  it("has Strapi's attributes", () => {
    const shape = Object.fromEntries([...file.attributes.values()].map((a) => [a.name, a.kind === 'scalar' ? `${a.type}${a.required ? '!' : ''}${a.private ? ' private' : ''}` : a.kind]));
    expect(shape).toEqual({
      name: 'string!',
      alternativeText: 'text',
      caption: 'text',
      focalPoint: 'json',
      width: 'integer',
      height: 'integer',
      formats: 'json',
      hash: 'string!',
      ext: 'string',
      mime: 'string!',
      size: 'decimal!',
      url: 'text!',
      previewUrl: 'text',
      provider: 'string!',
      provider_metadata: 'json',
      folderPath: 'string private',
    });
    expect([...file.privateAttributes]).toEqual(['folderPath']);
  });
});

describe('the model is immutable', () => {
  const input = thing({ title: { type: 'string', pluginOptions: { i18n: { localized: false } } }, secret: { type: 'password' } });
  const model = buildModel({ contentTypes: [{ schema: input }] });
  const ct = getContentType(model, 'api::thing.thing');

  it('maps and sets refuse writes', () => {
    expect(() => (model.contentTypes as Map<string, unknown>).set('x', {})).toThrow(/immutable/);
    expect(() => (model.byPluralName as Map<string, unknown>).delete('things')).toThrow(/immutable/);
    expect(() => (ct.attributes as Map<string, unknown>).clear()).toThrow(/immutable/);
    expect(() => (ct.privateAttributes as Set<string>).delete('secret')).toThrow(/immutable/);
    expect(() => (ct.privateAttributes as Set<string>).add('title')).toThrow(/immutable/);
    expect(ct.privateAttributes.has('title')).toBe(false);
  });

  it('objects are frozen, deeply for raw schema data', () => {
    for (const value of [model, ct, ct.info, ct.pluginOptions, ct.attributes.get('title'), ct.attributes.get('title')!.raw]) expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen((ct.attributes.get('title')!.raw.pluginOptions as { i18n: object }).i18n)).toBe(true);
    expect(() => {
      'use strict';
      (ct.attributes.get('title') as { private: boolean }).private = true;
    }).toThrow(TypeError);
  });

  it("the caller's schema objects are left alone", () => {
    expect(Object.isFrozen(input)).toBe(false);
    expect(Object.isFrozen(input.attributes.title)).toBe(false);
  });
});

describe('lookups', () => {
  const model = buildModel({ contentTypes: [{ schema: thing({}) }], components: [{ uid: 'a.b', schema: { attributes: {} } }] });

  it('getContentType and getComponent find by uid and throw on an unknown one', () => {
    expect(getContentType(model, 'api::thing.thing').table).toBe('things');
    expect(getComponent(model, 'a.b').uid).toBe('a.b');
    expect(() => getContentType(model, 'api::nope.nope')).toThrow(/Unknown content-type api::nope.nope/);
    expect(() => getComponent(model, 'a.nope')).toThrow(/Unknown component a.nope/);
  });

  it('byPluralName and bySingularName hold the api content-types', () => {
    expect(model.byPluralName.get('things')!.uid).toBe('api::thing.thing');
    expect(model.bySingularName.get('thing')!.uid).toBe('api::thing.thing');
  });
});
