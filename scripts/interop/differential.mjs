// The differential read harness (scripts/strapi-diff.mjs runs it): random GET requests over the conformance model,
// each sent to real Strapi and to Cairn serving the same database, the answers compared, the differences grouped.
// Its parts: a seeded generator (mulberry32, so a seed replays the same requests), the discovery of real values
// (read from Strapi first, so filters match rows), the comparer, a minimiser (drops parts of a differing request
// while it still differs the same way, so that a group's example is short and its key names what matters), and the
// report. The servers are started by the interop steps (steps.mjs); this module only talks HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import qs from 'qs';

/** The tiny seeded PRNG: floats in [0, 1). Never Math.random: a seed must replay the same run. */
export function mulberry32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- the model

const MEDIA = 'plugin::upload.file';
const SCALAR = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'datetime', 'time', 'json', 'increments']);
const TEXTUAL = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMERIC = new Set(['integer', 'biginteger', 'float', 'decimal', 'increments']);
// the file attributes a Content API read shows (the private ones, folder and folderPath, would be 400s on both)
const MEDIA_ATTRIBUTES = {
  name: { type: 'string' }, alternativeText: { type: 'string' }, caption: { type: 'string' }, width: { type: 'integer' }, height: { type: 'integer' },
  hash: { type: 'string' }, ext: { type: 'string' }, mime: { type: 'string' }, size: { type: 'decimal' }, url: { type: 'string' }, provider: { type: 'string' },
};

/**
 * The conformance model read from its schema files (so the generator follows the model, not a copy of it):
 * { types: uid -> { uid, plural?, dp, localized, attributes } (content types, the components and the file type),
 *   collections: the content types' uids }. System attributes (id, documentId, dates, locale) are added as scalars.
 */
export function loadModel(kitDir) {
  const src = join(kitDir, 'app', 'src');
  const types = {};
  const collections = [];
  for (const api of readdirSync(join(src, 'api'))) {
    for (const ct of readdirSync(join(src, 'api', api, 'content-types'))) {
      const s = JSON.parse(readFileSync(join(src, 'api', api, 'content-types', ct, 'schema.json'), 'utf8'));
      const uid = `api::${api}.${ct}`;
      const dp = Boolean(s.options?.draftAndPublish);
      const localized = Boolean(s.pluginOptions?.i18n?.localized);
      const system = { id: { type: 'increments' }, documentId: { type: 'string' }, createdAt: { type: 'datetime' }, updatedAt: { type: 'datetime' } };
      if (dp) system.publishedAt = { type: 'datetime' };
      if (localized) system.locale = { type: 'string' };
      types[uid] = { uid, kind: s.kind, plural: s.info.pluralName, dp, localized, attributes: { ...system, ...s.attributes } };
      collections.push(uid);
    }
  }
  for (const category of readdirSync(join(src, 'components'))) {
    for (const file of readdirSync(join(src, 'components', category))) {
      const s = JSON.parse(readFileSync(join(src, 'components', category, file), 'utf8'));
      const uid = `${category}.${basename(file, '.json')}`;
      types[uid] = { uid, component: true, attributes: { id: { type: 'increments' }, ...s.attributes } };
    }
  }
  types[MEDIA] = { uid: MEDIA, media: true, attributes: { id: { type: 'increments' }, documentId: { type: 'string' }, ...MEDIA_ATTRIBUTES, createdAt: { type: 'datetime' }, updatedAt: { type: 'datetime' } } };
  return { types, collections: collections.sort() };
}

/** What an attribute leads to: the uid of the type a relation, media, or component holds (undefined for scalars). */
function targetOf(a) {
  if (a.type === 'relation') return a.target;
  if (a.type === 'media') return MEDIA;
  if (a.type === 'component') return a.component;
  return undefined;
}
const entries = (model, uid, test) => Object.entries(model.types[uid].attributes).filter(([, a]) => test(a));
const scalars = (model, uid) => entries(model, uid, (a) => SCALAR.has(a.type));
const nested = (model, uid) => entries(model, uid, (a) => ['relation', 'media', 'component'].includes(a.type));

// ---------------------------------------------------------------- HTTP

/**
 * GET `path` with the token; { status, body, ms } or { timeout: true } after `timeoutMs`. A body that is not JSON
 * is kept as its text (so a plain-text 500 still compares). A connection the server closed under a kept-alive
 * socket (UND_ERR_SOCKET, ECONNRESET: seen after a timed-out request) is the client's lot, not an answer: tried
 * again, once; a second failure is status 0.
 */
export async function send(base, token, path, timeoutMs = 20_000) {
  const first = await sendOnce(base, token, path, timeoutMs);
  if (first.status !== 0) return first;
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { ...(await sendOnce(base, token, path, timeoutMs)), retried: first.body };
}

