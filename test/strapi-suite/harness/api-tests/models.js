'use strict';

/**
 * `api-tests/models` over Cairn: declaring a model rewrites the app folder (and restarts Cairn if it runs), as
 * Strapi's content-type builder rewrites its files and restarts; fixtures are created as rows through Cairn's
 * Query Engine (as Strapi's harness creates them through its own), clean-ups go through the REST API.
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

/** A schema's attributes as declared: a content type's or a component's (by uid). */
function attributesOf(uid) {
  const model = state.models.get(uid);
  if (!model) throw new Error(`No model ${uid} was declared`);
  return model.def.attributes ?? {};
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

/** The keys Strapi's Query Engine writes: attributes and the system fields (it drops any other key silently). */
const SYSTEM_FIELDS = ['documentId', 'locale', 'publishedAt', 'createdAt', 'updatedAt'];

/**
 * Strapi 5's harness creates a fixture as rows, not as a document: its component rows first (the Document Service's
 * `createComponents`), then `strapi.db.query(uid).create({ data })` with the components by id. So a fixture is
 * written as given: its `documentId`, `locale` and `publishedAt` (null: a draft row only; a date: a published row
 * only), relations by row id. The adapter does the same with Cairn's Query Engine, which refuses keys that are no
 * attribute where Strapi's drops them: they are dropped here first (e.g. `document: 'a'`).
 */
async function createRow(uid, data) {
  const { strapi } = await app.ensureStarted();
  const attributes = attributesOf(uid);
  const row = {};
  for (const [key, value] of Object.entries(data)) {
    const attribute = attributes[key] ?? inverseRelation(uid, key);
    if (!attribute && !SYSTEM_FIELDS.includes(key)) continue;
    if (attribute?.type === 'component') row[key] = await createComponentRows(attribute.component, value, attribute.repeatable);
    else if (attribute?.type === 'dynamiczone') row[key] = await createZoneRows(value);
    else row[key] = value;
  }
  try {
    return await strapi.db.query(uid).create({ data: row });
  } catch (error) {
    throw new Error(`Creating a fixture of ${uid} failed (${error?.message})`);
  }
}

/** A component field's rows, created: `{ id }` each (null stays null). */
async function createComponentRows(componentUid, value, repeatable) {
  if (value === null || value === undefined) return value;
  if (repeatable) return Promise.all((Array.isArray(value) ? value : [value]).map(async (item) => ({ id: (await createRow(componentUid, item)).id })));
  return { id: (await createRow(componentUid, value)).id };
}

/** A dynamic zone's rows, created: `{ id, __component }` each. */
async function createZoneRows(value) {
  if (!Array.isArray(value)) return value;
  const items = [];
  for (const { __component, ...item } of value) items.push({ id: (await createRow(__component, item)).id, __component });
  return items;
}

async function createFixturesFor(modelName, entries) {
  const uid = toContentTypeUID(modelName);
  if (uid === 'plugin::i18n.locale') return createLocales(entries);
  const results = [];
  for (const entry of entries) {
    results.push(await createRow(uid, typeof entry === 'function' ? entry(results) : entry));
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

/** As Strapi's harness: the fixtures' rows by id, through the Query Engine. */
async function deleteFixturesFor(modelName, entries) {
  const { strapi } = await app.ensureStarted();
  await strapi.db.query(toContentTypeUID(modelName)).deleteMany({ where: { id: entries.map((entry) => entry.id) } });
}

/** As Strapi's harness: every row of a content-type, through the Query Engine. */
async function cleanupModel(uid) {
  if (uid === 'plugin::i18n.locale') throw new OutOfScope('locales are configuration in Cairn, not entries');
  contentTypeOf(uid);
  const { strapi } = await app.ensureStarted();
  await strapi.db.query(uid).deleteMany();
}

async function cleanupModels(uids) {
  for (const uid of uids) await cleanupModel(uid);
}

async function getContentTypeSchema() {
  throw new OutOfScope("getContentTypeSchema reads the content-type builder's admin service");
}

/**
 * Strapi's `contentAPI.sanitize.output` of fixture rows, as its builder's `sanitizedFixtures` applies it: private
 * attributes and passwords removed, and `locale` on a type without i18n (its i18n plugin makes it private there).
 */
function sanitizedRows(modelName, rows) {
  const uid = toContentTypeUID(modelName);
  if (!state.models.has(uid) || !Array.isArray(rows)) return rows;
  const def = state.models.get(uid).def;
  const hidden = Object.entries(attributesOf(uid)).filter(([, a]) => a.private === true || a.type === 'password').map(([name]) => name);
  if (def.pluginOptions?.i18n?.localized !== true) hidden.push('locale');
  return rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !hidden.includes(key))));
}

module.exports = {
  sanitizedRows,
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
