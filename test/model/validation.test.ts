import { describe, expect, it } from 'vitest';
import { buildModel, type ModelInput } from '../../src/model/index.js';
import { expectModelError, FILE, other, OTHER_FILE, thing } from './helpers.js';

const rel = (relation: string, target: string, extra: Record<string, unknown> = {}) => ({ type: 'relation', relation, target, ...extra });

/** `thing` with these attributes, next to `other` (with its own) and two components. */
function input(attributes: Record<string, unknown>, otherAttributes: Record<string, unknown> = {}): ModelInput {
  return {
    contentTypes: [
      { schema: thing(attributes), file: FILE },
      { schema: other(otherAttributes), file: OTHER_FILE },
    ],
    components: [{ uid: 'shared.seo', schema: { collectionName: 'components_shared_seos', attributes: { title: { type: 'string' } } } }],
  };
}

describe('attribute rules: the error names the file, the attribute and the reason', () => {
  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['unknown type', { title: { type: 'strnig' } }, 'title', /unknown attribute type "strnig"/],
    ['missing type', { title: { required: true } }, 'title', /"type" is missing/],
    ['attribute not an object', { title: 'string' }, 'title', /must be an object/],
    ['name starting with a digit', { '1st': { type: 'string' } }, '1st', /start with a letter/],
    ['name with a dash', { 'first-name': { type: 'string' } }, 'first-name', /start with a letter/],
    ['reserved: id', { id: { type: 'integer' } }, 'id', /reserved/],
    ['reserved: documentId', { documentId: { type: 'string' } }, 'documentId', /reserved/],
    ['reserved: document_id', { document_id: { type: 'string' } }, 'document_id', /reserved/],
    ['reserved: createdAt', { createdAt: { type: 'datetime' } }, 'createdAt', /reserved/],
    ['reserved: updated_at (snake form)', { updated_at: { type: 'datetime' } }, 'updated_at', /reserved/],
    ['reserved: publishedAt', { publishedAt: { type: 'datetime' } }, 'publishedAt', /reserved/],
    ['reserved: createdBy', { createdBy: { type: 'string' } }, 'createdBy', /reserved/],
    ['reserved: updatedBy', { updatedBy: { type: 'string' } }, 'updatedBy', /reserved/],
    ['reserved: locale', { locale: { type: 'string' } }, 'locale', /reserved/],
    ['reserved: localizations', { localizations: { type: 'json' } }, 'localizations', /reserved/],
    ['reserved: __component', { __component: { type: 'string' } }, '__component', /reserved.*"__"/],
    ['reserved: any __ name', { __secret: { type: 'string' } }, '__secret', /reserved/],
    ['two attributes, one column', { openedOn: { type: 'date' }, opened_on: { type: 'date' } }, 'opened_on', /column "opened_on" is also the column of attribute "openedOn"/],
    ['enumeration without values', { kind: { type: 'enumeration', enum: [] } }, 'kind', /non-empty list/],
    ['enumeration without enum', { kind: { type: 'enumeration' } }, 'kind', /needs "enum"/],
    ['enumeration of numbers', { kind: { type: 'enumeration', enum: [1, 2] } }, 'kind', /strings/],
    ['enumeration value twice', { kind: { type: 'enumeration', enum: ['a', 'b', 'a'] } }, 'kind', /"a" is listed twice/],
    ['enumeration default not a value', { kind: { type: 'enumeration', enum: ['a'], default: 'z' } }, 'kind', /"default" "z" is not one of the enum values/],
    ['regex that does not compile', { code: { type: 'string', regex: '([' } }, 'code', /not a valid regular expression/],
    ['regex not a string', { code: { type: 'string', regex: 5 } }, 'code', /"regex" must be a string/],
    ['min not a number', { stars: { type: 'integer', min: 'low' } }, 'stars', /"min" must be a number/],
    ['max not a number', { stars: { type: 'integer', max: {} } }, 'stars', /"max" must be a number/],
    ['min above max', { stars: { type: 'integer', min: 5, max: 1 } }, 'stars', /"min" \(5\) is greater than "max" \(1\)/],
    ['negative minLength', { code: { type: 'string', minLength: -1 } }, 'code', /"minLength" must be a whole number/],
    ['fractional maxLength', { code: { type: 'string', maxLength: 2.5 } }, 'code', /"maxLength" must be a whole number/],
    ['minLength above maxLength', { code: { type: 'string', minLength: 9, maxLength: 3 } }, 'code', /"minLength" \(9\) is greater than "maxLength" \(3\)/],
    ['required not a boolean', { title: { type: 'string', required: 'yes' } }, 'title', /"required" must be true or false/],
    ['private as a string fails closed', { secret: { type: 'string', private: 'true' } }, 'secret', /"private" must be true or false/],
    ['unique not a boolean', { code: { type: 'string', unique: 1 } }, 'code', /"unique" must be true or false/],
    ['targetField on a missing attribute', { slug: { type: 'uid', targetField: 'title' } }, 'slug', /targetField "title" must name a string or text attribute/],
    ['targetField on an integer', { n: { type: 'integer' }, slug: { type: 'uid', targetField: 'n' } }, 'slug', /targetField "n"/],
    ['targetField on a non-uid', { title: { type: 'string' }, code: { type: 'string', targetField: 'title' } }, 'code', /only for uid attributes/],
    ['relation without target', { owner: { type: 'relation', relation: 'manyToOne' } }, 'owner', /needs a "target"/],
    ['unknown relation kind', { owner: rel('manyToSome', 'api::other.other') }, 'owner', /unknown relation "manyToSome"/],
    ['morphMany without morphBy', { owner: rel('morphMany', 'api::other.other') }, 'owner', /needs "morphBy"/],
    ['morphOne without target', { owner: { type: 'relation', relation: 'morphOne', morphBy: 'x' } }, 'owner', /morphOne relation needs a "target"/],
    ['morphMany by an attribute that is no morph relation', { owner: rel('morphMany', 'api::other.other', { morphBy: 'name' }) }, 'owner', /morphBy "name" must name a morphToOne or morphToMany attribute of api::other.other/],
    ['morphMany to an unknown type', { owner: rel('morphMany', 'api::nope.nope', { morphBy: 'x' }) }, 'owner', /unknown morph target "api::nope.nope"/],
    ['unknown target', { owner: rel('manyToOne', 'api::nope.nope') }, 'owner', /unknown relation target "api::nope.nope"/],
    ['a component as target', { owner: rel('manyToOne', 'shared.seo') }, 'owner', /unknown relation target "shared.seo"/],
    ['both mappedBy and inversedBy', { o: rel('oneToOne', 'api::other.other', { mappedBy: 'a', inversedBy: 'b' }) }, 'o', /both mappedBy and inversedBy/],
    ['mappedBy not a string', { o: rel('oneToMany', 'api::other.other', { mappedBy: 3 }) }, 'o', /"mappedBy" must name an attribute/],
    ['oneWay with inversedBy', { o: rel('oneWay', 'api::other.other', { inversedBy: 'things' }) }, 'o', /oneWay relation is one-way/],
    ['manyWay with mappedBy', { o: rel('manyWay', 'api::other.other', { mappedBy: 'thing' }) }, 'o', /manyWay relation is one-way/],
    ['oneToMany owning a bidirectional relation', { o: rel('oneToMany', 'api::other.other', { inversedBy: 'thing' }) }, 'o', /oneToMany is the inverse side: use mappedBy/],
    ['manyToOne as an inverse side', { o: rel('manyToOne', 'api::other.other', { mappedBy: 'things' }) }, 'o', /manyToOne is the owning side: use inversedBy/],
    ['mappedBy to nothing', { others: rel('oneToMany', 'api::other.other', { mappedBy: 'nope' }) }, 'others', /mappedBy "nope" must name a relation of api::other.other that targets api::thing.thing/],
    ['media with unknown allowedTypes', { cover: { type: 'media', allowedTypes: ['pictures'] } }, 'cover', /"allowedTypes" must list only images, files, videos or audios/],
    ['media allowedTypes not a list', { cover: { type: 'media', allowedTypes: 'images' } }, 'cover', /allowedTypes/],
    ['media multiple not a boolean', { cover: { type: 'media', multiple: 'yes' } }, 'cover', /"multiple" must be true or false/],
    ['unknown component', { seo: { type: 'component', component: 'shared.nope' } }, 'seo', /unknown component "shared.nope"/],
    ['component that is not a uid', { seo: { type: 'component', component: 'seo' } }, 'seo', /must be a component uid like "category.name"/],
    ['repeatable not a boolean', { seo: { type: 'component', component: 'shared.seo', repeatable: 'true' } }, 'seo', /"repeatable" must be true or false/],
    ['component min not a count', { seo: { type: 'component', component: 'shared.seo', repeatable: true, min: -2 } }, 'seo', /"min" must be a whole number/],
    ['component min above max', { seo: { type: 'component', component: 'shared.seo', repeatable: true, min: 3, max: 1 } }, 'seo', /"min" \(3\) is greater than "max" \(1\)/],
    ['empty dynamic zone', { blocks: { type: 'dynamiczone', components: [] } }, 'blocks', /non-empty list/],
    ['dynamic zone without components', { blocks: { type: 'dynamiczone' } }, 'blocks', /needs "components"/],
    ['dynamic zone with an unknown component', { blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.nope'] } }, 'blocks', /unknown component "shared.nope"/],
    ['dynamic zone max not a number', { blocks: { type: 'dynamiczone', components: ['shared.seo'], max: 'many' } }, 'blocks', /"max" must be a number/],
  ];
  for (const [label, attributes, attribute, reason] of cases) {
    it(label, () => {
      expectModelError(input(attributes), FILE, attribute, reason);
    });
  }
});

describe('both sides of a bidirectional relation must agree', () => {
  it("mappedBy names an attribute that is not a relation back to this type", () => {
    expectModelError(input({ others: rel('oneToMany', 'api::other.other', { mappedBy: 'title' }) }, { title: { type: 'string' } }), FILE, 'others', /mappedBy "title"/);
  });

  it('mappedBy names a relation that targets another type', () => {
    expectModelError(
      input({ others: rel('oneToMany', 'api::other.other', { mappedBy: 'self' }) }, { self: rel('manyToOne', 'api::other.other') }),
      FILE,
      'others',
      /mappedBy "self" must name a relation of api::other.other that targets api::thing.thing/,
    );
  });

  it("mappedBy names an owner whose inversedBy points to another attribute", () => {
    expectModelError(
      input({ others: rel('oneToMany', 'api::other.other', { mappedBy: 'thing' }) }, { thing: rel('manyToOne', 'api::thing.thing', { inversedBy: 'elsewhere' }) }),
      FILE,
      'others',
      /mappedBy "thing": api::other.other.thing has inversedBy "elsewhere", not "others"/,
    );
  });

  it('inversedBy names an attribute that does not map back', () => {
    expectModelError(
      input({ other: rel('manyToOne', 'api::other.other', { inversedBy: 'things' }) }, { things: rel('manyToMany', 'api::thing.thing') }),
      FILE,
      'other',
      /inversedBy "things" must name a relation of api::other.other that targets api::thing.thing with mappedBy "other"/,
    );
  });

  it('the kinds of the two sides must match', () => {
    expectModelError(
      input({ others: rel('manyToMany', 'api::other.other', { mappedBy: 'thing' }) }, { thing: rel('manyToOne', 'api::thing.thing', { inversedBy: 'others' }) }),
      FILE,
      'others',
      /a manyToMany cannot be the inverse side of api::other.other.thing \(manyToOne\): use oneToMany/,
    );
  });

  it('a one-way owner cannot have an inverse side', () => {
    expectModelError(
      input({ others: rel('oneToMany', 'api::other.other', { mappedBy: 'things' }) }, { things: rel('manyWay', 'api::thing.thing') }),
      FILE,
      'others',
      /only oneToOne, manyToOne and manyToMany relations have an inverse side/,
    );
  });
});

describe('content-type rules name the file', () => {
  const schemaCases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['unknown kind', { kind: 'manyType' }, /"kind" must be collectionType or singleType/],
    ['missing info', { info: undefined }, /info.singularName is required/],
    ['singularName not kebab-case', { info: { singularName: 'Thing', pluralName: 'things', displayName: 'T' } }, /info.singularName .*kebab-case/],
    ['pluralName missing', { info: { singularName: 'thing', displayName: 'T' } }, /info.pluralName is required/],
    ['same singular and plural name', { info: { singularName: 'sheep', pluralName: 'sheep', displayName: 'Sheep' } }, /must differ/],
    ['displayName missing', { info: { singularName: 'thing', pluralName: 'things' } }, /info.displayName is required/],
    ['attributes not an object', { attributes: ['title'] }, /"attributes" must be an object/],
    ['draftAndPublish not a boolean', { options: { draftAndPublish: 'yes' } }, /options.draftAndPublish must be true or false/],
    ['collectionName with SQL in it', { collectionName: 'things; DROP TABLE x' }, /collectionName must be a table name/],
    ['collectionName too long', { collectionName: 'x'.repeat(64) }, /longer than 63 characters/],
    ["collectionName in Cairn's namespace", { collectionName: 'cairn_permissions' }, /are Cairn's own/],
  ];
  for (const [label, extra, reason] of schemaCases) {
    it(label, () => {
      expectModelError({ contentTypes: [{ schema: thing({}, extra), file: FILE }] }, FILE, undefined, reason);
    });
  }

  it('a schema that is not an object', () => {
    expectModelError({ contentTypes: [{ uid: 'api::thing.thing', schema: [] as unknown as object, file: FILE }] }, FILE, undefined, /must be a JSON object/);
  });

  it('singular and plural names are unique across content-types (plural of one = singular of another)', () => {
    const second = { ...other(), info: { singularName: 'things', pluralName: 'thingses', displayName: 'X' } };
    expectModelError({ contentTypes: [{ schema: thing({}), file: FILE }, { schema: second, file: OTHER_FILE }] }, OTHER_FILE, undefined, /API name "things" .* is already used by api::thing.thing/);
  });

  it('an api type cannot take the name of a built-in plugin type', () => {
    const users = thing({}, { collectionName: 'my_users', info: { singularName: 'member', pluralName: 'users', displayName: 'Member' } });
    expectModelError({ contentTypes: [{ schema: users, file: FILE }] }, FILE, undefined, /"users" .* plugin::users-permissions.user/);
  });

  it('two content-types cannot share a table, nor take a built-in one', () => {
    const second = { ...other(), collectionName: 'things' };
    expectModelError({ contentTypes: [{ schema: thing({}), file: FILE }, { schema: second, file: OTHER_FILE }] }, OTHER_FILE, undefined, /table "things" is also used by api::thing.thing/);
    expectModelError({ contentTypes: [{ schema: thing({}, { collectionName: 'files' }), file: FILE }] }, FILE, undefined, /table "files" is also used by plugin::upload.file/);
  });

  it('a content-type table cannot be the link table of another schema', () => {
    const second = { ...other(), collectionName: 'things_owner_lnk' };
    expectModelError(
      { contentTypes: [{ schema: thing({ owner: rel('manyToOne', 'api::other.other') }), file: FILE }, { schema: second, file: OTHER_FILE }] },
      OTHER_FILE,
      undefined,
      /table "things_owner_lnk" is also used by api::thing.thing \(attribute "owner"\)/,
    );
  });

  it('a content-type defined twice', () => {
    expectModelError({ contentTypes: [{ schema: thing({}), file: FILE }, { schema: thing({}), file: 'second.json' }] }, 'second.json', undefined, /api::thing.thing is defined twice/);
  });

  it('a content-type uid that is not api:: or plugin::', () => {
    expectModelError({ contentTypes: [{ uid: 'thing', schema: thing({}), file: FILE }] }, FILE, undefined, /"thing" is not a content-type uid/);
  });
});

describe('component rules', () => {
  const cmp = (uid: string, attributes: Record<string, unknown>) => ({ uid, schema: { attributes }, file: `src/components/${uid.replace('.', '/')}.json` });

  it('a dynamic zone inside a component names known components, none of which contains it', () => {
    const file = 'src/components/a/b.json';
    expect(() => buildModel({ contentTypes: [], components: [cmp('a.b', { blocks: { type: 'dynamiczone', components: ['a.c'] } }), cmp('a.c', {})] })).not.toThrow();
    expectModelError({ contentTypes: [], components: [cmp('a.b', { blocks: { type: 'dynamiczone', components: ['a.x'] } })] }, file, 'blocks', /unknown component "a.x"/);
    expectModelError(
      { contentTypes: [], components: [cmp('a.b', { blocks: { type: 'dynamiczone', components: ['a.c'] } }), cmp('a.c', { inner: { type: 'component', component: 'a.b' } })] },
      'src/components/a/c.json',
      'inner',
      /component "a.b" contains itself \(a.b -> a.c -> a.b\)/,
    );
  });

  it('relations inside components are owner side only', () => {
    const file = 'src/components/a/b.json';
    const input: ModelInput = { contentTypes: [{ schema: thing({}), file: FILE }], components: [cmp('a.b', { thing: rel('manyToOne', 'api::thing.thing', { inversedBy: 'bs' }) })] };
    expectModelError(input, file, 'thing', /relations in components are one-way/);
  });

  it('morphToOne and morphToMany inside components (as Strapi 5 lays them out); their inverse sides are a content type\'s', () => {
    const model = buildModel({
      contentTypes: [{ schema: thing({}), file: FILE }],
      components: [cmp('a.b', { one: { type: 'relation', relation: 'morphToOne' }, many: { type: 'relation', relation: 'morphToMany' } })],
    });
    expect(model.components.get('a.b')!.attributes.get('one')).toMatchObject({ kind: 'morph', relation: 'morphToOne', toMany: false });
    expect(model.components.get('a.b')!.attributes.get('many')).toMatchObject({ kind: 'morph', relation: 'morphToMany', toMany: true });
    const input: ModelInput = {
      contentTypes: [{ schema: thing({ links: { type: 'relation', relation: 'morphToMany' } }), file: FILE }],
      components: [cmp('a.b', { back: rel('morphMany', 'api::thing.thing', { morphBy: 'links' }) })],
    };
    expectModelError(input, 'src/components/a/b.json', 'back', /components may hold morphToOne and morphToMany relations only/);
  });

  it('a component that contains itself, directly or through another', () => {
    expectModelError({ contentTypes: [], components: [cmp('a.b', { me: { type: 'component', component: 'a.b' } })] }, 'src/components/a/b.json', 'me', /contains itself \(a.b -> a.b\)/);
    expectModelError(
      { contentTypes: [], components: [cmp('a.b', { c: { type: 'component', component: 'a.c' } }), cmp('a.c', { b: { type: 'component', component: 'a.b', repeatable: true } })] },
      'src/components/a/c.json',
      'b',
      /contains itself \(a.b -> a.c -> a.b\)/,
    );
  });

  it('reserved names and bad attributes apply to components too', () => {
    expectModelError({ contentTypes: [], components: [cmp('a.b', { id: { type: 'integer' } })] }, 'src/components/a/b.json', 'id', /reserved/);
  });

  it('a component uid must be <category>.<name>', () => {
    expectModelError({ contentTypes: [], components: [{ uid: 'nocategory', schema: { attributes: {} }, file: 'x.json' }] }, 'x.json', undefined, /"nocategory" is not a component uid/);
  });

  it('a component defined twice', () => {
    expectModelError({ contentTypes: [], components: [cmp('a.b', {}), { ...cmp('a.b', {}), file: 'again.json' }] }, 'again.json', undefined, /component a.b is defined twice/);
  });
});

describe('what is accepted', () => {
  it('morph relations on plugin and api content-types (Strapi 5 allows both)', () => {
    const plugin = { ...thing({ related: { type: 'relation', relation: 'morphToMany' } }), collectionName: 'plugin_things' };
    const api = other({ one: { type: 'relation', relation: 'morphToOne' }, back: rel('morphMany', 'plugin::mine.thing', { morphBy: 'related' }) });
    const model = buildModel({ contentTypes: [{ uid: 'plugin::mine.thing', schema: plugin }, { schema: api }] });
    expect(model.contentTypes.get('plugin::mine.thing')).toMatchObject({ plugin: 'mine' });
    expect(model.contentTypes.get('plugin::mine.thing')!.attributes.get('related')).toMatchObject({ kind: 'morph', relation: 'morphToMany', toMany: true });
    expect(model.contentTypes.get('api::other.other')!.attributes.get('one')).toMatchObject({ kind: 'morph', relation: 'morphToOne', toMany: false });
    expect(model.contentTypes.get('api::other.other')!.attributes.get('back')).toMatchObject({ kind: 'morph', relation: 'morphMany', target: 'plugin::mine.thing', morphBy: 'related' });
    expect(model.byPluralName.has('things')).toBe(false);
  });

  it('unknown top-level keys, unknown attribute options and a missing "attributes"', () => {
    const model = buildModel({
      contentTypes: [
        { schema: thing({ title: { type: 'string', configurable: false, customField: 'x' } }, { __schema__: {}, options: { comment: '' } }) },
        { schema: { ...other(), attributes: undefined } },
      ],
    });
    expect(model.contentTypes.get('api::thing.thing')!.attributes.get('title')!.raw).toMatchObject({ configurable: false, customField: 'x' });
    expect(model.contentTypes.get('api::other.other')!.attributes.size).toBe(0);
  });

  it('numeric strings for bounds (as the content-type builder writes bigintegers)', () => {
    const model = buildModel({ contentTypes: [{ schema: thing({ big: { type: 'biginteger', min: '1', max: '1000' } }) }] });
    expect(model.contentTypes.get('api::thing.thing')!.attributes.get('big')).toMatchObject({ min: 1, max: 1000 });
  });

  it('an owner without inversedBy learns its inverse side from mappedBy', () => {
    const model = buildModel(input({ others: rel('oneToMany', 'api::other.other', { mappedBy: 'thing' }) }, { thing: rel('manyToOne', 'api::thing.thing') }));
    expect(model.contentTypes.get('api::other.other')!.attributes.get('thing')).toMatchObject({ owner: true, inverseOf: 'others', linkTable: 'others_thing_lnk' });
    expect(model.contentTypes.get('api::thing.thing')!.attributes.get('others')).toMatchObject({ owner: false, inverseOf: 'thing', linkTable: 'others_thing_lnk' });
  });

  it('a status attribute (Strapi v5 boots with one; Cairn has no status field)', () => {
    expect(buildModel({ contentTypes: [{ schema: thing({ status: { type: 'enumeration', enum: ['open', 'closed'] } }) }] }).contentTypes.get('api::thing.thing')!.attributes.has('status')).toBe(true);
  });
});