async function sendOnce(base, token, path, timeoutMs) {
  const t0 = Date.now();
  try {
    const res = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, body, ms: Date.now() - t0 };
  } catch (error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return { timeout: true, ms: Date.now() - t0 };
    return { status: 0, body: `fetch failed: ${error.cause?.code ?? error.message}`, ms: Date.now() - t0 };
  }
}

// ---------------------------------------------------------------- discovery

/**
 * Real values to filter on, read from Strapi: a few pages of every collection type (drafts and published versions,
 * every locale), one level populated and the components two, walked into `pools` (`uid.attribute` -> values; a json
 * attribute gives the strings and numbers inside it), and `documentIds` per type for the single-document route.
 */
export async function discover({ base, token, model }) {
  const pools = new Map();
  const add = (key, v) => {
    if (v === null || v === undefined) return;
    const set = pools.get(key) ?? new Set();
    if (set.size < 300) set.add(v);
    pools.set(key, set);
  };
  const walk = (uid, entry) => {
    const t = model.types[uid];
    if (!t || !entry || typeof entry !== 'object') return;
    for (const [name, v] of Object.entries(entry)) {
      const a = t.attributes[name];
      if (!a || v === null || v === undefined) continue;
      if (a.type === 'json') jsonLeaves(v, (leaf) => add(`${uid}.${name}`, leaf));
      else if (SCALAR.has(a.type)) add(`${uid}.${name}`, v);
      else if (a.type === 'dynamiczone') for (const block of [v].flat()) walk(block?.__component, block);
      else if (targetOf(a)) for (const item of [v].flat()) walk(targetOf(a), item);
    }
  };
  let calls = 0;
  for (const uid of model.collections) {
    const t = model.types[uid];
    // components and dynamic zones one level deeper, so their nested components and relations give values too
    const populate = Object.fromEntries(Object.entries(t.attributes).filter(([, a]) => ['relation', 'media', 'component', 'dynamiczone'].includes(a.type)).map(([name, a]) => [name, a.type === 'component' || a.type === 'dynamiczone' ? { populate: '*' } : true]));
    for (const status of t.dp ? ['published', 'draft'] : [undefined]) {
      for (const page of [1, 2, 3]) {
        const query = { status, locale: t.localized ? '*' : undefined, populate, pagination: { page, pageSize: 100 } };
        const answer = await send(base, token, `/api/${t.plural}?${qs.stringify(query, { encodeValuesOnly: true })}`);
        calls++;
        if (answer.status !== 200 || !Array.isArray(answer.body?.data)) throw new Error(`discovery: /api/${t.plural} answered ${answer.status ?? 'nothing (timeout)'}: ${JSON.stringify(answer.body).slice(0, 300)}`);
        for (const entry of answer.body.data) walk(uid, entry);
        if (answer.body.data.length < 100) break;
      }
    }
  }
  const documentIds = Object.fromEntries(model.collections.map((uid) => [uid, [...(pools.get(`${uid}.documentId`) ?? [])]]));
  return { pools: new Map([...pools].map(([k, set]) => [k, [...set]])), documentIds, calls };
}

function jsonLeaves(v, fn) {
  if (Array.isArray(v)) v.forEach((x) => jsonLeaves(x, fn));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => jsonLeaves(x, fn));
  else if (typeof v === 'string' || typeof v === 'number') fn(v);
}

// ---------------------------------------------------------------- the generator

const OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$null', '$notNull', '$between'];
const TEXT_OPS = new Set(['$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']);
const MAX_PATH = 2048;

/** The generator's state: the PRNG and its helpers, the model and the discovered values. */
class Gen {
  constructor(seed, model, found) {
    this.rng = mulberry32(seed);
    this.model = model;
    this.pools = found.pools;
    this.documentIds = found.documentIds;
  }
  chance(p) {
    return this.rng() < p;
  }
  int(lo, hi) {
    return lo + Math.floor(this.rng() * (hi - lo + 1));
  }
  pick(list) {
    return list[Math.floor(this.rng() * list.length)];
  }
  pickN(list, n) {
    const copy = [...list];
    const out = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(this.rng() * copy.length), 1)[0]);
    return out;
  }
}

/**
 * `count` requests ({ route: 'list'|'one', uid, plural, documentId?, query, path }) from `seed`. One of more than
 * 2 KB, or with a page size over 100 (the servers' maxLimit: its answers are clamped, so not compared), is skipped and
 * another drawn; `skipped` says how many.
 */
export function generateRequests({ seed, count, model, found }) {
  const g = new Gen(seed, model, found);
  const requests = [];
  let skipped = 0;
  while (requests.length < count) {
    const request = oneRequest(g);
    const size = Number(request.query.pagination?.pageSize ?? request.query.pagination?.limit ?? 0);
    if (request.path.length >= MAX_PATH || size > 100) {
      skipped++;
      continue;
    }
    requests.push(request);
  }
  return { requests, skipped };
}

