import { GraphQLList, GraphQLString, Kind, getNamedType, type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLObjectType, type GraphQLOutputType, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { Documents, PaginationMeta } from '../documents/index.js';
import type { ContentType } from '../model/types.js';
import { parseDocumentParams, withSource, type Filter, type OutputShape, type ReadSpec } from '../query/index.js';
import type { GraphqlExtensionService, ShadowCrudAction } from './extension.js';
import type { GraphqlHost } from './host.js';
import type { GraphqlContext, GraphqlOptions } from './schema-options.js';
import type { TypeRegistry } from './schema-types.js';
import { needs } from './field-auth.js';
import { queryNames, typeName } from './names.js';
import { capPagination } from './limits.js';
import { mergedSelection } from './selection.js';
import { cachedSpec } from './spec-cache.js';
import { readSelection, type ReadStyle } from './read-selection.js';
import { findAction } from '../auth/access-control.js';
import { compiledField, projectJson, wrapperJson } from './compiled-path.js';

/** An entry as the resolvers see it: its JSON, parsed. */
export type Entry = Record<string, unknown>;
export type Args = Record<string, unknown>;
type RootFieldMap = GraphQLFieldConfigMap<unknown, GraphqlContext>;
export type RootFieldConfig = GraphQLFieldConfig<unknown, GraphqlContext, Args>;

/**
 * The shadow CRUD schema's root fields, in one walk over the models whatever the shape: per content-type the shape
 * `exposes` (and the app did not disable), its lists and its one-document read (`find`, `findOne`), then, for a
 * type of the app's own, `create<Type>`, `update<Type>` and `delete<Type>`. Each field declares the action it needs
 * (`extensions.cairn`; finalizeSchema checks it) and is left out when the app disabled that action. Reads compile
 * their whole selection (relations, components, dynamic zones) into one statement (CrudFields).
 */
export function addShadowCrud(host: GraphqlHost, options: GraphqlOptions, ext: GraphqlExtensionService, shape: CrudShape, query: RootFieldMap, mutation: RootFieldMap): void {
  if (!options.shadowCRUD) return;
  for (const ct of host.model.contentTypes.values()) {
    const crud = ext.shadowCRUD(ct.uid);
    if (!shape.exposes(ct) || !crud.isEnabled()) continue;
    const fields = new CrudFields(host, options, shape, ct);
    shape.registry.relationLoaders.set(ct.uid, (entry, info, context) => fields.related(entry, info, (context as GraphqlContext).request));
    const add = (to: RootFieldMap, name: string, action: ShadowCrudAction, make: () => RootFieldConfig | undefined) => {
      if (!crud.isActionEnabled(action)) return;
      const field = make();
      if (field) to[name] = { ...field, extensions: { ...needs({ action: `${ct.uid}.${action}` }), ...field.extensions } };
    };
    const names = queryNames(ct);
    for (const list of shape.lists(ct, names)) add(query, list.name, 'find', () => fields.list(list.form));
    const one = shape.one(ct, names);
    add(query, one.name, one.action, () => fields.one(one));
    // Plugins' types (media files, users) are read here and written through their own routes.
    if (ct.plugin) continue;
    const name = typeName(ct);
    add(mutation, `create${name}`, 'create', () => shape.create(fields));
    add(mutation, `update${name}`, 'update', () => shape.update(fields));
    add(mutation, `delete${name}`, 'delete', () => shape.delete(fields));
  }
}

/**
 * A shape of the shadow CRUD schema (Strapi 5's flat one, its v4CompatibilityMode hybrid, the seed's Strapi v4
 * one): what addShadowCrud asks of it. It decides which content-types have root fields, the names of their queries,
 * the arguments, where entries sit in each answer (its wrappers: forms below), which version of the documents the
 * arguments name, and what writes do and answer with. Its `registry` builds the types.
 */
export interface CrudShape {
  readonly registry: TypeRegistry;
  /** How a selection is read (a relation's wrapper, filter arguments, versions of nested lists). */
  readonly style: ReadStyle;
  /** Draft rows answer with `publishedAt` of their published version (v4's PREVIEW: a document's latest content). */
  readonly preview: boolean;
  /**
   * A mutation's answer populates every version the links name (ReadSpec.everyLinkedVersion), as Strapi 5 answers
   * it: its relation resolver takes a status from a query's root field only, never a mutation's.
   */
  readonly mutationAnswersEveryLinkedVersion: boolean;
  exposes(ct: ContentType): boolean;
  /** The root fields listing a type's entries (action `find`); none: the type has no list. */
  lists(ct: ContentType, names: { single: string; plural: string }): Array<{ name: string; form: ListForm }>;
  /** A list's arguments besides filters, pagination and sort (status, publicationState, locale...). */
  listArgs(ct: ContentType): GraphQLFieldConfigArgumentMap;
  /** The version a list's arguments ask for. */
  listVersion(ct: ContentType, args: Args): Version;
  /** The root field reading one document. */
  one(ct: ContentType, names: { single: string; plural: string }): OneField;
  /** The mutations (undefined: none for this type, e.g. Strapi 5 creates no single type's document with `create`). */
  create(fields: CrudFields): RootFieldConfig | undefined;
  update(fields: CrudFields): RootFieldConfig | undefined;
  delete(fields: CrudFields): RootFieldConfig | undefined;
}

/** Which version of the documents a read asks for (REST's `status` and `locale`), and a condition on them. */
export interface Version {
  status?: unknown;
  locale?: unknown;
  /** Strapi 5's `publicationFilter`, besides the `filters` argument. */
  filter?: Filter;
}

/** A root field reading one document. */
export interface OneField {
  name: string;
  action: 'find' | 'findOne';
  args: GraphQLFieldConfigArgumentMap;
  form: EntryForm;
  /** The document read (undefined: the single type's one; null: none, the answer is empty) and its version. */
  target(args: Args): Version & { documentId: string | undefined | null };
}

/** Where a root field's answer holds the entries it reads: the entries' selection and the JSON of each. */
export interface AnswerForm {
  readonly type: GraphQLOutputType;
  /** The selection on the entries' object type, within the field's. */
  selection(info: GraphQLResolveInfo): SelectionSetNode;
  /** One entry's JSON from the shape of its fields; undefined when only field resolvers can answer. */
  entry(fields: OutputShape, info: GraphQLResolveInfo): OutputShape | undefined;
}

/** The answer of a list (the entries bare, or in a wrapper with their pagination). */
export interface ListForm extends AnswerForm {
  /** Whether the read counts the entries (the answer may show the total). */
  counts(info: GraphQLResolveInfo): boolean;
  /** The answer's JSON text around the entries' (the compiled path). */
  json(entries: string, page: PageInfo, info: GraphQLResolveInfo): string;
  /** The answer the field resolvers go on with. */
  value(entries: Entry[], page: PageInfo): unknown;
}

/** The answer of one document's read or a write (the entry bare, or in a wrapper). */
export interface EntryForm extends AnswerForm {
  json(entry: string | null, info: GraphQLResolveInfo): string;
  value(entry: Entry | null): unknown;
}

/** Pagination as the answers show it: the page form even for `start`/`limit` (`start: 10, limit: 3` → page 4, pageSize 3). */
export type PageInfo = Record<'page' | 'pageSize' | 'pageCount' | 'total', number>;

/**
 * What every shape's root fields of one content-type do alike: a list or a one-document read, each both compiled
 * (one statement builds the answer's JSON) and by resolvers, and the answer of a write, read in its transaction.
 */
export class CrudFields {
  readonly documents: Documents;
  /** The entries' object type. */
  readonly type: GraphQLObjectType;

  constructor(readonly host: GraphqlHost, readonly options: GraphqlOptions, readonly shape: CrudShape, readonly ct: ContentType) {
    this.documents = host.documents(ct.uid);
    this.type = shape.registry.object(ct);
  }

  /** A list, in `form`: arguments filters, pagination, sort and the shape's. */
  list(form: ListForm): RootFieldConfig {
    const { ct, shape, options } = this;
    const spec = (args: Args, info: GraphQLResolveInfo, request: FastifyRequest, shaped: boolean) =>
      this.spec(form, shape.listVersion(ct, args), request, info, 'list', shaped, () => ({
        filters: args.filters ? shape.style.filters(this.host.model, ct, args.filters) : undefined,
        sort: args.sort,
        pagination: { ...capPagination(args.pagination as Record<string, number>, options.amountLimit, options.pageSizes()), withCount: form.counts(info) },
      }));
    return {
      type: form.type,
      args: {
        filters: { type: shape.registry.filters(ct) },
        pagination: { type: shape.registry.paginationArg, defaultValue: {} },
        sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
        ...shape.listArgs(ct),
      },
      extensions: compiledField(async (args, info, request) => {
        // App code around reads (document middlewares, read lifecycles) gets entries: the field resolvers answer.
        if (this.documents.intercepted) return undefined;
        const read = await spec(args, info, request, true);
        if (!read) return undefined;
        const page = await this.documents.findPage(read);
        return form.json(`[${page.rows.join(',')}]`, pageInfo(page.pagination), info);
      }),
      resolve: async (_root, args, context, info) => {
        const page = await this.documents.findPage((await spec(args, info, context.request, false))!);
        return form.value(page.rows.map((row) => JSON.parse(row) as Entry), pageInfo(page.pagination));
      },
    };
  }

  /** One document's read. */
  one(field: OneField): RootFieldConfig {
    const { form } = field;
    return {
      type: form.type,
      args: field.args,
      extensions: compiledField(async (args, info, request) => {
        if (this.documents.intercepted) return undefined;
        const target = field.target(args);
        const read = await this.spec(form, target, request, info, 'one', true);
        if (!read) return undefined;
        return form.json(target.documentId === null ? null : await this.documents.findOneJson(read, target.documentId), info);
      }),
      resolve: async (_root, args, context, info) => {
        const target = field.target(args);
        if (target.documentId === null) return form.value(null);
        return form.value(parseEntry(await this.documents.findOneJson((await this.spec(form, target, context.request, info, 'one', false))!, target.documentId)));
      },
    };
  }

  /**
   * A write's answer, in `form`: `write` runs in a transaction and names the document it wrote (null: none, the
   * answer is empty), which is read in `version` in the same transaction: if it can't be, nothing was written.
   */
  async written(
    form: EntryForm,
    version: Version,
    context: GraphqlContext,
    info: GraphQLResolveInfo,
    write: (documents: Documents, params?: Record<string, unknown>) => Promise<string | null>,
    action?: { name: 'create' | 'update'; params: Record<string, unknown> },
  ): Promise<unknown> {
    // A copy: the answer's read is the write's own, not a read for the document middlewares to see.
    const spec = { ...(await this.spec(form, version, context.request, info, 'one', false))!, ...(this.shape.mutationAnswersEveryLinkedVersion ? { everyLinkedVersion: true } : {}) };
    if (action && this.documents.hooks?.hasMiddlewares) {
      // The mutation goes through the app's document middlewares; the entry they answer with is the answer.
      const entry = await this.documents.run(action.name, action.params, (params) =>
        this.documents.transaction(async (trx) => {
          const documentId = await write(trx, params);
          return documentId === null ? null : parseEntry(await trx.findOneJson(spec, documentId));
        }),
      );
      return form.value((entry ?? null) as Entry | null);
    }
    const text = await this.documents.transaction(async (trx) => {
      const documentId = await write(trx);
      return documentId === null ? null : trx.findOneJson(spec, documentId);
    });
    return form.value(parseEntry(text));
  }

  /**
   * A relation field of an entry an app's resolver answered without it: the entry's document read again in the
   * version and locale the entry is of, with that field populated as the query selects it (RelationLoader).
   */
  async related(entry: Record<string, unknown>, info: GraphQLResolveInfo, request: FastifyRequest): Promise<unknown> {
    if (typeof entry.documentId !== 'string') return undefined;
    const { ct } = this;
    const version: Version = {
      status: ct.draftAndPublish && (entry.publishedAt === null || entry.publishedAt === undefined) ? 'draft' : 'published',
      locale: ct.localized && typeof entry.locale === 'string' ? entry.locale : undefined,
    };
    // The selection of this field alone, on the entry's type.
    const form: AnswerForm = { type: this.type, selection: (i) => ({ kind: Kind.SELECTION_SET, selections: i.fieldNodes }), entry: () => undefined };
    // Strapi's association resolver gives an app resolver's entry no status: every row its links name (a row
    // without Draft & Publish links both versions of a target that has them).
    const spec = { ...(await this.spec(form, version, request, info, 'related', false))!, everyLinkedVersion: true };
    const found = parseEntry(await this.documents.findOneJson(spec, entry.documentId));
    return found?.[info.path.key];
  }

  /**
   * The spec reading `form`'s entries in `version` (`params`: a list's other parameters), cached per field node,
   * variables and caller (spec-cache.ts): a repeated query walks its selection once. `shaped`: the compiled path,
   * where the statement builds each entry exactly as the answer has it; undefined when only field resolvers can.
   */
  async spec(form: AnswerForm, version: Version, request: FastifyRequest, info: GraphQLResolveInfo, kind: string, shaped: boolean, params: () => Args = () => ({})): Promise<ReadSpec | undefined> {
    const { host, options, ct, shape } = this;
    // The action itself was checked by finalizeSchema's wrapper; the caller still decides which populated types it reads.
    const caller = await host.access.caller(request);
    // The page sizes are config read at each request: a spec made under others is not this request's.
    const sizes = options.pageSizes();
    return cachedSpec(info, caller, `${kind}:${String(version.status)}:${String(version.locale)}:${shaped}:${sizes.default}:${sizes.max}`, () => {
      const readOpts = this.readOptions(caller);
      const publication = version.filter?.kind === 'publication' ? version.filter : undefined;
      const selectionOptions = { populate: { model: host.model, canFind: readOpts.canFind }, amountLimit: options.amountLimit, pageSizes: sizes, shaped, customized: options.customized, publication };
      const selection = readSelection(shape.style, selectionOptions, ct, this.type, form.selection(info), info);
      const entry = shaped ? form.entry(selection.shape, info) : undefined;
      if (shaped && (!selection.compilable || !entry)) return undefined;
      // The selection decides the fields and populate; params (which document middlewares see and may change) the rest.
      const build = (given: Args): ReadSpec => {
        const spec = parseDocumentParams(host.model, ct, { ...given, fields: selection.fields }, { ...readOpts, maxLimit: options.amountLimit });
        const filters = version.filter ? (spec.filters ? { kind: 'and' as const, items: [spec.filters, version.filter] } : version.filter) : spec.filters;
        return { ...spec, filters, populate: selection.populate, preview: shape.preview && spec.status === 'draft', shape: entry };
      };
      const given: Args = { ...params(), status: version.status, locale: version.locale };
      return shaped ? build(given) : withSource(build(given), { params: given, reparse: build });
    });
  }

  /** Read options of a GraphQL read for this caller (populate omits the types it may not find). */
  readOptions(caller: { can(action: string): boolean }) {
    const settings = this.host.readSettings;
    return { ...settings, maxLimit: Math.max(settings.maxLimit, 1), canFind: (uid: string) => caller.can(findAction(uid)) };
  }
}

/** A wrapper of a page of entries (`{ nodes, pageInfo }`, `{ data, meta { pagination } }`...) as JSON text, as selected. */
export function collectionJson(wrapper: GraphQLObjectType, entries: string, page: PageInfo, info: GraphQLResolveInfo): string {
  const member = (name: string) => getNamedType(wrapper.getFields()[name].type) as GraphQLObjectType;
  return wrapperJson(wrapper, info, {
    nodes: entries,
    data: entries,
    pageInfo: (nodes) => projectJson(page, member('pageInfo'), mergedSelection(nodes), info),
    meta: (nodes) => projectJson({ pagination: page }, member('meta'), mergedSelection(nodes), info),
  });
}

function pageInfo(pagination: PaginationMeta): PageInfo {
  const p = pagination as Partial<Record<'page' | 'pageSize' | 'start' | 'limit' | 'total', number>>;
  const pageSize = (p.pageSize ?? p.limit)!;
  const page = p.page ?? Math.floor((p.start ?? 0) / pageSize) + 1;
  return { page, pageSize, pageCount: p.total === undefined ? 0 : Math.ceil(p.total / pageSize), total: p.total ?? 0 };
}

function parseEntry(text: string | null): Entry | null {
  return text === null ? null : (JSON.parse(text) as Entry);
}
