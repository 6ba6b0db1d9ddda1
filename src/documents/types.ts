import type { Status } from '../query/types.js';

/** An entry as the API returns it: flat, with id, documentId, attributes, timestamps (and locale). */
export type Entry = Record<string, unknown> & { id: number; documentId: string };

/**
 * Read parameters in Strapi's shape (what `qs` gives for a REST query string, or what code passes):
 * `{ filters, fields, sort, populate, pagination, status, locale }`. Validated with the same rules as REST.
 */
export interface FindParams {
  filters?: unknown;
  fields?: unknown;
  sort?: unknown;
  populate?: unknown;
  pagination?: unknown;
  status?: Status;
  locale?: string;
}

export interface FindResult {
  results: Entry[];
  pagination:
    | { page: number; pageSize: number; pageCount?: number; total?: number }
    | { start: number; limit: number; total?: number };
}

export interface WriteParams {
  data: Record<string, unknown>;
  /** 'draft' writes the draft only; omitted or 'published' writes the draft and publishes it. */
  status?: Status;
  locale?: string;
  /**
   * Check a draft's body as a published version's (required values, `minLength`, list `min`/`max`), as Strapi v4
   * did: the seed's GraphQL v4 shape. Without it a draft is checked as Strapi 5 checks one (those wait for publish).
   */
  wholeDraft?: boolean;
  /** Shape of the returned entry, as for reads. */
  fields?: unknown;
  populate?: unknown;
}

/** Strapi v5's document service, per content-type: `cairn.documents('api::restaurant.restaurant')`. */
export interface DocumentService {
  findMany(params?: FindParams): Promise<FindResult>;
  findOne(params: FindParams & { documentId: string }): Promise<Entry | null>;
  /** First entry of a single type (or of a collection type matching the params). */
  findFirst(params?: FindParams): Promise<Entry | null>;
  count(params?: FindParams): Promise<number>;
  create(params: WriteParams): Promise<Entry>;
  /** Null when the document (in that locale) does not exist, unless the locale is new for an existing document. */
  update(params: WriteParams & { documentId: string }): Promise<Entry | null>;
  /** Removes the document's versions in `locale` (default locale), or in every locale with `locale: '*'`. */
  delete(params: { documentId: string; locale?: string }): Promise<{ documentId: string; deleted: number }>;
}
