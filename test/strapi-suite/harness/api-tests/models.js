'use strict';

/**
 * `api-tests/models` over Cairn: declaring a model rewrites the app folder (and restarts Cairn if it runs), as
 * Strapi's content-type builder rewrites its files and restarts; fixtures are created through Cairn's in-process
 * Document Service (as Strapi's harness creates them through its own), clean-ups go through the REST API.
 */
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

/**
 * Strapi's harness creates a fixture with `strapi.entityService.create(uid, { data })`, which Strapi 5 runs as
 * `strapi.documents(uid).create({ data, status })`: `status` is 'draft' when the type has Draft & Publish and
 * `data.publishedAt` is null, else 'published' (its v4-compatible entity service, services/entity-service/index.ts).
 * The adapter calls Cairn's in-process Document Service (`cairn.strapi.documents`, what app code gets) the same way:
 * relations stay entry ids, as the fixtures give them; `locale` stays in `data` (on a type without i18n Strapi keeps
 * it in a column no answer shows: its i18n plugin makes that attribute private there; Cairn checks it as Strapi does
 * and keeps nothing). Where Cairn's service is stricter than Strapi's, the data is narrowed to what Strapi would take:
 * keys that are no attribute are dropped (Strapi ignores them, e.g. `document: 'a'`), `publishedAt` only chooses the
 * status (Strapi drops it from the data, `filterDataPublishedAt`). Two readings of the fixtures' intent:
 * `documentId: 'a'` (Strapi writes that documentId) groups entries into one document, each fixture after the first
 * one more locale of it, and a localized type's `locale` names the locale written (`params.locale`).
 */
async function createEntry(uid, data) {
  const def = contentTypeOf(uid);
  const { documentId, id: _id, publishedAt, ...fields } = data;
  const input = {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'locale' || def.attributes?.[key] || inverseRelation(uid, key)) input[key] = value;
  }
  const params = { data: input, status: publishedAt === null && def.draftAndPublish === true ? 'draft' : 'published' };
  if (isLocalized(def) && typeof fields.locale === 'string') params.locale = fields.locale;
  const documents = (await app.ensureStarted()).strapi.documents(uid);
  const aliasKey = documentId === undefined ? undefined : `${uid}:${documentId}`;
  // A single type has one document: its other fixtures are more locales of it (as Strapi's createOrUpdate finds it).
  const existing = def.kind === 'singleType' ? await singleDocument(documents, def) : aliasKey ? aliases.get(aliasKey) : undefined;
  let entry;
  try {
    entry = existing ? await documents.update({ ...params, documentId: existing }) : await documents.create(params);
  } catch (error) {
    const details = error?.details ? ` ${JSON.stringify(error.details)}` : '';
    throw new Error(`Creating a fixture of ${uid} failed (${error?.name ?? 'Error'}: ${error?.message})${details}`);
  }
  let result = entry;
  if (aliasKey && !existing) {
    // Strapi's entity service keeps a fixture's given documentId (e.g. 'article-1'); Cairn's service makes one up.
    // The fixture's documentId replaces it in the table (every row of the document: draft, published, locales).
    await renameDocument(def, entry.documentId, String(documentId));
    result = { ...entry, documentId: String(documentId) };
    aliases.set(aliasKey, result.documentId);
  }
  return result;
}

async function renameDocument(def, from, to) {
  const { db } = await app.ensureStarted();
  await db.execute(`UPDATE ${db.quote(app.tableOf(def))} SET ${db.quote('document_id')} = ? WHERE ${db.quote('document_id')} = ?`, [to, from]);
}

/** The documentId of a single type's document, if it has one (in any locale and version). */
async function singleDocument(documents, def) {
  const params = { fields: ['documentId'], ...(isLocalized(def) ? { locale: '*' } : {}) };
  const found = (await documents.findFirst({ ...params, status: 'draft' })) ?? (await documents.findFirst({ ...params, status: 'published' }));
  return found?.documentId;
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
