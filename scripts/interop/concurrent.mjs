// Interop test 4's exchange (issue 18): Strapi and Cairn run at the same time on one database; in turns, one of them
// writes through its REST API and right after both answer the same reads, recorded side by side for compare.mjs.
// Each server makes the same kinds of writes on its own entries (named after it) and links the other's: a category
// and a chef, a published restaurant with relations, a component and a dynamic zone, a draft-only edit, a publish,
// a French locale (a draft, then published, then deleted), an article linking both servers' categories and articles,
// positioned relation connects, a `set`, a link to a draft-only article, a connect from the inverse side, a delete.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The one dialect test 4 runs on, and why only that one (printed when it is skipped on the others). */
export const CONCURRENT_ONLY_ON = 'postgres';
export const CONCURRENT_SKIP_REASON =
  'it runs on PostgreSQL only: two servers sharing one database is tested on one database server, the usual one under Strapi in production, to keep the interop step short (and a SQLite file has one writer at a time)';

const WRITERS = ['strapi', 'cairn'];
const q = encodeURIComponent;

/**
 * The steps, in order; each runs once per writer (Strapi first, then Cairn), so the two alternate and the later one
 * can link what the earlier wrote. `write(w)` is the request of writer `w` ({ method, path, body }) from `w.ids` (its
 * own documentIds) and `w.other` (the other writer's, as far as written); `save` keeps the written documentId;
 * `reads(w)` are the paths both servers then answer.
 */
