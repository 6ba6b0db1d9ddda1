'use strict';

/**
 * `api-tests/models` over Cairn: declaring a model rewrites the app folder (and restarts Cairn if it runs), as
 * Strapi's content-type builder rewrites its files and restarts; fixtures and clean-ups go through the REST API.
 */
const { snakeCase } = require('lodash');
const app = require('../app');
const { OutOfScope } = require('../out-of-scope');

const { state, toContentTypeUID } = app;

async function restartIfRunning() {
  if (state.cairn) await app.start();
}

async function createContentType(def) {
  const model = app.addModel('contentType', def);
  await restartIfRunning();
  return model;
}

async function createContentTypes(defs) {
  const models = defs.map((def) => app.addModel('contentType', def));
  await restartIfRunning();
  return models;
}

async function createComponent(def) {
  const model = app.addModel('component', def);
  await restartIfRunning();
  return model;
}

async function createComponents(defs) {
  const models = defs.map((def) => app.addModel('component', def));
  await restartIfRunning();
  return models;
}

async function deleteContentType(uid) {
  app.removeModel(uid);
}

async function deleteContentTypes(uids) {
  uids.forEach((uid) => app.removeModel(uid));
}

async function deleteComponent(uid) {
  app.removeModel(uid);
}

async function deleteComponents(uids) {
  uids.forEach((uid) => app.removeModel(uid));
}

async function modifyComponent(def) {
  const uid = `${def.category || 'default'}.${app.slug(def.displayName)}`;
  if (!state.models.has(uid)) throw new Error(`modifyComponent: no component ${uid}`);
  app.addModel('component', def);
  await restartIfRunning();
  return { uid, ...def };
}

async function modifyContentType(def) {
  const uid = toContentTypeUID(def.singularName);
  if (!state.models.has(uid)) throw new Error(`modifyContentType: no content-type ${uid}`);
  app.addModel('contentType', def);
  await restartIfRunning();
  return { uid, ...def };
}

function contentTypeOf(uid) {
  const model = state.models.get(uid);
  if (!model || model.kind !== 'contentType') throw new Error(`No content-type ${uid} was declared`);
  return model.def;
}

const isLocalized = (def) => def.pluginOptions?.i18n?.localized === true;

/** The entry's REST route: `/api/<plural>` for a collection, `/api/<singular>` for a single type. */
const routeOf = (def) => `/api/${def.kind === 'singleType' ? def.singularName : def.pluralName}`;

/** entityService takes relations as ids; REST takes documentIds: map the ids of entries the fixtures created. */
function toRestRelation(target, value) {
  const ids = state.documentIds.get(target);
  const one = (v) => {
    const id = v && typeof v === 'object' ? v.id : v;
    return (typeof id === 'number' || typeof id === 'string') && ids?.has(String(id)) ? ids.get(String(id)) : v;
  };
  if (Array.isArray(value)) return value.map(one);
  if (value && typeof value === 'object' && !('id' in value)) return value;
  return value === null || value === undefined ? value : one(value);
}

/**
 * The other side of a relation another type declares with `targetAttribute: key` (the builder writes it on this
 * type, app.js): fixtures may set it (`labels: [...]` on an article when labels declare `articles`).
 */
function inverseRelation(uid, key) {
  for (const [owner, model] of state.models) {
    if (model.kind !== 'contentType') continue;
    for (const attribute of Object.values(model.def.attributes ?? {})) {
      const target = attribute.target === '__self__' ? owner : attribute.target;
      if (attribute.type === 'relation' && attribute.targetAttribute === key && target === uid) return { type: 'relation', target: owner };
    }
  }
  return undefined;
}

/** Fixture aliases (`documentId: 'a'` in a fixture, per type) -> the fixture's document, once created. */
const aliases = new Map();

async function createEntry(uid, data) {
  const def = contentTypeOf(uid);
  const { locale, documentId, id: _id, publishedAt, ...fields } = data;
  const body = {};
  /** Scalar attributes the content API may not write (`writable: false`): entityService writes them, so do we. */
  const nonWritable = {};
  for (const [key, value] of Object.entries(fields)) {
    const attribute = def.attributes?.[key] ?? inverseRelation(uid, key);
    // entityService ignores keys that are no attribute (e.g. `document: 'a'`); REST would refuse them.
    if (!attribute) continue;
    if (attribute.writable === false && !['relation', 'component', 'dynamiczone', 'media'].includes(attribute.type)) {
      nonWritable[key] = value;
      continue;
    }
    // Morph items name their type (`{ __type, id }`), which REST takes as they are: an entry id or a documentId.
    const morph = typeof attribute.relation === 'string' && attribute.relation.startsWith('morph');
    body[key] = attribute.type === 'relation' && !morph ? toRestRelation(attribute.target, value) : value;
  }
  const params = new URLSearchParams();
  if (locale && isLocalized(def)) params.set('locale', locale);
  if (publishedAt === null && def.draftAndPublish === true) params.set('status', 'draft');
  const query = params.size ? `?${params}` : '';
  const aliasKey = documentId === undefined ? undefined : `${uid}:${documentId}`;
  const existing = aliasKey ? aliases.get(aliasKey) : undefined;
  const response =
    def.kind === 'singleType'
      ? await app.call('PUT', `${routeOf(def)}${query}`, { data: body })
      : existing
        ? await app.call('PUT', `${routeOf(def)}/${existing}${query}`, { data: body })
        : await app.call('POST', `${routeOf(def)}${query}`, { data: body });
  if (response.status >= 300) {
    throw new Error(`Creating a fixture of ${uid} failed (${response.status}): ${JSON.stringify(response.body)}`);
  }
  let entry = response.body.data;
  if (aliasKey && !existing) {
    // Strapi's harness creates fixtures through its entity service, which keeps a given documentId; REST makes one
    // up. The fixture's documentId replaces it in the table (every row of the document: draft, published, locales).
    await renameDocument(def, entry.documentId, String(documentId));
    entry = { ...entry, documentId: String(documentId) };
    aliases.set(aliasKey, entry.documentId);
  }
  if (Object.keys(nonWritable).length > 0) {
    await writeColumns(def, entry.documentId, nonWritable);
    entry = { ...entry, ...nonWritable };
  }
  if (!state.documentIds.has(uid)) state.documentIds.set(uid, new Map());
  state.documentIds.get(uid).set(String(entry.id), entry.documentId);
  return entry;
}

