import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

type Entry = Record<string, any>;

/**
 * Dynamic-zone populate ("detailed population strategy", `populate[zone][on][<component>]`) end to end. The kitchen
 * fixture's zone components have no relation or media, so this file has its own small model: a page whose zone holds
 * a hero (media, a relation, a nested component that itself has a relation) and a menu (a to-many relation to
 * dishes); `sections.link` exists but is not allowed in the zone.
 */
const model: TestSchemas = {
  contentTypes: {
    dish: {
      kind: 'collectionType',
      collectionName: 'dishes',
      info: { singularName: 'dish', pluralName: 'dishes', displayName: 'Dish' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' }, price: { type: 'integer' }, vegan: { type: 'boolean' } },
    },
    chef: {
      kind: 'collectionType',
      collectionName: 'chefs',
      info: { singularName: 'chef', pluralName: 'chefs', displayName: 'Chef' },
      options: { draftAndPublish: false },
      attributes: { name: { type: 'string' } },
    },
    page: {
      kind: 'collectionType',
      collectionName: 'pages',
      info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        blocks: { type: 'dynamiczone', components: ['sections.hero', 'sections.menu'] },
      },
    },
  },
  components: {
    'sections.hero': {
      collectionName: 'components_sections_heroes',
      info: { displayName: 'Hero' },
      attributes: {
        title: { type: 'string' },
        subtitle: { type: 'text' },
        image: { type: 'media', multiple: false, allowedTypes: ['files', 'images'] },
        chef: { type: 'relation', relation: 'oneToOne', target: 'api::chef.chef' },
        cta: { type: 'component', repeatable: false, component: 'sections.link' },
      },
    },
    'sections.menu': {
      collectionName: 'components_sections_menus',
      info: { displayName: 'Menu' },
      attributes: {
        title: { type: 'string' },
        dishes: { type: 'relation', relation: 'oneToMany', target: 'api::dish.dish' },
      },
    },
    'sections.link': {
      collectionName: 'components_sections_links',
      info: { displayName: 'Link' },
      attributes: {
        label: { type: 'string' },
        dish: { type: 'relation', relation: 'oneToOne', target: 'api::dish.dish' },
      },
    },
  },
};

const DISHES = [
  { name: 'Soup', price: 5, vegan: true },
  { name: 'Steak', price: 20, vegan: false },
  { name: 'Salad', price: 8, vegan: true },
  { name: 'Tart', price: 7, vegan: false },
];
type Dish = (typeof DISHES)[number];
/** Each menu's dishes, in the order they are connected. */
const MENUS: Record<string, string[]> = { Lunch: ['Soup', 'Salad', 'Tart'], Dinner: ['Steak', 'Tart'], Snacks: [] };
const on = (component: string, rest: string) => `populate[blocks][on][${component}]${rest}`;
const MENU = (rest: string) => on('sections.menu', rest);