const STEPS = [
  {
    name: 'category',
    write: (w) => ({ method: 'POST', path: '/api/categories', body: { data: { name: `${w.label} category` } } }),
    save: 'category',
    reads: (w) => [`/api/categories/${w.ids.category}`, '/api/categories?filters[name][$containsi]=category&populate=articles&sort=name'],
  },
  {
    name: 'second-category',
    write: (w) => ({ method: 'POST', path: '/api/categories', body: { data: { name: `${w.label} second category` } } }),
    save: 'second',
    reads: (w) => [`/api/categories/${w.ids.second}?populate=restaurants`, '/api/categories?filters[name][$endsWith]=second%20category&sort=name:desc'],
  },
  {
    name: 'chef',
    write: (w) => ({ method: 'POST', path: '/api/chefs', body: { data: { name: `${w.label} chef`, email: `${w.key}@chefs.test`, bio: 'Cooks for both servers.' } } }),
    save: 'chef',
    reads: (w) => [`/api/chefs/${w.ids.chef}?populate=restaurants`, `/api/chefs?filters[email][$eq]=${q(`${w.key}@chefs.test`)}`],
  },
  {
    name: 'dish',
    write: (w) => ({ method: 'POST', path: '/api/dishes', body: { data: { name: `${w.label} dish`, price: 9.9 } } }),
    save: 'dish',
    reads: (w) => [`/api/dishes/${w.ids.dish}`, '/api/dishes?filters[price][$gt]=9&sort=name&pagination[pageSize]=1'],
  },
  {
    // published (a REST create publishes unless ?status=draft), with a relation to each writer's category
    name: 'restaurant',
    write: (w) => ({
      method: 'POST',
      path: '/api/restaurants',
      body: {
        data: {
          name: `${w.label} restaurant`,
          slug: `${w.key}-restaurant`,
          description: 'Written while the other server runs.',
          stars: 3,
          price: 42.5,
          open: true,
          openedOn: '2024-05-17',
          category: 'french',
          tags: ['terrace', { seats: 12 }],
          chef: w.ids.chef,
          categories: [w.ids.category, w.other.category].filter(Boolean),
          address: { street: '1 Rue de la Paix', city: 'Paris', zip: '75002', geo: { lat: 48.8686, lng: 2.3314 } },
          blocks: [{ __component: 'sections.hero', title: 'Welcome', subtitle: `From ${w.label}` }, { __component: 'sections.menu', title: 'Menu', dishes: [w.ids.dish, w.other.dish].filter(Boolean) }],
        },
      },
    }),
    save: 'restaurant',
    reads: (w) => restaurantReads(w),
  },
  {
    name: 'draft-edit',
    write: (w) => ({ method: 'PUT', path: `/api/restaurants/${w.ids.restaurant}?status=draft`, body: { data: { description: 'Edited in the draft only.', stars: 2, categories: { disconnect: [w.ids.category] } } } }),
    reads: (w) => [...restaurantReads(w), `/api/restaurants/${w.ids.restaurant}?status=draft&populate=categories`, '/api/restaurants?status=draft&filters[stars][$lte]=2&sort=name&fields[0]=name&fields[1]=stars'],
  },
  {
    // a PUT without ?status publishes: the draft's edit becomes the published version
    name: 'publish',
    write: (w) => ({ method: 'PUT', path: `/api/restaurants/${w.ids.restaurant}`, body: { data: { open: false, address: { street: '2 Rue de la Paix', city: 'Paris', zip: '75002' } } } }),
    reads: (w) => [...restaurantReads(w), `/api/restaurants/${w.ids.restaurant}?status=draft&populate[0]=address`],
  },
  {
    name: 'locale-draft',
    write: (w) => ({ method: 'PUT', path: `/api/restaurants/${w.ids.restaurant}?locale=fr&status=draft`, body: { data: { name: `${w.label} restaurant FR`, slug: `${w.key}-restaurant-fr`, stars: 4, address: { city: 'Lyon' } } } }),
    reads: (w) => [
      `/api/restaurants/${w.ids.restaurant}?locale=fr`,
      `/api/restaurants/${w.ids.restaurant}?locale=fr&status=draft&populate=address`,
      '/api/restaurants?locale=fr&status=draft&sort=name&populate=address',
      '/api/restaurants?locale=*&status=draft&sort[0]=name&fields[0]=name&fields[1]=locale',
      `/api/restaurants/${w.ids.restaurant}?populate=localizations`,
    ],
  },
  {
    name: 'locale-publish',
    write: (w) => ({ method: 'PUT', path: `/api/restaurants/${w.ids.restaurant}?locale=fr`, body: { data: { stars: 5 } } }),
    reads: (w) => [`/api/restaurants/${w.ids.restaurant}?locale=fr&populate=*`, '/api/restaurants?locale=fr&filters[stars][$gte]=4&sort=name', `/api/restaurants?locale=en&filters[documentId][$eq]=${w.ids.restaurant}&fields[0]=name`],
  },
  {
    // a draft linking both writers' categories and the other writer's article
    name: 'article',
    write: (w) => ({
      method: 'POST',
      path: '/api/articles?status=draft',
      body: { data: { title: `${w.label} article`, body: 'Body **text**.', publishDate: '2024-02-03T04:05:06.000Z', views: 7, rating: 4.5, categories: [w.ids.category, w.other.category].filter(Boolean), related: [w.other.article].filter(Boolean) } },
    }),
    save: 'article',
    reads: (w) => articleReads(w),
  },
  {
    // positioned connects: the second category first, then the other writer's second category right after it
    name: 'positioned-connect',
    write: (w) => ({
      method: 'PUT',
      path: `/api/articles/${w.ids.article}?status=draft`,
      body: {
        data: {
          categories: {
            connect: [
              { documentId: w.ids.second, position: { start: true } },
              ...(w.other.second ? [{ documentId: w.other.second, position: { after: w.ids.second } }] : []),
              ...(w.other.category ? [{ documentId: w.other.category, position: { before: w.ids.category } }] : []),
            ],
          },
        },
      },
    }),
    reads: (w) => articleReads(w),
  },
  {
    name: 'article-publish',
    write: (w) => ({ method: 'PUT', path: `/api/articles/${w.ids.article}`, body: { data: { views: 8, categories: { connect: [{ documentId: w.ids.category, position: { end: true } }] } } } }),
    reads: (w) => [...articleReads(w), `/api/categories/${w.ids.category}?populate[articles][fields][0]=title`],
  },
  {
    name: 'draft-only-article',
    write: (w) => ({ method: 'POST', path: '/api/articles?status=draft', body: { data: { title: `${w.label} draft-only article`, categories: [w.ids.second] } } }),
    save: 'draftOnly',
    reads: (w) => [`/api/articles/${w.ids.draftOnly}?status=draft&populate=categories`, `/api/articles/${w.ids.draftOnly}`, '/api/articles?status=draft&filters[title][$containsi]=draft-only&sort=title'],
  },
  {
    // a publish with a relation to a target that has no published version (the other writer's draft-only article)
    // and the categories replaced with `set`
    name: 'set-and-link-draft',
    write: (w) => ({
      method: 'PUT',
      path: `/api/articles/${w.ids.article}`,
      body: { data: { related: { connect: [w.ids.draftOnly, w.other.draftOnly].filter(Boolean) }, categories: { set: [w.other.second, w.ids.category].filter(Boolean) } } },
    }),
    reads: (w) => [...articleReads(w), `/api/articles/${w.ids.article}?populate[related][fields][0]=title`, `/api/articles/${w.ids.article}?status=draft&populate[related][fields][0]=title`],
  },
  {
    // the inverse side of a many-to-many: a category (no draft & publish) connects the other writer's article first
    name: 'inverse-connect',
    write: (w) => ({ method: 'PUT', path: `/api/categories/${w.ids.second}`, body: { data: { articles: { connect: [{ documentId: w.other.article ?? w.ids.article, position: { start: true } }] } } } }),
    reads: (w) => [`/api/categories/${w.ids.second}?populate=articles`, `/api/categories/${w.ids.second}?populate=articles&status=draft`, `/api/articles/${w.other.article ?? w.ids.article}?populate=categories`, `/api/articles/${w.other.article ?? w.ids.article}?status=draft&populate=categories`],
  },
  {
    name: 'article-to-delete',
    write: (w) => ({ method: 'POST', path: '/api/articles', body: { data: { title: `${w.label} article to delete`, categories: [w.ids.category] } } }),
    save: 'doomed',
    reads: (w) => [`/api/articles/${w.ids.doomed}`, '/api/articles?filters[title][$endsWith]=to%20delete&sort=title'],
  },
  {
    name: 'deleted-article',
    write: (w) => ({ method: 'DELETE', path: `/api/articles/${w.ids.doomed}` }),
    reads: (w) => [`/api/articles/${w.ids.doomed}`, `/api/articles/${w.ids.doomed}?status=draft`, '/api/articles?filters[title][$endsWith]=to%20delete&sort=title', `/api/categories/${w.ids.category}?populate=articles`],
  },
  {
    name: 'delete-locale',
    write: (w) => ({ method: 'DELETE', path: `/api/restaurants/${w.ids.restaurant}?locale=fr` }),
    reads: (w) => [`/api/restaurants/${w.ids.restaurant}?locale=fr`, `/api/restaurants/${w.ids.restaurant}?populate=localizations`, '/api/restaurants?locale=fr&status=draft&sort=name'],
  },
];

