import type { Status } from '../query/types.js';
import { ValidationError } from '../errors/index.js';
import type { Documents } from './service.js';
import type { DocumentHooks, DocumentMiddleware } from './hooks.js';
import type { Entry, WriteParams } from './types.js';
import { strapiPagination } from './strapi-pagination.js';
import { strictParams } from './strict-params.js';

type Params = Record<string, unknown>;

/** Strapi 5's Document Service of one content type, as app code calls it (`strapi.documents(uid)`). */
export interface StrapiDocumentService {
  findMany(params?: Params): Promise<Entry[]>;
  findFirst(params?: Params): Promise<Entry | null>;
  findOne(params: Params & { documentId: string }): Promise<Entry | null>;
  count(params?: Params): Promise<number>;
  create(params: Params & { data: Params }): Promise<Entry>;
  update(params: Params & { documentId: string; data?: Params }): Promise<Entry | null>;
  delete(params: Params & { documentId: string }): Promise<{ documentId: string; entries: Entry[] }>;
  /** A new document made of a copy of this one (its drafts, in the locales asked), `data` written over it. */
  clone(params: Params & { documentId: string; data?: Params }): Promise<{ documentId: string | undefined; entries: Entry[] }>;
  /** Draft & Publish types only (undefined otherwise, as in Strapi). */
  publish?(params: Params & { documentId: string }): Promise<{ documentId: string; entries: Entry[] }>;
  unpublish?(params: Params & { documentId: string }): Promise<{ documentId: string; entries: Entry[] }>;
  discardDraft?(params: Params & { documentId: string }): Promise<{ documentId: string; entries: Entry[] }>;
}

/** `strapi.documents`: `strapi.documents(uid)` and `strapi.documents.use(middleware)`. */
export type StrapiDocuments = ((uid: string) => StrapiDocumentService) & { use(middleware: DocumentMiddleware): () => void };

/** The actions whose `documentId` names the document (create's is taken out too: Strapi keeps the one in `data`). */
const ONE_DOCUMENT = new Set(['findOne', 'update', 'delete', 'clone', 'publish', 'unpublish', 'discardDraft', 'create']);

/** No limit unless the params give one: Strapi's Document Service reads every entry by default. */
const UNLIMITED = 2 ** 31 - 1;

/**
 * Strapi 5's `strapi.documents` for app code, over Cairn's Document Service: each action goes through the app's
 * document middlewares, with Strapi's defaults (reads and writes are of the draft unless `status: 'published'`;
 * `findMany` reads every entry unless paginated) and answers (`findMany` an array, `delete`/`publish`... `{ documentId,
 * entries }`). Inside a lifecycle hook the calls join the hook's transaction.
 */
export function strapiDocuments(documents: (uid: string) => Documents, hooks: DocumentHooks, settings: DocumentServiceSettings = {}): StrapiDocuments {
  const services = new Map<string, StrapiDocumentService>();
  const factory = (uid: string) => {
    let service = services.get(uid);
    if (!service) {
      service = documentService(() => documents(uid).joined(), settings);
      services.set(uid, service);
    }
    return service;
  };
  return Object.assign(factory, { use: (middleware: DocumentMiddleware) => hooks.use(middleware) });
}

/** What the app's config says of the Document Service, read at each call (`strapi.config.set` may change it). */
export interface DocumentServiceSettings {
  /** `api.documents.strictParams`, as the app's config holds it (any value: a call checks it). */
  strictParams?: () => unknown;
}

