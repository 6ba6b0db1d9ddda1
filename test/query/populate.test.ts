import { beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/model/types.js';
import type { PopulateNode, PopulateTree } from '../../src/query/index.js';
import { conformanceModel, errorOf, labModel, read } from './model.js';

/** A populate tree as plain data: `{ name: { fields?, filters?, sort?, count?, populate?, on? } }`. */
type Plain = Record<string, Record<string, unknown>>;
function plain(tree: PopulateTree): Plain {
  const out: Plain = {};
  for (const [name, node] of tree) out[name] = plainNode(node);
  return out;
}
function plainNode(node: PopulateNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (node.fields) out.fields = node.fields;
  if (node.filters) out.filters = node.filters;
  if (node.sort) out.sort = node.sort.map((s) => `${[...s.relations, s.field.name].join('.')}:${s.direction}`);
  if (node.count) out.count = true;
  if (node.populate.size) out.populate = plain(node.populate);
  if (node.on) out.on = Object.fromEntries([...node.on].map(([uid, sub]) => [uid, plainNode(sub)]));
  return out;
}

const lab = labModel();
const SAMPLE = 'api::sample.sample';
const populate = (query: string, uid = SAMPLE, model: Model = lab) => plain(read(model, uid, query).populate);
const fail = (query: string, uid = SAMPLE, model: Model = lab) => errorOf(() => read(model, uid, query));

describe('populate: forms', () => {
  it('none by default; `*` is every relation, media, component and dynamic zone, one level', () => {
    expect(populate('')).toEqual({});
    expect(populate('populate=*')).toEqual({ owner: {}, gallery: {}, cover: {}, points: {}, zone: {} });
    expect(populate('populate[0]=*')).toEqual(populate('populate=*'));
  });

  it('names, comma lists, lists, `[name]=true`; `false` populates nothing', () => {
    const expected = { owner: {}, points: {} };
    for (const query of [
      'populate=owner,points',
      'populate=owner, points',
      'populate[0]=owner&populate[1]=points',
      'populate[]=owner&populate[]=points',
      'populate[owner]=true&populate[points]=true',
      'populate[owner]=1&populate[points]=true&populate[cover]=false',
      'populate[0]=owner&populate[points]=true',
    ]) {
      expect(populate(query), query).toEqual(expected);
    }
    expect(populate('populate[owner]=false')).toEqual({});
    expect(populate('populate=')).toEqual({});
  });

  it('dot paths to any depth, through relations and components, merged', () => {
    expect(populate('populate=owner.team.boss')).toEqual({ owner: { populate: { team: { populate: { boss: {} } } } } });
    expect(populate('populate[0]=owner.team&populate[1]=owner.samples')).toEqual({ owner: { populate: { team: {}, samples: {} } } });
    expect(populate('populate[0]=owner&populate[1]=owner.team')).toEqual({ owner: { populate: { team: {} } } });
    expect(populate('populate=owner.*')).toEqual({ owner: { populate: { samples: {}, team: {} } } });
  });

  it('nested object form to any depth: populate as a string, a list, an object or `*`', () => {
    expect(populate('populate[owner][populate]=team')).toEqual({ owner: { populate: { team: {} } } });
    expect(populate('populate[owner][populate][0]=team&populate[owner][populate][1]=samples')).toEqual({ owner: { populate: { team: {}, samples: {} } } });
    expect(populate('populate[owner][populate][team][populate][boss][populate][team]=true')).toEqual({
      owner: { populate: { team: { populate: { boss: { populate: { team: {} } } } } } },
    });
    expect(populate('populate[owner][populate]=*')).toEqual({ owner: { populate: { samples: {}, team: {} } } });
    expect(populate('populate[owner]=*')).toEqual({ owner: { populate: { samples: {}, team: {} } } });
    // A name as an attribute's value is read by Strapi as a key of that value's options: 400 (populate[chef]=restaurants).
    expect(fail('populate[owner]=team')).toMatchObject({ status: 400, message: 'Invalid key team at owner.team', details: { key: 'team', path: 'owner.team' } });
    expect(fail('populate[owner]=nope')).toMatchObject({ message: 'Invalid key nope at owner', details: { key: 'nope', path: 'owner' } });
  });

  it('fields, filters, sort and count on a relation', () => {
    const tree = populate(
      'populate[owner][fields][0]=name&populate[owner][populate][samples][filters][count][$gt]=1&populate[owner][populate][samples][sort][0]=title:desc&populate[owner][populate][samples][fields]=title',
    );
    expect(tree).toEqual({
      owner: {
        fields: ['name'],
        populate: {
          samples: {
            fields: ['title'],
            sort: ['title:desc'],
            filters: { kind: 'compare', field: { name: 'count', column: 'count', type: 'integer' }, operator: '$gt', value: 1 },
          },
        },
      },
    });
    expect(populate('populate[owner][populate][samples][count]=true')).toEqual({ owner: { populate: { samples: { count: true } } } });
    expect(populate('populate[owner][populate][samples][count]=false')).toEqual({ owner: { populate: { samples: {} } } });
  });

  it('components: fields and nested populate; repeatable too', () => {
    expect(populate('populate[points][fields][0]=x')).toEqual({ points: { fields: ['x'] } });
    expect(populate('populate[zone][on][shape.box][populate][corner][fields][0]=y')).toEqual({
      zone: { on: { 'shape.box': { populate: { corner: { fields: ['y'] } } } } },
    });
  });

  it('media: fields of the file type; private file fields are not selectable', () => {
    expect(populate('populate[cover][fields][0]=name&populate[cover][fields][1]=url')).toEqual({ cover: { fields: ['name', 'url'] } });
    expect(fail('populate[cover][fields][0]=folderPath')).toMatchObject({ status: 400, details: { key: 'folderPath', param: 'populate' } });
  });

  it('a relation to a type the caller may not find is omitted, not an error', () => {
    const canFind = (uid: string) => uid !== 'api::person.person';
    expect(plain(read(lab, SAMPLE, 'populate=*', { canFind }).populate)).toEqual({ gallery: {}, cover: {}, points: {}, zone: {} });
    expect(plain(read(lab, SAMPLE, 'populate[owner][fields][0]=name&populate[points]=true', { canFind }).populate)).toEqual({ points: {} });
    expect(plain(read(lab, SAMPLE, 'populate=owner.team', { canFind }).populate)).toEqual({});
  });
});

describe('populate: dynamic zones', () => {
  it('`zone` or `zone=true`: first level of every component', () => {
    expect(populate('populate=zone')).toEqual({ zone: {} });
    expect(populate('populate[zone]=true')).toEqual({ zone: {} });
  });

  it('`on` gives named components their strategy; others get no `on` entry', () => {
    expect(populate('populate[zone][on][shape.box][populate][person][fields][0]=name&populate[zone][on][shape.point]=true')).toEqual({
      zone: { on: { 'shape.box': { populate: { person: { fields: ['name'] } } }, 'shape.point': {} } },
    });
    expect(populate('populate[zone][on][shape.box]=*')).toEqual({ zone: { on: { 'shape.box': { populate: { corner: {}, person: {} } } } } });
    expect(populate('populate[zone][on][shape.point][fields]=x')).toEqual({ zone: { on: { 'shape.point': { fields: ['x'] } } } });
  });

  it('`populate=*` reaches one level into every component, a dot path into those that have the name', () => {
    expect(populate('populate[zone][populate]=*')).toEqual({ zone: { on: { 'shape.point': {}, 'shape.box': { populate: { corner: {}, person: {} } } } } });
    expect(populate('populate=zone.person')).toEqual({ zone: { on: { 'shape.point': {}, 'shape.box': { populate: { person: {} } } } } });
  });

  it("a zone's `populate` is `*` or nothing, as in Strapi (its items differ): names and objects are 400s", () => {
    for (const query of ['populate[zone][populate]=person', 'populate[zone][populate][person][fields][0]=name', 'populate[zone][populate]=true', 'populate[zone][populate]=nope']) {
      expect(fail(query), query).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key populate at zone',
        details: { key: 'populate', path: 'zone', source: 'query', param: 'populate' },
      });
    }
  });

  it('a name no component has, an unknown component and relation options are 400s', () => {
    expect(fail('populate=zone.nope')).toMatchObject({ status: 400, message: 'Invalid key nope at zone.nope' });
    // A component's path that fails in every component that has its first step names that step (Strapi tries each).
    expect(fail('populate=zone.person.nope')).toMatchObject({ status: 400, message: 'Invalid key person at zone.person' });
    expect(fail('populate[zone][on][shape.nope]=true')).toMatchObject({ status: 400, message: 'Invalid key shape.nope at zone.on.shape.nope', details: { key: 'shape.nope' } });
    // Strapi's convert-query-params words these itself, without details.
    const nested = (found: string) => ({
      status: 400,
      name: 'ValidationError',
      message: `Invalid nested populate for sample.zone (api::sample.sample). Expected a fragment ("on") or "count" but found ${found}`,
      details: {},
    });
    expect(fail('populate[zone][fields][0]=x')).toEqual(nested('{"fields":["x"]}'));
    expect(fail('populate[zone][filters][x]=1')).toEqual(nested('{"filters":{"x":"1"}}'));
    expect(fail('populate[zone]=nope')).toEqual(nested('"nope"'));
    // A query string's `count` on a zone is ignored, as Strapi ignores it (a boolean only): every component, one level.
    expect(populate('populate[zone][count]=true')).toEqual({ zone: {} });
    expect(fail('populate[zone][on]=x').status).toBe(400);
  });
});