function restaurantReads(w) {
  const id = w.ids.restaurant;
  return [
    `/api/restaurants/${id}?populate[0]=chef&populate[1]=categories&populate[2]=address.geo&populate[3]=blocks`,
    `/api/restaurants?filters[chef][name][$eq]=${q(`${w.label} chef`)}&populate[0]=chef&populate[1]=address&sort=name`,
    `/api/chefs/${w.ids.chef}?populate=restaurants`,
    `/api/restaurants/${id}?populate[blocks][on][sections.menu][populate]=dishes&populate[blocks][on][sections.hero]=true&populate[categories][sort]=name:desc`,
    '/api/restaurants?filters[address][city][$eq]=Paris&filters[categories][name][$containsi]=category&sort[0]=stars:desc&sort[1]=name&populate[categories][fields][0]=name',
  ];
}

function articleReads(w) {
  const id = w.ids.article;
  return [
    `/api/articles/${id}?status=draft&populate[0]=categories&populate[1]=related`,
    `/api/articles/${id}?populate=categories`,
    `/api/articles?status=draft&filters[categories][documentId][$eq]=${w.ids.category}&populate=categories&sort=title`,
    '/api/categories?populate=articles&sort=name',
  ];
}

/** A write a server refused (it is the writer's answer, not a harness fault, when that server is Cairn). */
export class WriteRefused extends Error {
  constructor(server, request, status, body) {
    super(`${server} refused ${request.method} ${request.path} (${status}): ${JSON.stringify(body).slice(0, 600)}`);
    Object.assign(this, { server, request, status, body });
  }
}

/**
 * Runs the exchange: `servers` { strapi, cairn } (each with `url`), both on one database, `token` accepted by both.
 * Each read is recorded into `<dir>/strapi/<name>.json` and `<dir>/cairn/<name>.json` ({ name, request, status, body },
 * record.mjs's format). Returns { names, requests: { name: path } }; a refused write throws `WriteRefused`.
 */
