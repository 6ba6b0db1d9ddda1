import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ContentType } from '../model/types.js';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { Documents } from '../documents/index.js';
import type { RestContext } from './context.js';
import { authorize } from '../auth/access-control.js';
import { cachedReadSpec, rawQuery, readSpec } from './query.js';
import { entryBody, JSON_TYPE, listBody } from './responses.js';
import { toV4Text, wantsV4 } from './v4-format.js';
import { encodeSourceMaps, wantsSourceMaps } from './source-maps.js';

type Params = { documentId?: string };
type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A core action of the Content API (Strapi's names), as Fastify handlers: the compiled fast path. */
export type CoreAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/** One route of the Content API: its method, path, Strapi's action name and the fast handler. */
export interface CoreRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  action: CoreAction;
  handler: Handler;
}

/**
 * The Content API's routes of one content-type, as Strapi's core router makes them (`find`, `findOne`, `create`,
 * `update`, `delete` for a collection type; `find`, `update`, `delete` for a single type), each with its fast
 * handler: parse, one compiled statement, splice the JSON texts.
 */
export function coreRoutes(ctx: RestContext, contentType: ContentType): CoreRoute[] {
  const documents = ctx.documents(contentType.uid);
  if (contentType.kind === 'collectionType') {
    const base = `/api/${contentType.info.pluralName}`;
    return [
      { method: 'GET', path: base, action: 'find', handler: (req, reply) => findMany(ctx, contentType, documents, req, reply) },
      { method: 'GET', path: `${base}/:documentId`, action: 'findOne', handler: (req, reply) => findOne(ctx, contentType, documents, req, reply) },
      { method: 'POST', path: base, action: 'create', handler: (req, reply) => create(ctx, contentType, documents, req, reply) },
      { method: 'PUT', path: `${base}/:documentId`, action: 'update', handler: (req, reply) => update(ctx, contentType, documents, req, reply) },
      { method: 'DELETE', path: `${base}/:documentId`, action: 'delete', handler: (req, reply) => remove(ctx, documents, req, reply) },
    ];
  }
  const base = `/api/${contentType.info.singularName}`;
  return [
    { method: 'GET', path: base, action: 'find', handler: (req, reply) => findOne(ctx, contentType, documents, req, reply) },
    { method: 'PUT', path: base, action: 'update', handler: (req, reply) => update(ctx, contentType, documents, req, reply) },
    { method: 'DELETE', path: base, action: 'delete', handler: (req, reply) => remove(ctx, documents, req, reply) },
  ];
}

/**
 * An entry's JSON text as the client asked for it: v5's form, or v4's with `Strapi-Response-Format: v4`; with
 * `strapi-encode-source-maps: true`, v5's with its content source maps (parsed and written again only then).
 */
function answerShape(ctx: RestContext, ct: ContentType, req: FastifyRequest): (row: string) => string {
  if (wantsV4(req)) return (row) => toV4Text(ctx.model, ct, row);
  if (wantsSourceMaps(req.headers)) return (row) => JSON.stringify(encodeSourceMaps(ctx.model, ct, JSON.parse(row)));
  return (row) => row;
}

/**
 * The Content API: `/api/:pluralApiId` and `/api/:pluralApiId/:documentId` for collection types,
 * `/api/:singularApiId` for single types. Handlers are thin: parse, call the document service, shape.
 */
export function registerContentApi(app: FastifyInstance, ctx: RestContext, options: { served?: (contentType: ContentType) => boolean } = {}): void {
  for (const contentType of ctx.model.contentTypes.values()) {
    if (contentType.plugin) continue;
    // The app's server code (src/api/*/routes) serves this content-type's routes itself (server-code/).
    if (options.served?.(contentType)) continue;
    for (const route of coreRoutes(ctx, contentType)) app.route({ method: route.method, url: route.path, handler: route.handler });
    if (contentType.kind === 'collectionType' && contentType.draftAndPublish) {
      registerActions(app, ctx, `/api/${contentType.info.pluralName}/:documentId/actions`, ctx.documents(contentType.uid), contentType);
    }
  }
  // Locales come from config, with the entry fields the reference answers with, stable per process; a database that
  // Strapi made has them stored. They change while the app runs (app/app-locales.ts changes the list in place and
  // moves its version): the answer is made again when the version moved.
  const startedAt = new Date().toISOString();
  let answered: { version: number; json: string } | undefined;
  const localeEntries = () => {
    const version = ctx.localesVersion?.() ?? 0;
    if (answered?.version === version) return answered.json;
    const json = JSON.stringify(
      ctx.locales.map((l, i) => ({
        id: l.stored?.id ?? i + 1,
        documentId: l.stored?.documentId ?? `locale${l.code.toLowerCase().replace(/[^a-z0-9]/g, '')}`.padEnd(24, '0').slice(0, 24),
        name: l.name,
        code: l.code,
        createdAt: l.stored ? l.stored.createdAt : startedAt,
        updatedAt: l.stored ? l.stored.updatedAt : startedAt,
        publishedAt: l.stored ? l.stored.publishedAt : startedAt,
        isDefault: l.isDefault,
      })),
    );
    answered = { version, json };
    return json;
  };
  app.get('/api/i18n/locales', async (req, reply) => {
    ctx.queryString.strictOf(req);
    return reply.type(JSON_TYPE).send(localeEntries());
  });
}

async function findMany(ctx: RestContext, ct: ContentType, documents: Documents, req: FastifyRequest, reply: FastifyReply) {
  const caller = await authorize(ctx.access(), req, `${ct.uid}.find`);
  const spec = cachedReadSpec(ctx, ct, req, caller);
  const page = await documents.findPage(spec);
  return reply.type(JSON_TYPE).send(listBody(page.rows.map(answerShape(ctx, ct, req)), page.pagination));
}

