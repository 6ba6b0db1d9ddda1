import type { ContentType } from '../model/types.js';
import type { ReadSpec } from '../query/types.js';
import type { Caller } from '../auth/access-control.js';
import { readSpec, type RestContext } from '../rest/index.js';

/**
 * The caller a controller's `sanitizeQuery(ctx)` attaches to the query it returns (an enumerable symbol: it
 * survives `{ ...query, data }`, and neither JSON nor `Object.keys` shows it). A core service reading such a query
 * reads it as the Content API does for that caller (populate omits what it may not find, unknown keys are 400s);
 * a query written by app code (`strapi.service(uid).find({ filters })`) is read with the Document Service's rules.
 */
export const CALLER = Symbol('cairn.server-code.caller');

/**
 * The keys of a query (or of an entry) that are a route's extra parameters (server-code/route-params.ts), attached
 * by the core controller's `sanitizeQuery` and `sanitizeInput` as CALLER is: the app's code sees them, the reads
 * and writes of a core service leave them out, as Strapi's Document Service does.
 */
export const EXTRA_KEYS = Symbol('cairn.server-code.extra-keys');

type Params = Record<string | symbol, unknown>;
type Entry = Record<string, unknown>;

/** `{ ...params }` without the keys a read does not take (`keys`, and a route's extra parameters). */
function without(params: Params, ...keys: string[]): Record<string, unknown> {
  const extra = (params[EXTRA_KEYS] as readonly string[] | undefined) ?? [];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!keys.includes(key) && !extra.includes(key)) out[key] = value;
  return out;
}

const parse = (text: string | null): Entry | null => (text === null ? null : (JSON.parse(text) as Entry));

/**
 * Strapi's core service of one content-type (`strapi.service('api::article.article')` when the app has none, and
 * the prototype of one made with `createCoreService`): `find`, `findOne`, `create`, `update`, `delete` for a
 * collection type, `find`, `createOrUpdate`, `delete` for a single type, over the Document Service. Reads run the
 * compiled one-statement reader, as the Content API's routes do.
 */
export function createCoreService(rest: RestContext, contentType: ContentType): Record<string, unknown> {
  const documents = rest.documents(contentType.uid);
  const specOf = (params: Params): ReadSpec => {
    const caller = params[CALLER] as Caller | undefined;
    return caller ? readSpec(rest, contentType, without(params), caller) : documents.spec(without(params));
  };
  const writeOf = (params: Params) => {
    const given = params.data as Params | undefined;
    const data = given && typeof given === 'object' && given[EXTRA_KEYS] ? without(given) : (given as Record<string, unknown> | undefined);
    const status = params.status as 'draft' | 'published' | undefined;
    const locale = typeof params.locale === 'string' ? params.locale : undefined;
    const answer = specOf(Object.assign(without(params, 'data'), params[CALLER] ? { [CALLER]: params[CALLER] } : {}));
    return { write: { data: data ?? {}, status, locale }, answer };
  };
  const common = {
    contentType,
    /** Strapi's hook for the params of every call (its default adds nothing Cairn's reader doesn't). */
    getFetchParams(params: Params = {}) {
      return params;
    },
  };
  if (contentType.kind === 'singleType') {
    return Object.assign(Object.create(common), {
      async find(params: Params = {}) {
        return parse(await documents.findOneJson(specOf(params), undefined));
      },
      // Strapi's single-type service finds its document whatever the locale (`getDocumentId`): a write in a locale
      // it lacks adds that locale to it, a delete there removes nothing.
      async createOrUpdate(params: Params = {}) {
        const { write, answer } = writeOf(params);
        const documentId = await documents.singleDocumentId();
        if (documentId === undefined) return parse(await documents.createAndRead(write, answer));
        return parse(await documents.updateAndRead({ ...write, documentId }, answer));
      },
      async delete(params: Params = {}) {
        const locale = typeof params.locale === 'string' ? params.locale : undefined;
        const documentId = await documents.singleDocumentId();
        if (documentId === undefined) return { deletedEntries: 0 };
        const { deleted } = await documents.delete({ documentId, locale });
        return { deletedEntries: deleted };
      },
    });
  }
  return Object.assign(Object.create(common), {
    async find(params: Params = {}) {
      const page = await documents.findPage(specOf(params));
      return { results: page.rows.map((row) => JSON.parse(row) as Entry), pagination: page.pagination };
    },
    async findOne(documentId: string, params: Params = {}) {
      return parse(await documents.findOneJson(specOf(params), documentId));
    },
    async create(params: Params = { data: {} }) {
      const { write, answer } = writeOf(params);
      return parse(await documents.createAndRead(write, answer));
    },
    async update(documentId: string, params: Params = { data: {} }) {
      const { write, answer } = writeOf(params);
      return parse(await documents.updateAndRead({ ...write, documentId }, answer));
    },
    async delete(documentId: string, params: Params = {}) {
      const locale = typeof params.locale === 'string' ? params.locale : undefined;
      const { deleted } = await documents.delete({ documentId, locale });
      return { deletedEntries: deleted };
    },
  });
}