export async function exchange({ servers, token, dir }) {
  for (const server of WRITERS) mkdirSync(join(dir, server), { recursive: true });
  const writers = Object.fromEntries(WRITERS.map((key) => [key, { key, label: key === 'strapi' ? 'Strapi' : 'Cairn', ids: {} }]));
  for (const key of WRITERS) writers[key].other = writers[WRITERS.find((k) => k !== key)].ids;
  const names = [];
  const requests = {};
  let n = 0;
  for (const step of STEPS) {
    for (const key of WRITERS) {
      const w = writers[key];
      const request = step.write(w);
      const answer = await send(servers[key].url, token, request);
      if (answer.status >= 300) throw new WriteRefused(key, request, answer.status, answer.body);
      if (step.save) w.ids[step.save] = answer.body.data.documentId;
      n++;
      let r = 0;
      for (const path of step.reads(w)) {
        const name = `${String(n).padStart(2, '0')}-${key}-${step.name}-${++r}`;
        // both answer the same read at the same moment: nothing writes in between
        const [a, b] = await Promise.all(WRITERS.map((reader) => send(servers[reader].url, token, { method: 'GET', path })));
        writeFileSync(join(dir, 'strapi', `${name}.json`), JSON.stringify({ name, request: { method: 'GET', path }, ...a }, null, 1));
        writeFileSync(join(dir, 'cairn', `${name}.json`), JSON.stringify({ name, request: { method: 'GET', path }, ...b }, null, 1));
        names.push(name);
        requests[name] = `${key === 'strapi' ? 'Strapi' : 'Cairn'} wrote ${request.method} ${request.path}; both read GET ${path}`;
      }
    }
  }
  return { names, requests };
}

/**
 * users-permissions' "refresh" mode across the two servers (both run it in test 4): a session opened on one is
 * refreshed, listed, revoked and logged out on the other. Each step's status is checked (`failures` lists those
 * that differ from Strapi's rule); the session lists, read by both servers with one access token, are recorded into
 * `dir` for compare.mjs as the exchange's reads are. Returns { names, requests, checks, failures }.
 */
export async function sessionsExchange({ servers, dir }) {
  const failures = [];
  let checks = 0;
  const names = [];
  const requests = {};
  const at = (key) => servers[key].url;
  const expect = async (key, request, status, jwt) => {
    const answer = await send(at(key), jwt, request);
    checks++;
    if (answer.status !== status) failures.push(`${key} ${request.method} ${request.path}: ${answer.status}, expected ${status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer.body ?? {};
  };
  const refresh = (key, refreshToken, status) => expect(key, { method: 'POST', path: '/api/auth/refresh', body: { refreshToken } }, status);
  const bothList = async (label, jwt) => {
    const name = `sessions-${label}`;
    const path = '/api/auth/sessions';
    const [a, b] = await Promise.all(WRITERS.map((key) => send(at(key), jwt, { method: 'GET', path })));
    writeFileSync(join(dir, 'strapi', `${name}.json`), JSON.stringify({ name, request: { method: 'GET', path }, ...a }, null, 1));
    writeFileSync(join(dir, 'cairn', `${name}.json`), JSON.stringify({ name, request: { method: 'GET', path }, ...b }, null, 1));
    names.push(name);
    requests[name] = `both list the sessions (${label}) with one access token`;
  };
  const user = { username: 'interop-sessions', email: 'interop-sessions@example.com', password: 'Interop-1234' };
  // Opened on Strapi, refreshed on Cairn, then on Strapi with Cairn's token; the rotated tokens refused on both.
  const registered = await expect('strapi', { method: 'POST', path: '/api/auth/local/register', body: user }, 200);
  const onCairn = await expect('cairn', { method: 'POST', path: '/api/auth/local', body: { identifier: user.email, password: user.password, deviceId: 'cairn-device' } }, 200);
  const byCairn = await refresh('cairn', registered.refreshToken, 200);
  const byStrapi = await refresh('strapi', byCairn.refreshToken, 200);
  for (const key of WRITERS) {
    await refresh(key, registered.refreshToken, 401);
    await refresh(key, byCairn.refreshToken, 401);
  }
  await expect('cairn', { method: 'GET', path: '/api/users/me' }, 200, byStrapi.jwt);
  await expect('strapi', { method: 'GET', path: '/api/users/me' }, 200, onCairn.jwt);
  await bothList('after-refreshes', byStrapi.jwt);
  await bothList('cairn-login', onCairn.jwt);
  // Cairn's session ended by Strapi; everything ended by Cairn.
  const cairnSession = JSON.parse(Buffer.from(String(onCairn.jwt).split('.')[1] ?? '', 'base64url').toString() || '{}').sessionId;
  await expect('strapi', { method: 'DELETE', path: `/api/auth/sessions/${cairnSession}` }, 200, byStrapi.jwt);
  await refresh('cairn', onCairn.refreshToken, 401);
  await expect('cairn', { method: 'POST', path: '/api/auth/logout', body: { scope: 'all' } }, 200, byStrapi.jwt);
  await refresh('strapi', byStrapi.refreshToken, 401);
  await bothList('after-logout', byStrapi.jwt);
  return { names, requests, checks, failures };
}

/** One request with the token; the answer's status and JSON body (null when empty, the text when not JSON). */
async function send(base, token, { method, path, body }) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}