describe('populate: strictness', () => {
  it('unknown, scalar, private, createdBy: Invalid key with the populate path (the reference: Invalid key nope)', () => {
    for (const name of ['nope', 'title', 'secret', 'hidden', 'spy', 'createdBy', 'updatedBy', 'localizations']) {
      expect(fail(`populate=${name}`), name).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${name}`,
        details: { key: name, path: name, source: 'query', param: 'populate' },
      });
      expect(fail(`populate[${name}]=true`).message).toBe(`Invalid key ${name}`);
    }
    // Strapi 5.54's paths (probed on the conformance model): an unknown key at its parent's attribute path, a scalar
    // at its raw path (keywords included), a dot path from the start of its string.
    expect(fail('populate[owner][populate][nope]=true')).toMatchObject({ message: 'Invalid key nope at owner', details: { path: 'owner' } });
    expect(fail('populate[owner][populate][title]=true', 'api::sample.sample')).toMatchObject({ details: { key: 'title' } });
    expect(fail('populate[owner][populate][name]=true')).toMatchObject({ message: 'Invalid key name at owner.populate.name', details: { path: 'owner.populate.name' } });
    expect(fail('populate[owner][populate]=team.nope')).toMatchObject({ message: 'Invalid key nope at team.nope', details: { path: 'team.nope' } });
    expect(fail('populate[owner][populate][team][populate][nope]=true')).toMatchObject({ message: 'Invalid key nope at owner.team' });
    expect(fail('populate[nope]=true')).toMatchObject({ message: 'Invalid key nope', details: { key: 'nope', path: null } });
    expect(fail('populate=owner.team.nope')).toMatchObject({ message: 'Invalid key nope at owner.team.nope' });
    expect(fail('populate=*,nope').status).toBe(400);
  });

  it('populate nests up to 10 levels; deeper is a 400 naming where, whatever the form', async () => {
    const RESTAURANT = 'api::restaurant.restaurant';
    const conformance = await conformanceModel();
    const levels = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? 'restaurants' : 'chef')).join('.');
    const depth = (tree: Record<string, unknown>): number => {
      const child = Object.values(tree)[0] as { populate?: Record<string, unknown> } | undefined;
      return child ? 1 + depth(child.populate ?? {}) : 0;
    };
    expect(depth(populate(`populate=${levels(10)}`, RESTAURANT, conformance))).toBe(10);
    expect(fail(`populate=${levels(11)}`, RESTAURANT, conformance)).toMatchObject({ status: 400, name: 'ValidationError', details: { param: 'populate' } });
    // A path of thousands of steps is refused before it is walked.
    expect(fail(`populate=${levels(5000)}`, RESTAURANT, conformance)).toMatchObject({ status: 400, details: { param: 'populate' } });
    // Merged forms: a 9-level dot path inside a relation's populate object makes 11 levels.
    const nested = fail(`populate[chef][populate][restaurants][populate]=${levels(9)}`, RESTAURANT, conformance);
    expect(nested).toMatchObject({ status: 400, message: expect.stringContaining('at most 10 levels') });
    expect(nested.details.path).toMatch(/^chef\.restaurants\.chef\./);
  });

  it('fields, filters and sort inside populate are named as at the top of the populated type (Strapi validates them afresh)', () => {
    expect(fail('populate[owner][sort]=name:sideways')).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} });
    expect(fail('populate[owner][sort]=nope:desc')).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'query', param: 'populate' } });
    expect(fail('populate[owner][populate][team][sort][0]=nope')).toMatchObject({ details: { key: 'nope', path: null } });
    expect(fail('populate[owner][sort][team]=asc')).toMatchObject({ message: 'Invalid key asc at team', details: { key: 'asc', path: 'team' } });
    expect(fail('populate[owner][fields][0]=nope')).toMatchObject({ message: 'Invalid key nope', details: { key: 'nope', path: null, param: 'populate' } });
    expect(fail('populate[owner][filters][team][nope]=1')).toMatchObject({ message: 'Invalid key nope at team', details: { key: 'nope', path: 'team', param: 'populate' } });
  });

  it('pagination inside populate is a 400: Invalid key, as Strapi names any key that is not an option', () => {
    for (const key of ['pagination', 'limit', 'start', 'page', 'pageSize']) {
      expect(fail(`populate[owner][populate][samples][${key}]=1`), key).toMatchObject({ status: 400, name: 'ValidationError', message: `Invalid key ${key} at owner.samples` });
    }
  });

  it('count: on relations (to-one too) and components, as Strapi counts them; media and zones populate as usual', () => {
    expect(populate('populate[owner][count]=true')).toEqual({ owner: { count: true } });
    expect(populate('populate[points][count]=t')).toEqual({ points: { count: true } });
    expect(populate('populate[owner][count]=f')).toEqual({ owner: {} });
    // Strapi reads media as morph relations, whose populate has no count.
    expect(populate('populate[cover][count]=true')).toEqual({ cover: {} });
    expect(populate('populate[gallery][count]=true')).toEqual({ gallery: {} });
    for (const query of ['populate[gallery][count]=yes', 'populate[owner][count]=2', 'populate[owner][populate][team][count]=x']) {
      expect(fail(query), query).toMatchObject({ status: 400, message: expect.stringMatching(/^Invalid key count at owner(\.team)?$|^Invalid key count at gallery$/), details: { key: 'count' } });
    }
  });

  it('options a target does not take, and malformed values', () => {
    // A component takes filters and sort (as Strapi), on its own attributes.
    expect(fail('populate[points][filters][nope]=1')).toMatchObject({ status: 400, details: { key: 'nope' } });
    expect(fail('populate[points][sort]=nope').status).toBe(400);
    expect(fail('populate[owner][on][x]=true')).toMatchObject({ status: 400, message: 'Invalid key x at owner.on.x', details: { key: 'x' } });
    expect(fail('populate[owner][on]=x')).toMatchObject({ status: 400, message: 'Invalid key on at owner.on' });
    expect(fail('populate[owner][on][api::person.person]=true')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Using fragments is not permitted to populate "owner" in "api::sample.sample"',
      details: {},
    });
    expect(fail('populate[owner][nope]=1')).toMatchObject({ details: { key: 'nope' } });
    expect(fail('populate[0][a]=1').status).toBe(400);
    expect(fail('populate[owner][fields][0]=team')).toMatchObject({ status: 400, details: { key: 'team', param: 'populate' } });
    expect(fail('populate[owner][filters][nope]=1')).toMatchObject({ status: 400, message: 'Invalid key nope', details: { param: 'populate' } });
    expect(fail('populate[owner][sort]=nope')).toMatchObject({ status: 400, details: { key: 'nope', param: 'populate' } });
  });
});

describe('populate on the conformance model (the reference forms)', () => {
  let model: Model;
  beforeAll(async () => {
    model = await conformanceModel();
  });
  const RESTAURANT = 'api::restaurant.restaurant';

  it('count on localizations is ignored, as Strapi 5.54 ignores it (probed: the versions come as a list)', () => {
    expect(populate('populate[localizations][count]=true', RESTAURANT, model)).toEqual({ localizations: {} });
  });

  it('populate=* on a localized type includes localizations', () => {
    expect(Object.keys(populate('populate=*', RESTAURANT, model))).toEqual(['chef', 'categories', 'cover', 'address', 'blocks', 'localizations']);
    expect(populate('populate[localizations][fields][0]=name&populate[localizations][fields][1]=locale', RESTAURANT, model)).toEqual({
      localizations: { fields: ['name', 'locale'] },
    });
  });

  it('address does not populate address.geo; the dot path and nested populate do', () => {
    expect(populate('populate=address', RESTAURANT, model)).toEqual({ address: {} });
    const nested = { address: { populate: { geo: {} } } };
    expect(populate('populate=address.geo', RESTAURANT, model)).toEqual(nested);
    expect(populate('populate[address][populate]=geo', RESTAURANT, model)).toEqual(nested);
    expect(populate('populate[0]=address&populate[1]=address.geo', RESTAURANT, model)).toEqual(nested);
  });

  it('the dynamic-zone fragment of the reference', () => {
    expect(
      populate('populate[blocks][on][sections.menu][populate][dishes][fields][0]=name&populate[blocks][on][sections.hero]=true', RESTAURANT, model),
    ).toEqual({ blocks: { on: { 'sections.menu': { populate: { dishes: { fields: ['name'] } } }, 'sections.hero': {} } } });
  });

  it('bench scenario c', () => {
    expect(populate('populate[chef][populate][0]=restaurants&populate[categories]=true&populate[address][populate]=*', RESTAURANT, model)).toEqual({
      chef: { populate: { restaurants: {} } },
      categories: {},
      address: { populate: { geo: {} } },
    });
  });

  it('non-localized types have no localizations', () => {
    expect(fail('populate=localizations', 'api::article.article', model).message).toBe('Invalid key localizations');
  });
});
