/**
 * QuerySpec: one validated, typed description of a read. Built at the edge (REST query string, GraphQL arguments),
 * checked against the model there, and trusted below (documents, SQL compiler). Every identifier in it names a
 * real, non-private attribute of the model; every value is already cast to the attribute's type.
 */

export type Status = 'published' | 'draft';

export const COMPARISON_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export const LOGICAL_OPERATORS = ['$and', '$or', '$not'] as const;

/**
 * Type of a filterable/sortable column. Attributes use their schema type; system fields map to:
 * id -> 'id', documentId -> 'string', createdAt/updatedAt/publishedAt -> 'datetime', locale -> 'string'.
 */
export type ColumnType =
  | 'id'
  | 'string'
  | 'text'
  | 'richtext'
  | 'blocks'
  | 'enumeration'
  | 'email'
  | 'uid'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'json';

/** A column of the current table: an attribute or a system field. */
export interface FieldRef {
  /** API name: `name`, `documentId`, `createdAt`... */
  name: string;
  /** SQL column: `name`, `document_id`, `created_at`... */
  column: string;
  type: ColumnType;
}

/**
 * Filter values after casting: strings for text-like types, numbers for integer/float/decimal/id, strings for
 * biginteger (exact), booleans, ISO strings for date ('YYYY-MM-DD'), time ('HH:MM:SS.mmm') and datetime
 * ('YYYY-MM-DDTHH:MM:SS.mmmZ'). `$in`/`$notIn` hold an array, `$between` a pair, `$null`/`$notNull` a boolean.
 */
export type FilterValue = string | number | boolean | null | FilterValue[];

export type Filter =
  | { kind: 'and'; items: Filter[] }
  | { kind: 'or'; items: Filter[] }
  | { kind: 'not'; item: Filter }
  | { kind: 'compare'; field: FieldRef; operator: ComparisonOperator; value: FilterValue }
  /**
   * Matches when some related entry (in the same status/locale rules as populate) matches `filter`.
   * `filter: { kind: 'and', items: [] }` (always true) means "has a related entry"; the parser wraps it in `not`
   * for "has none", which it adds (in an `or`) wherever the reference's LEFT JOIN would let an entry without
   * related entries match (`filters[author][id][$null]=true`, `filters[author][$null]=true`): see null-row.ts.
   */
  | { kind: 'relation'; attribute: string; filter: Filter }
  /** Matches when the component (or one item of a repeatable one) matches `filter` (same "has none" rule). */
  | { kind: 'component'; attribute: string; filter: Filter }
  /**
   * Strapi 5's `publicationFilter`: matches rows by how their document's draft and published versions relate
   * (Draft & Publish types only; elsewhere it matches every row). Pair modes look at the row's locale, the
   * `-document` ones at every locale of its document.
   */
  | { kind: 'publication'; mode: PublicationFilterMode };

export const PUBLICATION_FILTER_MODES = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
] as const;
export type PublicationFilterMode = (typeof PUBLICATION_FILTER_MODES)[number];

export interface SortItem {
  /** Relation, media and component attribute names leading to the field (to-one or to-many); empty for a field of the current table. */
  relations: string[];
  field: FieldRef;
  direction: 'asc' | 'desc';
}

export type Pagination =
  | { mode: 'page'; page: number; pageSize: number; withCount: boolean }
  | { mode: 'offset'; start: number; limit: number; withCount: boolean };

/**
 * What to populate under one attribute. For relations and media: `fields`, `filters`, `sort`, `populate`
 * apply to the targets. For components: `fields`, `filters` (the items kept; a single component that does not
 * match reads null), `sort` and `populate`. For dynamic zones: `on` gives a node per component uid, and only the
 * components it names are read (as Strapi); without `on`, every component uses `populate` of this node.
 */
export interface PopulateNode {
  /**
   * The attribute read, when the key of this node is another name: one attribute read twice with different
   * parameters (`sorted`, dishes sorted otherwise, next to `dishes`). Undefined: the key is the attribute.
   */
  attribute?: string;
  /** Version of the targets (relations to Draft & Publish types); undefined: the request's. */
  status?: Status;
  /** With `status: 'draft'`: `publishedAt` of the targets comes from their published version (see ReadSpec). */
  preview?: boolean;
  /** To-many relations: only the items `start + 1` to `start + limit` of each parent's list (a page of it). */
  window?: { start: number; limit: number };
  /** The JSON of each target (or component, or item): see OutputShape. */
  shape?: OutputShape;
  /** Scalar attributes to return; undefined = all non-private scalars. `id`/`documentId` always come. */
  fields?: string[];
  filters?: Filter;
  sort?: SortItem[];
  /** `populate[rel][count]=true`: answer `{ count: n }` instead of the entries (to-many relations only). */
  count?: boolean;
  populate: PopulateTree;
  on?: ReadonlyMap<string, PopulateNode>;
}

/**
 * An output projection: the exact JSON of each entry, built by the read's statement itself, for a caller whose
 * answer has another form than REST's: keys in order, each a column of the row, a constant, an object built from
 * the same row, or a populated value (whose node has its own shape). Without a shape, entries have REST's form.
 */
export type OutputShape = ReadonlyArray<readonly [string, OutputValue]>;
export type OutputValue =
  /** A scalar attribute or system field (`documentId`, `createdAt`...); `as` overrides its JSON form. */
  | { kind: 'field'; name: string; as?: 'number' | 'string' }
  | { kind: 'literal'; value: string }
  | { kind: 'object'; shape: OutputShape }
  /** The value of the populate node under `key`. */
  | { kind: 'populate'; key: string };

/** Attribute name -> what to populate there. `localizations` is a pseudo-attribute of localized types. */
export type PopulateTree = ReadonlyMap<string, PopulateNode>;

export interface ReadSpec {
  /** Scalar attributes to return (undefined = all non-private scalars). */
  fields?: string[];
  filters?: Filter;
  sort: SortItem[];
  pagination: Pagination;
  populate: PopulateTree;
  status: Status;
  /**
   * With `status: 'draft'`: `publishedAt` comes from each document's published version, i.e. a document's latest
   * content with the date it was published, as Strapi v4 read it (`publicationState=preview`).
   */
  preview?: boolean;
  /** The JSON of each entry: see OutputShape. */
  shape?: OutputShape;
  /** Locale code, '*' for every locale, undefined for non-localized types. */
  locale?: string;
  /**
   * Code's read (the Document Service, as Strapi's): private attributes and passwords are answered (every level),
   * and may be named in fields, filters, sorts and populates. Never set for a request.
   */
  withPrivate?: boolean;
  /**
   * Populated relations read every version their links name, as Strapi's populate without a status does: a row
   * without Draft & Publish links both versions of a target that has it, and both are answered (draft first, in
   * link order). Strapi reads so for the Document Service's writes given no status on such a type, and for GraphQL
   * mutations' answers (its relation resolver takes a status from a query's root field only). Never for REST.
   */
  everyLinkedVersion?: boolean;
}