async function findOne(ctx: RestContext, ct: ContentType, documents: Documents, req: FastifyRequest, reply: FastifyReply) {
  const { documentId } = req.params as Params;
  const caller = await authorize(ctx.access(), req, `${ct.uid}.${ct.kind === 'singleType' ? 'find' : 'findOne'}`);
  const spec = cachedReadSpec(ctx, ct, req, caller);
  // `locale=*` lists every locale's entries; one document in every locale is no entry: Strapi 5.54 answers 404. (A
  // top-level `filters[locale]` also reads every locale, filtered: that one finds the version it names, as in Strapi.)
  if (documentId !== undefined && spec.locale === '*' && rawQuery(req, ctx.queryString).locale === '*') throw new NotFoundError();
  const row = await documents.findOneJson(spec, documentId);
  if (row === null) throw new NotFoundError();
  return reply.type(JSON_TYPE).send(entryBody(answerShape(ctx, ct, req)(row)));
}

/**
 * `{ data: {...} }` is required on writes, as in Strapi. An attribute whose schema says `writable: false` is for app
 * code (the Document Service writes it): a request that gives it is refused, as Strapi's content API input validation
 * refuses it (after `id`/`documentId`, which the write itself refuses).
 */
export function bodyData(body: unknown, ct: ContentType): Record<string, unknown> {
  const data = (body as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ValidationError('Missing "data" payload in the request body');
  }
  if (!('id' in data) && !('documentId' in data)) {
    for (const key of Object.keys(data)) {
      if (ct.attributes.get(key)?.raw.writable === false) throw new ValidationError(`Invalid key ${key}`, { key, path: key, source: 'body' });
    }
  }
  return data as Record<string, unknown>;
}

/** The query of a write: `status` and `locale` choose what is written, `fields`/`populate` shape the answer. */
async function writeQuery(ctx: RestContext, ct: ContentType, req: FastifyRequest, action: string) {
  const caller = await authorize(ctx.access(), req, `${ct.uid}.${action}`);
  const query = rawQuery(req, ctx.queryString);
  const spec = readSpec(ctx, ct, query, caller);
  const status = query.status as 'draft' | 'published' | undefined;
  const locale = typeof query.locale === 'string' ? query.locale : undefined;
  // The answer shows the version written, in the query's shape (documents' createAndRead/updateAndRead).
  return { status, locale, answer: spec };
}

async function create(ctx: RestContext, ct: ContentType, documents: Documents, req: FastifyRequest, reply: FastifyReply) {
  const { status, locale, answer } = await writeQuery(ctx, ct, req, 'create');
  const row = await documents.createAndRead({ data: bodyData(req.body, ct), status, locale }, answer);
  return reply.status(201).type(JSON_TYPE).send(entryBody(answerShape(ctx, ct, req)(row)));
}

async function update(ctx: RestContext, ct: ContentType, documents: Documents, req: FastifyRequest, reply: FastifyReply) {
  const { status, locale, answer } = await writeQuery(ctx, ct, req, 'update');
  const data = bodyData(req.body, ct);
  let { documentId } = req.params as Params;
  if (ct.kind === 'singleType') {
    // A single type has one document: PUT creates it the first time; later PUTs update it, in any locale (one it
    // lacks becomes a locale version of it), as Strapi's createOrUpdate finds it whatever the locale.
    documentId = await documents.singleDocumentId();
    if (documentId === undefined) {
      const row = await documents.createAndRead({ data, status, locale }, answer);
      return reply.type(JSON_TYPE).send(entryBody(answerShape(ctx, ct, req)(row)));
    }
  }
  const row = await documents.updateAndRead({ documentId: documentId!, data, status, locale }, answer);
  if (row === null) throw new NotFoundError();
  return reply.type(JSON_TYPE).send(entryBody(answerShape(ctx, ct, req)(row)));
}

async function remove(ctx: RestContext, documents: Documents, req: FastifyRequest, reply: FastifyReply) {
  // Strapi checks a delete's query as any other (fields, populate... are valid, and shape nothing: the answer is a
  // 204); `locale` chooses what is deleted.
  const { locale } = await writeQuery(ctx, documents.contentType, req, 'delete');
  let { documentId } = req.params as Params;
  // A single type's one document, whatever its locales (Strapi's delete then removes nothing in a locale it lacks).
  if (documentId === undefined) documentId = await documents.singleDocumentId();
  if (documentId !== undefined) await documents.delete({ documentId, locale });
  return reply.status(204).send();
}

/** Cairn's addition: publish, unpublish and discard-draft over REST. */
export function registerActions(app: FastifyInstance, ctx: RestContext, base: string, documents: Documents, ct: ContentType) {
  const actions = {
    publish: (p: { documentId: string; locale?: string }) => documents.publish(p),
    unpublish: (p: { documentId: string; locale?: string }) => documents.unpublish(p),
    'discard-draft': (p: { documentId: string; locale?: string }) => documents.discardDraft(p),
  };
  for (const [name, action] of Object.entries(actions)) {
    app.post(`${base}/${name}`, async (req, reply) => {
      await authorize(ctx.access(), req, `${documents.contentType.uid}.publish`);
      const query = ctx.queryString.strictOf(req, ['locale']);
      const { documentId } = req.params as Params;
      const locale = typeof query.locale === 'string' ? query.locale : undefined;
      if (!(await action({ documentId: documentId!, locale }))) throw new NotFoundError();
      const status = name === 'publish' ? 'published' : 'draft';
      const entry = await documents.findOne({ documentId: documentId!, status, locale });
      return reply.type(JSON_TYPE).send(entryBody(answerShape(ctx, ct, req)(JSON.stringify(entry))));
    });
  }
}