export function pathOf({ plural, documentId }, query) {
  // `:`, `,` and `*` are left readable: a query string may hold them as they are, and both servers decode them alike
  const search = qs.stringify(query, { encodeValuesOnly: true }).replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%2A/g, '*');
  return `/api/${plural}${documentId ? `/${documentId}` : ''}${search ? `?${search}` : ''}`;
}

function oneRequest(g) {
  const uid = g.pick(g.model.collections);
  const t = g.model.types[uid];
  // a quarter single-document reads (a real documentId, now and then one that does not exist), the rest lists
  const one = g.chance(0.25);
  const query = {};
  if (!one && g.chance(0.6)) {
    query.filters = genFilter(g, uid, 0);
    // now and then two conditions side by side at the top (an implicit $and)
    if (g.chance(0.25)) Object.assign(query.filters, genFilter(g, uid, 0));
  }
  if (g.chance(0.5)) query.populate = genPopulate(g, uid, 0);
  if (g.chance(0.3)) query.fields = genFields(g, uid);
  if (!one && g.chance(0.55)) query.sort = genSort(g, uid);
  if (!one && g.chance(0.45)) query.pagination = genPagination(g);
  if (g.chance(t.localized ? 0.35 : 0.05)) query.locale = g.pick(['en', 'fr', 'fr', '*', '*', 'de']);
  if (g.chance(t.dp ? 0.4 : 0.05)) query.status = g.pick(['draft', 'published', 'draft', 'published', 'draft', 'published', 'draft', 'published', 'draft', 'DRAFT']);
  if (!one && g.chance(0.1)) query._q = genSearch(g, uid);
  const request = { route: one ? 'one' : 'list', uid, plural: t.plural, query };
  if (one) request.documentId = g.chance(0.93) && g.documentIds[uid].length ? g.pick(g.documentIds[uid]) : 'doesnotexist0000000000000';
  request.path = pathOf(request, query);
  return request;
}

/**
 * A filter object on `uid`: a condition on a scalar, or a nested filter through a relation, media or component, or
 * $and/$or (lists) and $not around more of the same; `depth` bounds the nesting.
 */
function genFilter(g, uid, depth) {
  const roll = g.rng();
  if (depth < 2 && roll < 0.12) return { [g.pick(['$and', '$or'])]: Array.from({ length: g.int(1, 3) }, () => genFilter(g, uid, depth + 1)) };
  if (depth < 2 && roll < 0.18) return { $not: genFilter(g, uid, depth + 1) };
  const t = g.model.types[uid];
  // a dynamic zone is not filterable (both should refuse it): kept rare
  const dz = entries(g.model, uid, (a) => a.type === 'dynamiczone');
  if (dz.length && g.chance(0.02)) return { [dz[0][0]]: { $notNull: true } };
  const through = nested(g.model, uid);
  if (depth < 2 && through.length && g.chance(0.35)) {
    const [name, a] = g.pick(through);
    return { [name]: genFilter(g, targetOf(a), depth + 1) };
  }
  const [name, a] = g.pick(scalars(g.model, uid));
  // the implicit $eq form (`filters[name]=x`) now and then
  if (g.chance(0.08)) return { [name]: String(value(g, t.uid, name, a, '$eq')) };
  // mostly an operator that fits the attribute's type; a quarter of the time any of them
  const op = g.pick(g.chance(0.75) ? opsFor(a) : OPERATORS);
  return { [name]: { [op]: value(g, t.uid, name, a, op) } };
}

const ORDER_OPS = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$null', '$notNull', '$between'];
function opsFor(a) {
  if (TEXTUAL.has(a.type)) return OPERATORS;
  if (a.type === 'boolean') return ['$eq', '$ne', '$in', '$notIn', '$null', '$notNull'];
  if (a.type === 'json') return ['$contains', '$notContains', '$containsi', '$notContainsi', '$null', '$notNull'];
  return ORDER_OPS;
}

/** A value for `op` on `uid.name`: mostly one seen in the data (or a part of one), sometimes an edge value. */
function value(g, uid, name, a, op) {
  if (op === '$null' || op === '$notNull') return g.pick([true, false, 'true', 'false', true, '1', '0']);
  if (op === '$in' || op === '$notIn') return Array.from({ length: g.int(1, 3) }, () => scalarValue(g, uid, name, a, '$eq'));
  if (op === '$between') {
    const pair = [scalarValue(g, uid, name, a, '$eq'), scalarValue(g, uid, name, a, '$eq')];
    // mostly in order (a range that can match), sometimes reversed
    return g.chance(0.8) ? pair.sort((x, y) => (NUMERIC.has(a.type) ? Number(x) - Number(y) : String(x).localeCompare(String(y)))) : pair;
  }
  return scalarValue(g, uid, name, a, op);
}

