import { describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildModel, loadModel, type RelationAttribute } from '../../src/model/index.js';
import { ModelError } from '../../src/errors/index.js';

const CONFORMANCE_APP = join(import.meta.dirname, '../../../shared/conformance/app');

describe('loading a Strapi v5 app unchanged', () => {
  it('loads the conformance model: content-types, components, relations resolved on both sides', async () => {
    const model = await loadModel(CONFORMANCE_APP);
    expect([...model.byPluralName.keys()].sort()).toEqual(['articles', 'authors', 'categories', 'chefs', 'dishes', 'restaurants']);
    expect([...model.components.keys()].sort()).toEqual(['location.address', 'location.geo', 'sections.hero', 'sections.menu']);
    const restaurant = model.contentTypes.get('api::restaurant.restaurant')!;
    expect(restaurant).toMatchObject({ table: 'restaurants', draftAndPublish: true, localized: true, kind: 'collectionType' });
    const chefRelation = restaurant.attributes.get('chef') as RelationAttribute;
    expect(chefRelation).toMatchObject({ owner: true, toMany: false, linkTable: 'restaurants_chef_lnk', inverseOf: 'restaurants' });
    const inverse = model.contentTypes.get('api::chef.chef')!.attributes.get('restaurants') as RelationAttribute;
    expect(inverse).toMatchObject({ owner: false, toMany: true, linkTable: 'restaurants_chef_lnk' });
    expect(restaurant.attributes.get('openedOn')).toMatchObject({ kind: 'scalar', column: 'opened_on', localized: true });
    expect(model.contentTypes.get('api::article.article')!.attributes.get('publishDate')).toMatchObject({ column: 'publish_date', localized: false });
    expect(model.components.get('location.address')!.attributes.get('geo')).toMatchObject({ kind: 'component', component: 'location.geo' });
    expect(model.contentTypes.get('plugin::upload.file')).toMatchObject({ table: 'files', plugin: 'upload' });
    expect(Object.isFrozen(chefRelation)).toBe(true);
  });
});

const ct = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  collectionName: 'things',
  info: { singularName: 'thing', pluralName: 'things', displayName: 'Thing' },
  attributes,
  ...extra,
});

function modelError(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return error as ModelError;
  }
  throw new Error('expected a ModelError');
}

describe('a bad model stops start-up with the file, the attribute and the reason', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['unknown type', { title: { type: 'strnig' } }, 'title', /unknown attribute type "strnig"/],
    ['enumeration without values', { kind: { type: 'enumeration', enum: [] } }, 'kind', /non-empty list/],
    ['bad regex', { code: { type: 'string', regex: '([' } }, 'code', /not a valid regular expression/],
    ['reserved name', { documentId: { type: 'string' } }, 'documentId', /reserved/],
    ['bad name', { '1st': { type: 'string' } }, '1st', /start with a letter/],
    ['relation without target', { owner: { type: 'relation', relation: 'manyToOne' } }, 'owner', /needs a "target"/],
    ['unknown relation kind', { owner: { type: 'relation', relation: 'manyToSome', target: 'api::thing.thing' } }, 'owner', /unknown relation/],
    ['unknown target', { owner: { type: 'relation', relation: 'manyToOne', target: 'api::nope.nope' } }, 'owner', /unknown relation target/],
    ['unknown component', { address: { type: 'component', component: 'location.nope' } }, 'address', /unknown component/],
    ['empty dynamic zone', { blocks: { type: 'dynamiczone', components: [] } }, 'blocks', /non-empty list/],
    ['bad media types', { cover: { type: 'media', allowedTypes: ['pictures'] } }, 'cover', /allowedTypes/],
    ['min not a number', { stars: { type: 'integer', min: 'low' } }, 'stars', /"min" must be a number/],
    ['targetField on a missing attribute', { slug: { type: 'uid', targetField: 'title' } }, 'slug', /targetField/],
    ['mappedBy to nothing', { others: { type: 'relation', relation: 'oneToMany', target: 'api::thing.thing', mappedBy: 'nope' } }, 'others', /mappedBy/],
  ];
  for (const [label, attributes, attribute, reason] of cases) {
    it(label, () => {
      const error = modelError(() => buildModel({ contentTypes: [{ schema: ct(attributes), file: 'src/api/thing/schema.json' }] }));
      expect(error.file).toBe('src/api/thing/schema.json');
      expect(error.attribute).toBe(attribute);
      expect(error.reason).toMatch(reason);
      expect(error.message).toContain('src/api/thing/schema.json');
    });
  }

  it('bad info and kinds name the file', () => {
    expect(modelError(() => buildModel({ contentTypes: [{ schema: ct({}, { kind: 'manyType' }) }] })).reason).toMatch(/kind/);
    expect(modelError(() => buildModel({ contentTypes: [{ schema: ct({}, { info: { singularName: 'Thing', pluralName: 'things', displayName: 'T' } }) }] })).reason).toMatch(/kebab-case/);
  });

  it('dynamic zones inside components are refused', () => {
    const error = modelError(() =>
      buildModel({
        contentTypes: [],
        components: [
          { uid: 'a.b', schema: { attributes: { blocks: { type: 'dynamiczone', components: ['a.c'] } } } },
          { uid: 'a.c', schema: { attributes: {} } },
        ],
      }),
    );
    expect(error.attribute).toBe('blocks');
  });

  it('a schema file that is not JSON stops loading with its path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-model-'));
    mkdirSync(join(dir, 'src/api/thing/content-types/thing'), { recursive: true });
    writeFileSync(join(dir, 'src/api/thing/content-types/thing/schema.json'), '{ "kind": ');
    await expect(loadModel(dir)).rejects.toThrow(/src\/api\/thing\/content-types\/thing\/schema.json: invalid JSON/);
  });
});