function documentService(current: () => Documents, settings: DocumentServiceSettings): StrapiDocumentService {
  const first = current();
  const ct = first.contentType;
  const draftable = ct.draftAndPublish;
  /** Strapi's `defaultToDraft`: anything but `published` reads the draft. */
  const readStatus = (params: Params): Params => ({ ...params, status: params.status === 'published' ? 'published' : 'draft' });
  const spec = (docs: Documents, given: Params) => {
    const params = strapiPagination(given);
    const paged = ['pagination', 'page', 'pageSize', 'start', 'limit'].some((k) => params[k] !== undefined && params[k] !== null);
    // Strapi's Document Service does not cap a read: its own limit, or every entry.
    // App code reads private attributes and passwords, as from Strapi's Document Service (its sanitizers are REST's).
    return docs.spec(params as never, { defaultLimit: paged ? docs.restLimits.defaultLimit : UNLIMITED, maxLimit: UNLIMITED, withCount: false }, { withPrivate: true });
  };
  /**
   * What every action of Strapi's Document Service checks first (its repository's `validateParams`): `lookup` is
   * internal, and `filters`, `sort`, `fields` and `populate` must name what exists, whichever action gets them (reads
   * parse them anyway; a write reads only fields and populate for its answer, the others are checked all the same);
   * then, with `api.documents.strictParams` (strict-params.ts), its checks: the call goes on with the params they
   * normalized.
   */
  const READS = new Set(['findMany', 'findFirst', 'findOne', 'count']);
  const checked = (docs: Documents, action: string, params: Params): Params => {
    if (params.lookup !== undefined) throw new ValidationError("Invalid params: 'lookup'");
    if (!READS.has(action)) {
      const selection = Object.fromEntries(['filters', 'sort', 'fields', 'populate'].flatMap((key) => (params[key] === undefined ? [] : [[key, params[key]]])));
      if (Object.keys(selection).length) spec(docs, selection);
    }
    const setting = settings.strictParams?.();
    if (setting === undefined || setting === false) return params;
    // Strapi checks the params without the documentId the action names (its repository takes it out first).
    const { documentId, ...rest } = params;
    const strict = strictParams(setting, ONE_DOCUMENT.has(action) ? rest : params);
    return ONE_DOCUMENT.has(action) && documentId !== undefined ? { ...strict, documentId } : strict;
  };
  const run = <T>(action: string, params: Params | undefined, work: (docs: Documents, params: Params) => Promise<T>) => {
    const docs = current();
    // async: a refused param rejects the call's promise, as every other failure does.
    return docs.run(action, params ?? {}, async (p) => work(docs, locales(docs, action, checked(docs, action, p))));
  };
  /**
   * The `locale` param of a localized type as Strapi 5.54's service reads it (internationalization.js): one
   * document's read takes one locale ('*' for any: `localeToLookup`), a write one locale that is not '*'
   * (`localeToData`), both with its message; a list reads those locales (`multiLocaleToLookup`: `findMany`,
   * `count`), each one the app must have, as every locale Cairn reads.
   */
  const LISTS = new Set(['findMany', 'count']);
  const WRITES = new Set(['create', 'update']);
  const locales = (docs: Documents, action: string, params: Params): Params => {
    const locale = params.locale;
    if (!ct.localized || locale === undefined || locale === null || locale === '') return params;
    if (Array.isArray(locale) && LISTS.has(action)) {
      for (const code of locale) docs.writeLocale({ locale: code as string });
      const inList = { locale: { $in: locale } };
      return { ...params, locale: '*', filters: params.filters === undefined ? inList : { $and: [params.filters, inList] } };
    }
    // A list read takes any value Strapi would pass on (its `multiLocaleToLookup`): the read's own check says why not.
    const oneLocale = (READS.has(action) && !LISTS.has(action)) || WRITES.has(action);
    if (oneLocale && (typeof locale !== 'string' || (WRITES.has(action) && locale === '*'))) {
      throw new ValidationError(`Invalid locale param ${String(locale)} provided. Document locales must be strings.`);
    }
    return params;
  };
  const documentIdOf = (params: Params): string => {
    if (typeof params.documentId !== 'string' || params.documentId === '') throw new ValidationError('documentId is required');
    return params.documentId;
  };
  /** A write's status: the draft only, unless `published` (Strapi's `setStatusToDraft`). */
  const writeParams = (params: Params): WriteParams => ({
    ...(params as unknown as WriteParams),
    data: (params.data ?? {}) as Params,
    // Without Draft & Publish the status writes nothing; it still chooses the version of the answer's populated
    // targets (none given: every version their links name, see writtenEntry).
    status: draftable ? (params.status === 'published' ? 'published' : 'draft') : params.status === 'draft' || params.status === 'published' ? params.status : undefined,
    locale: typeof params.locale === 'string' ? params.locale : undefined,
  });
  /** Strapi's `pickSelectionParams`: what shapes the entries a write, a clone or a publish answers. */
  const selectionOf = (params: Params): Params => Object.fromEntries(['fields', 'populate'].flatMap((key) => (params[key] === undefined ? [] : [[key, params[key]]])));
  const versions = (docs: Documents, documentId: string, status: Status, locale: unknown, selection: Params = {}) =>
    docs.versionEntries(documentId, status, locale as string | undefined, selection);
  /** The locales a publish, unpublish or discard applies to, one by one (undefined: the default; none for a type without locales). */
  const localesOf = async (docs: Documents, documentId: string, locale: unknown): Promise<Array<string | undefined>> => {
    if (!ct.localized) return [undefined];
    if (locale === '*') return docs.documentLocales(documentId);
    if (Array.isArray(locale)) {
      const given = [...new Set(locale.filter((l): l is string => typeof l === 'string' && l !== ''))];
      return given.length ? given : [undefined];
    }
    return [typeof locale === 'string' && locale !== '' ? locale : undefined];
  };

  const service: StrapiDocumentService = {
    findMany: (params) =>
      run('findMany', params, async (docs, p) => (await docs.readMany(readStatus(p), (q) => spec(docs, q))).results),
    findFirst: (params) => run('findFirst', params, (docs, p) => docs.readFirst(readStatus(p), (q) => spec(docs, q), undefined)),
    findOne: (params) =>
      run('findOne', params, (docs, p) => {
        const { documentId, ...rest } = p;
        return docs.readFirst(readStatus(rest), (q) => spec(docs, q), documentIdOf({ documentId }));
      }),
    count: (params) => run('count', params, (docs, p) => docs.readCount(draftable ? readStatus(p) : p, (q) => spec(docs, q))),
    create: (params) =>
      run('create', params, async (docs, p) => {
        // Strapi keeps a documentId given in data; null or '' is none (a new one is made).
        const { documentId, ...data } = (p.data ?? {}) as Params;
        if (documentId !== undefined && documentId !== null && typeof documentId !== 'string') throw new ValidationError(`documentId must be a string, not ${JSON.stringify(documentId)}`);
        return docs.create(writeParams({ ...p, data }), documentId || undefined);
      }),
    update: (params) =>
      run('update', params, (docs, p) => {
        // A document keeps its documentId: one in data is left out, as Strapi leaves it.
        const { documentId: _ignored, ...data } = (p.data ?? {}) as Params;
        return docs.update({ ...writeParams({ ...p, data }), documentId: documentIdOf(p) });
      }),
    delete: (params) =>
      run('delete', params, async (docs, p) => {
        const { documentId, entries } = await docs.deleteWithEntries({ documentId: documentIdOf(p), locale: (p.locale ?? undefined) as string | undefined });
        return { documentId, entries };
      }),
    clone: (params) =>
      run('clone', params, (docs, p) =>
        docs.transaction(async (trx) => {
          const documentId = documentIdOf(p);
          // As Strapi's clone: `publishedAt` in data is left out, a documentId there too (the clone gets a new one).
          const { documentId: _given, publishedAt: _publishedAt, ...data } = (p.data ?? {}) as Params;
          const cloned = await trx.cloneDocument(documentId, await localesOf(trx, documentId, p.locale), data);
          if (cloned.documentId === undefined) return { documentId: undefined, entries: [] };
          // Each clone's draft, with the call's fields and populate; a type without Draft & Publish's one row, its
          // relations read as drafts too (Strapi 5.54's clone reads with status draft, probed).
          const entries: Entry[] = [];
          for (const locale of cloned.locales) entries.push(...(await versions(trx, cloned.documentId, 'draft', locale, selectionOf(p))));
          return { documentId: cloned.documentId, entries };
        }),
      ),
  };
  if (draftable) {
    const change = (action: 'publish' | 'unpublish' | 'discardDraft', shows: Status, before: boolean) => (params: Params & { documentId: string }) =>
      run(action, params, (docs, p) =>
        docs.transaction(async (trx) => {
          const documentId = documentIdOf(p);
          // Strapi's `multiLocaleToLookup`: one locale, a list of them, or '*' (every locale the document has).
          const entries: Entry[] = [];
          for (const locale of await localesOf(trx, documentId, p.locale)) {
            // The entries answered have the call's fields and populate, as Strapi's (the unpublished ones as they were).
            const earlier = before ? await versions(trx, documentId, shows, locale, selectionOf(p)) : [];
            const changed = await trx[action]({ documentId, locale });
            entries.push(...(!changed ? [] : before ? earlier : await versions(trx, documentId, shows, locale, selectionOf(p))));
          }
          return { documentId, entries };
        }),
      );
    service.publish = change('publish', 'published', false);
    service.unpublish = change('unpublish', 'published', true);
    service.discardDraft = change('discardDraft', 'draft', false);
  }
  return service;
}