function scalarValue(g, uid, name, a, op) {
  const pool = g.pools.get(`${uid}.${name}`) ?? [];
  if (!pool.length || g.chance(0.06)) return edgeValue(g, a);
  let v = g.pick(pool);
  if (TEXT_OPS.has(op) && typeof v === 'string' && v.length > 2) {
    // a part of a real value, so that the text operators match something; the `i` forms get another case
    const cut = g.int(1, Math.min(8, v.length - 1));
    if (op.startsWith('$startsWith')) v = v.slice(0, cut);
    else if (op.startsWith('$endsWith')) v = v.slice(-cut);
    else {
      const from = g.int(0, v.length - cut);
      v = v.slice(from, from + cut);
    }
  }
  // another case for the `i` forms (and now and then for the others) of text; never of dates, ids and numbers
  if (TEXTUAL.has(a.type) && name !== 'documentId' && (op.endsWith('i') || g.chance(0.1)) && typeof v === 'string') v = g.chance(0.5) ? v.toUpperCase() : v.toLowerCase();
  return v;
}

function edgeValue(g, a) {
  if (a.type === 'boolean') return g.pick([true, false, 'true', 'false', '1', '0']);
  if (a.type === 'enumeration') return g.pick([...a.enum, 'thai']);
  if (a.type === 'float' || a.type === 'decimal') return g.pick([0, -1, 1, 2.5, 100000]);
  if (a.type === 'biginteger') return g.pick([0, -1, 1, 100000, '9007199254740001']);
  if (NUMERIC.has(a.type)) return g.pick([0, -1, 1, 100000]);
  if (a.type === 'date') return g.pick(['2020-01-01', '1999-12-31', '2024-06-30']);
  if (a.type === 'datetime') return g.pick(['2020-01-01T00:00:00.000Z', '2022-06-15T12:00:00Z', '2021-03-01', '2022-06-15t12:00:00z']);
  return g.pick(['', ' ', '%', '_', "O'Brien", 'é', 'Chloé', 'CHLOÉ', 'zz-none', 'a b', 'Pizza', 'terrace']);
}

/** `populate` in its forms: `*`, a list, a comma string, or an object with fields/filters/sort/populate, `on` for a dynamic zone. */
function genPopulate(g, uid, depth) {
  const fields = entries(g.model, uid, (a) => ['relation', 'media', 'component', 'dynamiczone'].includes(a.type));
  if (!fields.length) return '*';
  const roll = g.rng();
  if (depth === 0 && roll < 0.15) return '*';
  const chosen = g.pickN(fields, g.int(1, Math.min(3, fields.length)));
  if (roll < 0.3) return chosen.map(([name]) => name);
  if (roll < 0.38) return chosen.map(([name]) => name).join(',');
  const out = {};
  for (const [name, a] of chosen) out[name] = genPopulateOne(g, a, depth);
  return out;
}

function genPopulateOne(g, a, depth) {
  if (g.chance(0.2)) return true;
  if (g.chance(0.05)) return '*';
  if (a.type === 'dynamiczone') {
    if (g.chance(0.3)) return { populate: '*' };
    const on = {};
    for (const component of g.pickN(a.components, g.int(1, a.components.length))) {
      on[component] = g.chance(0.4) ? true : { ...(g.chance(0.5) ? { fields: genFields(g, component) } : {}), populate: depth < 2 && nested(g.model, component).length ? genPopulate(g, component, depth + 1) : '*' };
    }
    return { on };
  }
  const target = targetOf(a);
  const out = {};
  if (g.chance(0.4)) out.fields = genFields(g, target);
  // filters and sort apply to relations (a list of entries); components and media only take fields/populate
  if (a.type === 'relation') {
    if (g.chance(0.35)) out.filters = genFilter(g, target, 1);
    if (g.chance(0.35)) out.sort = genSort(g, target);
  }
  if (depth < 2 && (nested(g.model, target).length || entries(g.model, target, (x) => x.type === 'dynamiczone').length) && g.chance(0.4)) out.populate = genPopulate(g, target, depth + 1);
  return Object.keys(out).length ? out : true;
}

function genFields(g, uid) {
  const names = scalars(g.model, uid).map(([name]) => name).filter((n) => n !== 'id');
  const chosen = g.pickN(names, g.int(1, Math.min(3, names.length)));
  return g.chance(0.2) ? chosen.join(',') : chosen;
}