async function renameDocument(def, from, to) {
  const { db } = await app.ensureStarted();
  await db.execute(`UPDATE ${db.quote(app.tableOf(def))} SET ${db.quote('document_id')} = ? WHERE ${db.quote('document_id')} = ?`, [to, from]);
}

/** Values written straight into the document's rows (Strapi's columns: the attribute's name in snake_case). */
async function writeColumns(def, documentId, values) {
  const { db } = await app.ensureStarted();
  const keys = Object.keys(values);
  const set = keys.map((key) => `${db.quote(snakeCase(key))} = ?`).join(', ');
  await db.execute(`UPDATE ${db.quote(app.tableOf(def))} SET ${set} WHERE ${db.quote('document_id')} = ?`, [...keys.map((key) => values[key]), documentId]);
}

async function createFixturesFor(modelName, entries) {
  const uid = toContentTypeUID(modelName);
  if (uid === 'plugin::i18n.locale') return createLocales(entries);
  const results = [];
  for (const entry of entries) {
    results.push(await createEntry(uid, typeof entry === 'function' ? entry(results) : entry));
  }
  return results;
}

/** Locales are configuration in Cairn (config/plugins): a locale fixture rewrites it. */
async function createLocales(entries) {
  const created = entries.map((entry) => {
    state.locales.push({ code: entry.code, name: entry.name });
    return { id: state.locales.length + 1, ...entry };
  });
  await restartIfRunning();
  return created;
}

async function createFixtures(dataMap) {
  const result = {};
  for (const [model, entries] of Object.entries(dataMap)) result[model] = await createFixturesFor(model, entries);
  return result;
}

async function deleteDocuments(uid, documentIds) {
  const def = contentTypeOf(uid);
  const query = isLocalized(def) ? '?locale=*' : '';
  for (const documentId of new Set(documentIds)) {
    const response = await app.call('DELETE', `${routeOf(def)}/${documentId}${query}`);
    if (response.status >= 300 && response.status !== 404) {
      throw new Error(`Deleting ${uid} ${documentId} failed (${response.status}): ${JSON.stringify(response.body)}`);
    }
  }
}

async function deleteFixturesFor(modelName, entries) {
  await deleteDocuments(toContentTypeUID(modelName), entries.map((entry) => entry.documentId));
}

/** Deletes every entry of a content-type, through REST. */
async function cleanupModel(uid) {
  if (uid === 'plugin::i18n.locale') throw new OutOfScope('locales are configuration in Cairn, not entries');
  const def = contentTypeOf(uid);
  if (def.kind === 'singleType') {
    await app.call('DELETE', `${routeOf(def)}${isLocalized(def) ? '?locale=*' : ''}`);
    return;
  }
  const params = new URLSearchParams({ 'pagination[pageSize]': '100', 'fields[0]': 'documentId' });
  if (isLocalized(def)) params.set('locale', '*');
  if (def.draftAndPublish === true) params.set('status', 'draft');
  for (let round = 0; round < 100; round += 1) {
    const response = await app.call('GET', `${routeOf(def)}?${params}`);
    if (response.status !== 200) throw new Error(`Listing ${uid} failed (${response.status}): ${JSON.stringify(response.body)}`);
    if (response.body.data.length === 0) return;
    await deleteDocuments(uid, response.body.data.map((entry) => entry.documentId));
  }
}

async function cleanupModels(uids) {
  for (const uid of uids) await cleanupModel(uid);
}

async function getContentTypeSchema() {
  throw new OutOfScope("getContentTypeSchema reads the content-type builder's admin service");
}

module.exports = {
  toContentTypeUID,
  createContentType,
  createContentTypes,
  deleteContentType,
  deleteContentTypes,
  cleanupModel,
  cleanupModels,
  createComponent,
  createComponents,
  deleteComponent,
  deleteComponents,
  createFixtures,
  createFixturesFor,
  deleteFixturesFor,
  modifyContentType,
  modifyComponent,
  getContentTypeSchema,
};