describeEachDialect('populate: dynamic zones end to end', (dialect) => {
  let app: TestApp;
  const ids: Record<string, { id: number; documentId: string }> = {};
  let chef: { id: number; documentId: string };
  let file: Entry;
  let bistro: string;

  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    for (const data of DISHES) {
      const res = await app.request('POST', '/api/dishes', { data });
      expect(res.status).toBe(201);
      ids[data.name] = { id: res.body.data.id, documentId: res.body.data.documentId };
    }
    const created = (await app.request('POST', '/api/chefs', { data: { name: 'Ann' } })).body.data;
    chef = { id: created.id, documentId: created.documentId };
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'hero.pdf');
    const multipart = new Response(form);
    const uploaded = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/upload',
      payload: Buffer.from(await multipart.arrayBuffer()),
      headers: { 'content-type': multipart.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    expect(uploaded.statusCode).toBe(201);
    file = JSON.parse(uploaded.body)[0];
    const menu = (title: string) => ({ __component: 'sections.menu', title, dishes: MENUS[title].map((name) => ids[name].documentId) });
    const pages = [
      {
        name: 'Bistro',
        blocks: [
          { __component: 'sections.hero', title: 'Welcome', subtitle: 'Since 1990', image: file.id, chef: chef.documentId, cta: { label: 'Book', dish: ids.Steak.documentId } },
          menu('Lunch'),
          menu('Dinner'),
        ],
      },
      // A menu with no dishes before a hero with no media, relation or component.
      { name: 'Cafe', blocks: [menu('Snacks'), { __component: 'sections.hero', title: 'Hi' }] },
    ];
    for (const data of pages) {
      const res = await app.request('POST', '/api/pages', { data });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      if (data.name === 'Bistro') bistro = res.body.data.documentId;
    }
  });
  afterAll(async () => app?.close());

  /** The blocks of each page (Bistro, Cafe) for a populate query. */
  const blocks = async (query: string): Promise<Entry[][]> => {
    const res = await app.request('GET', `/api/pages?sort=name:asc&fields[0]=name&${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((p: Entry) => p.name)).toEqual(['Bistro', 'Cafe']);
    return res.body.data.map((p: Entry) => p.blocks);
  };
  /** A dish as a relation populated with `fields[0]=name`: id, documentId and name only. */
  const named = (name: string) => ({ ...ids[name], name });
  const dishesOf = (menu: string, keep: (d: Dish) => boolean = () => true, order?: (a: Dish, b: Dish) => number) => {
    const list = MENUS[menu].map((name) => DISHES.find((d) => d.name === name)!).filter(keep);
    return (order ? [...list].sort(order) : list).map((d) => named(d.name));
  };
  const id = expect.any(Number);
  // Items of a component `on` names: id, __component and scalars unless its strategy says more; the others are left out.
  const bareHero = { Welcome: { __component: 'sections.hero', id, title: 'Welcome', subtitle: 'Since 1990' }, Hi: { __component: 'sections.hero', id, title: 'Hi', subtitle: null } };
  const bareMenu = (title: string) => ({ __component: 'sections.menu', id, title });
  const menuWith = (title: string, dishes: unknown) => ({ ...bareMenu(title), dishes });

  describe('the `on` strategy applies to the named components only', () => {
    it('on[sections.menu][populate][dishes][fields][0]=name: menus get their dishes (id, documentId, name); heroes are left out', async () => {
      const query = MENU('[populate][dishes][fields][0]=name');
      const expected = [
        [menuWith('Lunch', dishesOf('Lunch')), menuWith('Dinner', dishesOf('Dinner'))],
        [menuWith('Snacks', [])],
      ];
      expect(await blocks(query)).toEqual(expected);
      // findOne answers the same.
      const one = await app.request('GET', `/api/pages/${bistro}?${query}`);
      expect(one.status).toBe(200);
      expect(one.body.data.blocks).toEqual(expected[0]);
    });

    it('on[sections.hero][populate]=*: the hero\'s media, relation and component, one level (not the component\'s relation); menus left out', async () => {
      const [first, second] = await blocks(on('sections.hero', '[populate]=*'));
      expect(first).toHaveLength(1);
      const hero = first[0];
      expect(Object.keys(hero).sort()).toEqual(['__component', 'chef', 'cta', 'id', 'image', 'subtitle', 'title']);
      expect(hero).toMatchObject({ __component: 'sections.hero', title: 'Welcome', subtitle: 'Since 1990' });
      expect(hero.image).toMatchObject({ id: file.id, documentId: file.documentId, name: 'hero.pdf', mime: 'application/pdf', url: file.url });
      expect(hero.chef).toMatchObject({ ...chef, name: 'Ann' });
      expect(hero.chef).not.toHaveProperty('restaurants');
      expect(hero.cta).toEqual({ id, label: 'Book' });
      expect(second).toEqual([{ ...bareHero.Hi, image: null, chef: null, cta: null }]);
    });

    it('each named component gets its own strategy, to any depth (component -> relation, media fields)', async () => {
      const query = [
        on('sections.hero', '[populate][cta][populate][dish][fields][0]=name'),
        on('sections.hero', '[populate][chef][fields][0]=name'),
        on('sections.hero', '[populate][image][fields][0]=name'),
        MENU('[fields][0]=title'),
        MENU('[populate][dishes][fields][0]=name'),
      ].join('&');
      const hero = { ...bareHero.Welcome, cta: { id, label: 'Book', dish: named('Steak') }, chef: { ...chef, name: 'Ann' }, image: { id: file.id, documentId: file.documentId, name: 'hero.pdf' } };
      expect(await blocks(query)).toEqual([
        [hero, menuWith('Lunch', dishesOf('Lunch')), menuWith('Dinner', dishesOf('Dinner'))],
        [menuWith('Snacks', []), { ...bareHero.Hi, cta: null, chef: null, image: null }],
      ]);
    });
  });

  describe('relation options inside an `on` fragment', () => {
    it('[count]=true answers { count: n } per item', async () => {
      const count = (menu: string) => ({ count: MENUS[menu].length });
      expect(await blocks(MENU('[populate][dishes][count]=true'))).toEqual([
        [menuWith('Lunch', count('Lunch')), menuWith('Dinner', count('Dinner'))],
        [menuWith('Snacks', count('Snacks'))],
      ]);
    });

    it('[count]=true with [filters] counts the matching dishes', async () => {
      const vegan = (menu: string) => ({ count: dishesOf(menu, (d) => d.vegan).length });
      expect(await blocks(MENU('[populate][dishes][count]=true&') + MENU('[populate][dishes][filters][vegan][$eq]=true'))).toEqual([
        [menuWith('Lunch', vegan('Lunch')), menuWith('Dinner', vegan('Dinner'))],
        [menuWith('Snacks', vegan('Snacks'))],
      ]);
    });

    it('[filters] and [sort] (desc) choose and order the dishes', async () => {
      const query = [MENU('[populate][dishes][filters][vegan][$eq]=true'), MENU('[populate][dishes][sort][0]=price:desc'), MENU('[populate][dishes][fields][0]=name')].join('&');
      const expected = (menu: string) => dishesOf(menu, (d) => d.vegan, (a, b) => b.price - a.price);
      expect(expected('Lunch').map((d) => d.name)).toEqual(['Salad', 'Soup']);
      expect(await blocks(query)).toEqual([
        [menuWith('Lunch', expected('Lunch')), menuWith('Dinner', expected('Dinner'))],
        [menuWith('Snacks', [])],
      ]);
    });

    it('[filters][$or] with [sort] asc; [sort]=name:desc in the string form', async () => {
      const or = [
        MENU('[populate][dishes][filters][$or][0][price][$gt]=10'),
        MENU('[populate][dishes][filters][$or][1][name][$eq]=Soup'),
        MENU('[populate][dishes][sort][0]=price:asc'),
        MENU('[populate][dishes][fields][0]=name'),
      ].join('&');
      const keep = (d: Dish) => d.price > 10 || d.name === 'Soup';
      const [bistroBlocks] = await blocks(or);
      expect(bistroBlocks).toEqual([
        menuWith('Lunch', dishesOf('Lunch', keep, (a, b) => a.price - b.price)),
        menuWith('Dinner', dishesOf('Dinner', keep, (a, b) => a.price - b.price)),
      ]);
      const byName = (a: Dish, b: Dish) => (a.name < b.name ? 1 : -1);
      const [desc] = await blocks(`${MENU('[populate][dishes][sort]=name:desc')}&${MENU('[populate][dishes][fields][0]=name')}`);
      expect(desc).toEqual([menuWith('Lunch', dishesOf('Lunch', undefined, byName)), menuWith('Dinner', dishesOf('Dinner', undefined, byName))]);
      expect(desc[0].dishes.map((d: Entry) => d.name)).toEqual(['Tart', 'Soup', 'Salad']);
    });
  });

  it('`on` naming a component the zone does not hold reads nothing of it; a zone\'s `count` is ignored (Strapi 5.54)', async () => {
    expect(await blocks(on('sections.link', '[populate]=*'))).toEqual([[], []]);
    expect(await blocks('populate[blocks][count]=true')).toEqual(await blocks('populate[blocks]=true'));
  });

  describe("bad input in an `on` fragment: 400 ValidationError, with Strapi 5.54's key and path", () => {
    // Probed on real Strapi with the conformance model's restaurants.blocks (sections.menu, its dishes).
    const cases: Array<[string, string, string | null, string]> = [
      // [query, key, path, message]
      ['populate[blocks][on][sections.nope]=true', 'sections.nope', 'blocks.on.sections.nope', 'Invalid key sections.nope at blocks.on.sections.nope'],
      [MENU('[populate][nope]=true'), 'nope', 'blocks', 'Invalid key nope at blocks'],
      [MENU('[populate][title]=true'), 'title', 'blocks.on[sections.menu].populate.title', 'Invalid key title at blocks.on[sections.menu].populate.title'],
      [MENU('[populate][dishes][populate][nope]=true'), 'nope', 'blocks.dishes', 'Invalid key nope at blocks.dishes'],
      [MENU('[populate][dishes][fields][0]=nope'), 'nope', null, 'Invalid key nope'],
      [MENU('[populate][dishes][filters][nope][$eq]=1'), 'nope', null, 'Invalid key nope'],
      [MENU('[pagination][limit]=1'), 'pagination', 'blocks', 'Invalid key pagination at blocks'],
      [MENU('[populate][dishes][pagination][pageSize]=1'), 'pagination', 'blocks.dishes', 'Invalid key pagination at blocks.dishes'],
      [MENU('[populate][dishes][limit]=1'), 'limit', 'blocks.dishes', 'Invalid key limit at blocks.dishes'],
      [MENU('=nope'), 'nope', 'blocks', 'Invalid key nope at blocks'],
      [MENU('[dishes]=true'), 'dishes', 'blocks.dishes', 'Invalid key dishes at blocks.dishes'],
    ];
    for (const [query, key, path, message] of cases) {
      it(query, async () => {
        for (const url of [`/api/pages?${query}`, `/api/pages/${bistro}?${query}`]) {
          const res = await app.request('GET', url);
          expect(res.status, url).toBe(400);
          expect(res.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: { key, path, source: 'query', param: 'populate' } } });
        }
      });
    }
  });
});