/** `sort` in its forms: `a`, `a:desc`, `a,b:desc`, a list, an object, a list of objects, through a relation or component. */
function genSort(g, uid) {
  const key = () => sortPath(g, uid, 0);
  const dir = () => g.pick(['', ':asc', ':desc', ':desc']);
  switch (g.int(0, 5)) {
    case 0:
    case 1:
      return `${key().join('.')}${dir()}`;
    case 2:
      return Array.from({ length: g.int(2, 3) }, () => `${key().join('.')}${dir()}`).join(',');
    case 3:
      return Array.from({ length: g.int(1, 3) }, () => `${key().join('.')}${dir()}`);
    case 4:
      return nestObject(key(), g.pick(['asc', 'desc']));
    default:
      return Array.from({ length: g.int(1, 2) }, () => nestObject(key(), g.pick(['asc', 'desc'])));
  }
}

function sortPath(g, uid, depth = 0) {
  const through = nested(g.model, uid);
  // through a relation, media or component; now and then two levels (`address.geo.lat`, `chef.restaurants.name`)
  if (through.length && g.chance(depth === 0 ? 0.3 : 0.1)) {
    const [name, a] = g.pick(through);
    return [name, ...sortPath(g, targetOf(a), depth + 1)];
  }
  // a json attribute has no order (Cairn refuses it, README); kept out of sorts
  return [g.pick(scalars(g.model, uid).filter(([, a]) => a.type !== 'json'))[0]];
}

const nestObject = (path, leaf) => path.reduceRight((inner, k) => ({ [k]: inner }), leaf);

function genPagination(g) {
  const sizes = [1, 2, 3, 5, 10, 25, 50, 100];
  const withCount = g.chance(0.3) ? { withCount: g.pick([true, false]) } : {};
  if (g.chance(0.65)) {
    const p = {};
    if (g.chance(0.8)) p.page = g.chance(0.05) ? 0 : g.int(1, 6);
    if (g.chance(0.8)) p.pageSize = g.chance(0.04) ? 0 : g.pick(sizes);
    return { ...p, ...withCount };
  }
  const p = {};
  if (g.chance(0.8)) p.start = g.pick([0, 0, 1, 5, 20, 99, 480]);
  if (g.chance(0.8)) p.limit = g.chance(0.05) ? -1 : g.pick(sizes);
  return { ...p, ...withCount };
}

function genSearch(g, uid) {
  const pool = [...(g.pools.get(`${uid}.name`) ?? g.pools.get(`${uid}.title`) ?? [])];
  if (!pool.length || g.chance(0.2)) return g.pick(['pizza', 'é', '42', 'Golden', 'zz-none', '']);
  const words = String(g.pick(pool)).split(/\s+/);
  return g.pick(words);
}

// ---------------------------------------------------------------- comparing

/** JSON with object keys sorted: member order is not data (ignored); array order is. */
function canon(v) {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** Whether a request orders its top-level list (a top-level `sort`); without one, order is not compared. */
export const ordered = (request) => request.route === 'list' && request.query.sort !== undefined && request.query.sort !== '';

/**
 * Strapi's answer `a` against Cairn's `b` to `request`. Returns { equal, kind, diff }: `kind` says how they differ
 * (the minimiser keeps it; the report groups by it): a status pair with error names, an error's message, the body,
 * or only the order ('order, ties only' when the sort keys the answer shows come in the same sequence on both).
 */
export function compare(request, a, b) {
  if (a.timeout || b.timeout) return { equal: false, kind: `timeout (${a.timeout ? 'strapi' : ''}${a.timeout && b.timeout ? '+' : ''}${b.timeout ? 'cairn' : ''})`, diff: [] };
  const errName = (x) => (x.body && typeof x.body === 'object' ? x.body.error?.name : undefined) ?? (x.status >= 400 ? '-' : '');
  if (a.status !== b.status) {
    return { equal: false, kind: `status ${a.status}${errName(a) ? ` ${errName(a)}` : ''} (strapi) vs ${b.status}${errName(b) ? ` ${errName(b)}` : ''} (cairn)`, diff: [`status ${a.status} vs ${b.status}`, `strapi: ${excerpt(a.body)}`, `cairn: ${excerpt(b.body)}`] };
  }
  if (a.status >= 400) {
    const ea = a.body?.error ?? {};
    const eb = b.body?.error ?? {};
    if (ea.name !== eb.name) return { equal: false, kind: `${a.status}: error name ${ea.name} (strapi) vs ${eb.name} (cairn)`, diff: [`strapi: ${excerpt(a.body)}`, `cairn: ${excerpt(b.body)}`] };
    if (ea.message !== eb.message) return { equal: false, kind: `${a.status} ${ea.name}: message differs`, diff: [`strapi: ${String(ea.message).slice(0, 300)}`, `cairn: ${String(eb.message).slice(0, 300)}`] };
    return { equal: true };
  }
  const sortFree = !ordered(request);
  const [x, y] = sortFree ? [unorder(a.body), unorder(b.body)] : [a.body, b.body];
  if (canon(x) === canon(y)) return { equal: true, sortFree };
  const diff = diffs(x, y);
  if (!sortFree && Array.isArray(a.body?.data) && canon(unorder(a.body)) === canon(unorder(b.body))) {
    return { equal: false, kind: tiesOnly(request, a.body.data, b.body.data) ? 'order, ties only' : 'order', diff, sortFree };
  }
  const ids = (list) => canon(list.map((e) => [e?.documentId, e?.locale]));
  if (!sortFree && Array.isArray(a.body?.data) && Array.isArray(b.body?.data) && ids(a.body.data) !== ids(b.body.data) && tiesOnly(request, a.body.data, b.body.data)) {
    return { equal: false, kind: 'body: other entries among ties at a page edge', diff, sortFree };
  }
  return { equal: false, kind: 'body', diff, sortFree };
}

/** The body with its top-level `data` list in documentId (then locale, then content) order: compared as a multiset. */
function unorder(body) {
  if (!body || !Array.isArray(body.data)) return body;
  const key = (e) => `${e?.documentId ?? ''}\0${e?.locale ?? ''}\0${canon(e)}`;
  return { ...body, data: [...body.data].sort((p, q) => (key(p) < key(q) ? -1 : key(p) > key(q) ? 1 : 0)) };
}

/**
 * Whether the two lists show the same sequence of sort keys (the top-level scalar keys of the request's sort, when
 * both answers show them), so they differ only in how equal keys are ordered. False when a key is not shown.
 */
function tiesOnly(request, da, db) {
  const keys = sortKeys(request.query.sort);
  if (!keys.length || keys.some((k) => k.includes('.'))) return false;
  const seq = (list) => list.map((e) => keys.map((k) => (e && k in e ? canon(e[k]) : undefined)));
  const sa = seq(da);
  if (sa.some((row) => row.includes(undefined))) return false;
  return canon(sa) === canon(seq(db));
}

function sortKeys(sort) {
  const out = [];
  const walk = (s, prefix) => {
    if (typeof s === 'string') for (const part of s.split(',')) out.push(prefix + part.split(':')[0].trim());
    else if (Array.isArray(s)) s.forEach((x) => walk(x, prefix));
    else if (s && typeof s === 'object') {
      for (const [k, v] of Object.entries(s)) {
        if (typeof v === 'string') out.push(prefix + k);
        else walk(v, `${prefix}${k}.`);
      }
    }
  };
  walk(sort, '');
  return out;
}

/** Up to 6 lines `path: strapi vs cairn`; a list of another length also says which documentIds only one side has. */
function diffs(a, b, path = '', out = []) {
  if (out.length >= 6 || canon(a) === canon(b)) return out;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && a.length !== b.length) {
      const ids = (list) => new Set(list.map((e) => e?.documentId).filter(Boolean));
      const [ia, ib] = [ids(a), ids(b)];
      const only = (p, q) => [...p].filter((id) => !q.has(id)).slice(0, 4).join(',');
      out.push(`${path || '.'}: length ${a.length} (strapi) vs ${b.length} (cairn)${ia.size || ib.size ? `; only strapi: [${only(ia, ib)}] only cairn: [${only(ib, ia)}]` : ''}`);
      return out;
    }
    // meta (counts) first: a total that differs says more than the first entry that does
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort((p, q) => (q === 'meta') - (p === 'meta'));
    for (const k of keys) {
      if (!(k in b)) out.push(`${path}.${k}: only strapi has it (${excerpt(a[k], 80)})`);
      else if (!(k in a)) out.push(`${path}.${k}: only cairn has it (${excerpt(b[k], 80)})`);
      else diffs(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`, out);
      if (out.length >= 6) break;
    }
    return out;
  }
  out.push(`${path || '.'}: ${excerpt(a, 100)} (strapi) vs ${excerpt(b, 100)} (cairn)`);
  return out;
}

export const excerpt = (v, n = 300) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? 'undefined';
  return text.length > n ? `${text.slice(0, n)}…` : text;
};

// ---------------------------------------------------------------- minimising and grouping

/**
 * Every part of `query` that can be removed, outermost first: { path } of an object key or list item, and
 * { path, part } of one item of a comma list (`sort=a,b:desc`, `populate=a,b`, `fields=a,b`).
 */
function removable(query) {
  const out = [];
  const walk = (v, path) => {
    if (typeof v === 'string' && v.includes(',')) v.split(',').forEach((_, part) => out.push({ path, part }));
    if (!v || typeof v !== 'object') return;
    const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
    for (const k of keys) out.push({ path: [...path, k] });
    for (const k of keys) walk(v[k], [...path, k]);
  };
  walk(query, []);
  return out;
}

function without(query, { path, part }) {
  const copy = structuredClone(query);
  const parent = path.slice(0, -1).reduce((o, k) => o[k], copy);
  const last = path[path.length - 1];
  if (part !== undefined) parent[last] = parent[last].split(',').filter((_, i) => i !== part).join(',');
  else if (Array.isArray(parent)) parent.splice(last, 1);
  else delete parent[last];
  return copy;
}

/**
 * The smallest request found by removing parts of `request`'s query, one at a time, while the answers still differ
 * with the same `kind` (greedy, at most `budget.perCase` and `budget.left` pairs of requests; `ask(path)` sends one
 * to both servers and compares). A part is kept when removing it changes the difference, so what is left is what
 * the difference needs, as far as one removal at a time can tell.
 */
export async function minimise(request, kind, ask, budget) {
  let query = request.query;
  let probes = 0;
  let last; // the answers to the smallest request that still differs (its reproduction)
  const tried = new Set([request.path]);
  let progress = true;
  while (progress) {
    progress = false;
    for (const part of removable(query)) {
      if (probes >= budget.perCase || budget.left <= 0) return { ...request, query, path: pathOf(request, query), probes, complete: false, last };
      const smaller = without(query, part);
      const candidate = { ...request, query: smaller, path: pathOf(request, smaller) };
      if (tried.has(candidate.path)) continue;
      tried.add(candidate.path);
      probes++;
      budget.left--;
      const result = await ask(candidate);
      if (!result.equal && result.kind === kind) {
        query = smaller;
        last = result;
        progress = true;
        break;
      }
    }
  }
  return { ...request, query, path: pathOf(request, query), probes, complete: true, last };
}

/**
 * The features a request uses, as a sorted list of short labels, coarse enough that one cause makes one group: the
 * route and the kind of type (Draft & Publish, localized; not its name), the top-level parameters, where filters sit
 * (through a relation, saying from and to which kind of type, a component, media; logical operators' places), the
 * operators of the conditions on the type's own attributes (those further in are left out of the key: there the
 * path is what tells causes apart), notable values, the populate forms, the sort's kind (multiple, through what),
 * pagination keys and notable values, the locale's and status's kind of value. Of a minimised request, these name
 * what the difference needs: the report's cause key.
 */
export function features(model, request) {
  const q = request.query;
  const t = model.types[request.uid];
  const f = new Set([`${request.route} (${t.dp ? 'D&P' : 'no D&P'}${t.localized ? ', localized' : ''})`]);
  if (q.fields !== undefined) f.add('fields');
  if (q._q !== undefined) f.add(q._q === '' ? '_q empty' : '_q');
  if (q.status !== undefined) f.add(`status=${q.status}`);
  if (q.locale !== undefined) f.add(!t.localized ? 'locale on a non-localized type' : q.locale === '*' ? 'locale=*' : ['en', 'fr'].includes(q.locale) ? `locale=${q.locale === 'en' ? 'en (default)' : 'fr'}` : 'locale unknown');
  for (const k of Object.keys(q)) if (!['filters', 'populate', 'sort', 'pagination', 'fields', '_q', 'status', 'locale'].includes(k)) f.add(`unknown parameter ${k}`);
  if (q.filters !== undefined) filterFeatures(model, request.uid, q.filters, 'top', f);
  if (q.populate !== undefined) populateFeatures(model, request.uid, q.populate, 1, f);
  if (q.sort !== undefined) sortFeatures(model, request.uid, q.sort, 'sort', f);
  if (q.pagination !== undefined) {
    for (const [k, v] of Object.entries(q.pagination)) f.add(`pagination.${k}${(k === 'page' || k === 'pageSize') && Number(v) === 0 ? '=0' : k === 'limit' && Number(v) < 0 ? '=-1' : ''}`);
  }
  return [...f].sort();
}

/** An attribute type's class, as the cause key names it. */
function cls(type) {
  if (TEXTUAL.has(type)) return 'text';
  if (type === 'increments') return 'id';
  if (NUMERIC.has(type)) return 'number';
  if (type === 'date' || type === 'datetime' || type === 'time') return 'date';
  return type;
}

function viaLabel(model, uid, a) {
  if (a.type !== 'relation') return a.type;
  const dp = (u) => (model.types[u]?.dp ? 'D&P' : 'no D&P');
  return `relation ${/Many$/.test(a.relation) ? 'to-many' : 'to-one'} (${dp(uid)} -> ${dp(a.target)})`;
}

function filterFeatures(model, uid, filter, where, f) {
  if (Array.isArray(filter)) return filter.forEach((x) => filterFeatures(model, uid, x, where, f));
  if (!filter || typeof filter !== 'object') return;
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or' || k === '$not') {
      f.add(`filter ${k}${where === 'top' ? '' : ` inside ${where}`}`);
      filterFeatures(model, uid, v, where, f);
      continue;
    }
    const a = model.types[uid]?.attributes[k];
    if (!a) {
      f.add(`filter on unknown ${k}`);
      continue;
    }
    if (a.type === 'dynamiczone') f.add('filter on a dynamic zone');
    else if (targetOf(a)) {
      const via = viaLabel(model, uid, a);
      f.add(`filter${where === 'populate' ? ' (in populate)' : ''} through ${via}`);
      filterFeatures(model, targetOf(a), v, a.type === 'relation' ? 'relation' : a.type, f);
    } else {
      const ops = v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : ['(implicit $eq)'];
      for (const op of ops) {
        f.add(where === 'top' ? `${op} on ${cls(a.type)}` : `condition inside ${where}`);
        const raw = v && typeof v === 'object' && !Array.isArray(v) ? v[op] : v;
        for (const x of [raw].flat()) {
          if (x === '' || x === ' ') f.add('empty value');
          else if (typeof x === 'string' && /[^\x00-\x7f]/.test(x)) f.add('non-ASCII value');
          else if (typeof x === 'string' && /[%_]/.test(x) && TEXTUAL.has(a.type)) f.add('value with % or _');
          else if (NUMERIC.has(a.type) && typeof x === 'string' && !/^-?\d+(\.\d+)?$/.test(x)) f.add('non-numeric value');
          else if (a.type === 'datetime' && typeof x === 'string' && /[a-z]/.test(x.replace(/^\d{4}-\d\d-\d\d/, '').replace(/[TZ]/g, ''))) f.add('lower-case date-time');
        }
      }
    }
  }
}

function populateFeatures(model, uid, populate, depth, f) {
  if (depth > 1) f.add('populate nested');
  const nestedLabel = depth > 1 ? ' (nested)' : '';
  if (populate === '*' || populate === true || populate === 'true') return f.add(`populate=${populate === '*' ? '*' : 'true'}${nestedLabel}`);
  if (typeof populate === 'string') return f.add(`populate a ${populate.includes(',') ? 'comma list' : 'name'}${nestedLabel}`);
  if (Array.isArray(populate)) return f.add(`populate a list${nestedLabel}`);
  for (const [name, v] of Object.entries(populate ?? {})) {
    const a = model.types[uid]?.attributes[name] ?? {};
    const kind = a.type === 'dynamiczone' ? 'dynamic zone' : a.type ?? 'unknown';
    if (v === '*') f.add(`populate[${kind}]=*`);
    else if (!v || typeof v !== 'object') f.add(`populate[${kind}]=true`);
    if (!v || typeof v !== 'object') continue;
    for (const key of Object.keys(v)) if (key !== 'populate' && key !== 'on' && key !== 'filters' && key !== 'sort') f.add(`populate[${kind}] with ${key}`);
    if (v.filters) {
      f.add(`populate[${kind}] with filters`);
      filterFeatures(model, targetOf(a) ?? uid, v.filters, 'populate', f);
    }
    if (v.sort) sortFeatures(model, targetOf(a) ?? uid, v.sort, `populate[${kind}] with sort`, f);
    if (v.on) {
      f.add('populate a dynamic zone with on');
      for (const [component, inner] of Object.entries(v.on)) if (inner && typeof inner === 'object' && inner.populate !== undefined) populateFeatures(model, component, inner.populate, depth + 1, f);
    }
    if (v.populate !== undefined) populateFeatures(model, targetOf(a) ?? uid, v.populate, depth + 1, f);
  }
}

function sortFeatures(model, uid, sort, label, f) {
  const keys = sortKeys(sort);
  f.add(keys.length > 1 ? `${label} (multiple keys)` : label);
  for (const key of keys) {
    const path = key.split('.');
    if (path.length === 1) continue;
    // the kind of the path's first step (a relation, to-one or to-many, a component, media), and whether it goes on
    // (in a populate, only the step's kind: there Strapi answers a 500 whatever the types, README)
    const a = model.types[uid]?.attributes[path[0]];
    const via = !a ? 'unknown' : label === 'sort' ? viaLabel(model, uid, a) : a.type === 'relation' ? 'a relation' : a.type;
    f.add(`${label} through ${via}${path.length > 2 && label === 'sort' ? ' and further' : ''}`);
  }
}

/**
 * The report: differing cases grouped by (cause key, kind), each group with its count and its shortest example
 * (minimised). Returns the groups, largest first.
 */
export function group(cases) {
  const groups = new Map();
  for (const c of cases) {
    const key = `${c.kind} | ${c.cause.join(', ')}`;
    const grp = groups.get(key) ?? { kind: c.kind, cause: c.cause, count: 0, example: c };
    grp.count++;
    if ((c.minimised ?? c.path).length < (grp.example.minimised ?? grp.example.path).length) grp.example = c;
    groups.set(key, grp);
  }
  return [...groups.values()].sort((p, q) => q.count - p.count || (p.kind < q.kind ? -1 : 1));
}
