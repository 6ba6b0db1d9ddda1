import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNamedType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type FieldNode,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import type { ContentType } from '../model/types.js';
import type { Filter, PublicationFilterMode } from '../query/index.js';
import { NotFoundError } from '../errors/index.js';
import type { GraphqlExtensionService } from './extension.js';
import { needs } from './field-auth.js';
import { TypeRegistry } from './schema-types.js';
import { queryNames, typeName } from './names.js';
import { I18NLocaleCodeScalar } from './scalars.js';
import { capPagination } from './limits.js';
import { collectFields, fieldGroups, mergedSelection, restFilters } from './selection.js';
import { flatShape, type FlatShape } from './v5-style.js';
import { rootSpec } from './root-spec.js';
import { compiledField, projectJson, wrapperJson } from './compiled-path.js';
import { addUsersPermissions } from './users-permissions.js';

export interface GraphqlContext {
  request: FastifyRequest;
}

export interface GraphqlOptions {
  amountLimit: number;
  defaultPageSize: number;
  /** `shadowCRUD: false`: nothing is generated from the models (register, login and me stay, as in Strapi). */
  shadowCRUD: boolean;
  /** `Type.field` keys the app's extensions customize (their own resolvers, resolversConfig): never compiled. */
  customized: ReadonlySet<string>;
}

type Entry = Record<string, unknown>;

/**
 * Strapi 5's shadow CRUD schema, flat or (`compat`) with `v4CompatibilityMode`'s deprecated fields (v5-style.ts):
 * per collection type `<plural>`, `<plural>_connection`, `<singular>(documentId)` and create/update/delete
 * mutations; per single type `<singular>`, `update<Type>` (which creates the document the first time) and
 * `delete<Type>`; plus register, login and me. Each root field compiles its whole selection (relations,
 * components, dynamic zones) into one read of the document service. Root fields declare the action they need
 * (`extensions.cairn`); `finalizeSchema` checks it. The app's shadowCRUD toggles (`ext`) leave out disabled types,
 * operations and fields.
 */
export function buildSchema(cairn: Cairn, options: GraphqlOptions, ext: GraphqlExtensionService, compat = false): GraphQLSchema {
  const shape = flatShape(compat);
  const registry = new TypeRegistry(cairn.model, ext, shape);
  return shadowCrudSchema(
    cairn,
    options,
    ext,
    (ct) => !ct.plugin || ct.uid === 'plugin::upload.file',
    (ct, query, mutation) => addContentType(cairn, registry, shape, options, ext, ct, query, mutation),
  );
}

type RootFields = GraphQLFieldConfigMap<unknown, GraphqlContext>;

/**
 * A shape's shadow CRUD schema: `add` puts the root fields of each content-type the shape `exposes` (unless
 * `shadowCRUD: false` or the app disabled the type) into Query and Mutation; register, login and me come with
 * every shape.
 */
export function shadowCrudSchema(
  cairn: Cairn,
  options: GraphqlOptions,
  ext: GraphqlExtensionService,
  exposes: (ct: ContentType) => boolean,
  add: (ct: ContentType, query: RootFields, mutation: RootFields) => void,
): GraphQLSchema {
  const query: RootFields = {};
  const mutation: RootFields = {};
  if (options.shadowCRUD) {
    for (const ct of cairn.model.contentTypes.values()) if (exposes(ct) && ext.shadowCRUD(ct.uid).isEnabled()) add(ct, query, mutation);
  }
  addUsersPermissions(cairn, query, mutation);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}

/**
 * `publicationFilter` (or the deprecated `hasPublishedVersion`, which names the document-wide modes) as a
 * condition on the entries read, as Strapi 5 merges them.
 */
function publicationFilter(args: Record<string, unknown>): Filter | undefined {
  if (args.publicationFilter !== undefined && args.publicationFilter !== null) return { kind: 'publication', mode: args.publicationFilter as PublicationFilterMode };
  if (args.hasPublishedVersion === undefined || args.hasPublishedVersion === null) return undefined;
  return { kind: 'publication', mode: args.hasPublishedVersion ? 'has-published-version-document' : 'never-published-document' };
}

function addContentType(
  cairn: Cairn,
  registry: TypeRegistry,
  shape: FlatShape,
  options: GraphqlOptions,
  ext: GraphqlExtensionService,
  ct: ContentType,
  query: GraphQLFieldConfigMap<unknown, GraphqlContext>,
  mutation: GraphQLFieldConfigMap<unknown, GraphqlContext>,
): void {
  const names = queryNames(ct);
  const type = registry.object(ct);
  const documents = cairn.documents(ct.uid);
  const single = ct.kind === 'singleType';
  const localeArg: GraphQLFieldConfigArgumentMap = ct.localized ? { locale: { type: I18NLocaleCodeScalar, description: 'The locale to use for the query' } } : {};
  const statusArg: GraphQLFieldConfigArgumentMap = { status: { type: registry.status, defaultValue: 'published' } };
  // Strapi 5 gives every root read these, Draft & Publish or not (they do nothing on a type without it).
  const publicationArgs: GraphQLFieldConfigArgumentMap = {
    ...statusArg,
    // Superseded by publicationFilter; Strapi's schema does not mark it deprecated (introspection would hide it).
    hasPublishedVersion: { type: GraphQLBoolean },
    publicationFilter: { type: registry.publicationFilter },
  };
  const listArgs: GraphQLFieldConfigArgumentMap = {
    filters: { type: registry.filters(ct) },
    pagination: { type: registry.paginationArg, defaultValue: {} },
    sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
    ...publicationArgs,
    ...localeArg,
  };

  /** The spec of a root field whose entries' fields are selected in `selection`. */
  const specOf = (args: Record<string, unknown>, params: () => Record<string, unknown>, request: FastifyRequest, info: GraphQLResolveInfo, selection: SelectionSetNode, tag: string, shaped = false) =>
    rootSpec(cairn, options, { ct, style: shape.style, type, selection, filter: publicationFilter(args) }, params, request, info, tag, shaped);

  const listParams = (args: Record<string, unknown>, withCount: boolean) => () => ({
    filters: args.filters ? restFilters(args.filters) : undefined,
    sort: args.sort,
    pagination: { ...capPagination(args.pagination as Record<string, number>, options.amountLimit, options.defaultPageSize), withCount },
    status: args.status,
    locale: args.locale,
  });
  const connection = registry.entityCollection(ct);
  const lists = (nodes: readonly FieldNode[]) => nodes.filter((n) => shape.listFields.has(n.name.value));
  /** The entries' selection of a `_connection` root field (its `nodes`), undefined when several keys list them. */
  const nodesSelection = (info: GraphQLResolveInfo) => {
    const groups = fieldGroups(mergedSelection(info.fieldNodes), connection.name, info).filter(([, nodes]) => lists(nodes).length > 0);
    return groups.length > 1 ? undefined : mergedSelection(groups.flatMap(([, nodes]) => nodes));
  };
  const connectionSelection = (info: GraphQLResolveInfo) => mergedSelection(lists(collectFields(mergedSelection(info.fieldNodes), connection.name, info)));
  const pageInfo = (pagination: Record<string, number>) => {
    const pageSize = pagination.pageSize ?? pagination.limit;
    const page = pagination.page ?? Math.floor((pagination.start ?? 0) / pageSize) + 1;
    return { page, pageSize, total: pagination.total, pageCount: Math.ceil(pagination.total / pageSize) };
  };

  const crud = ext.shadowCRUD(ct.uid);
  if (!single && crud.isActionEnabled('find')) {
    query[`${names.plural}_connection`] = {
      type: connection,
      args: listArgs,
      extensions: {
        ...needs({ action: `${ct.uid}.find` }),
        ...compiledField(async (args, info, request) => {
          const selection = nodesSelection(info);
          const spec = selection && (await specOf(args, listParams(args, true), request, info, selection, 'connection', true));
          if (!spec) return undefined;
          const page = await documents.findPage(spec);
          const entries = `[${page.rows.join(',')}]`;
          const pagination = pageInfo(page.pagination as Record<string, number>);
          const member = (name: string) => getNamedType(connection.getFields()[name].type) as GraphQLObjectType;
          return wrapperJson(connection, info, {
            nodes: entries,
            data: entries,
            pageInfo: (nodes) => projectJson(pagination, registry.pagination, mergedSelection(nodes), info),
            meta: (nodes) => projectJson({ pagination }, member('meta'), mergedSelection(nodes), info),
          });
        }),
      },
      resolve: async (_root, args, context, info) => {
        const spec = (await specOf(args, listParams(args, true), context.request, info, connectionSelection(info), 'connection'))!;
        const page = await documents.findPage(spec);
        return { nodes: page.rows.map((r) => JSON.parse(r) as Entry), pageInfo: pageInfo(page.pagination as Record<string, number>) };
      },
    };
    query[names.plural] = {
      type: new GraphQLNonNull(new GraphQLList(type)),
      args: listArgs,
      extensions: {
        ...needs({ action: `${ct.uid}.find` }),
        ...compiledField(async (args, info, request) => {
          const spec = await specOf(args, listParams(args, false), request, info, mergedSelection(info.fieldNodes), 'list', true);
          return spec && `[${(await documents.findPage(spec)).rows.join(',')}]`;
        }),
      },
      resolve: async (_root, args, context, info) => {
        const spec = (await specOf(args, listParams(args, false), context.request, info, mergedSelection(info.fieldNodes), 'list'))!;
        return (await documents.findPage(spec)).rows.map((r) => JSON.parse(r) as Entry);
      },
    };
  }

  const oneParams = (status: unknown, locale: unknown) => () => ({ status, locale });
  const oneTag = (args: Record<string, unknown>) => `one:${String(args.status)}:${String(args.locale)}`;
  /** The spec of one document's entry, read with the selection of the field that asked (`args`: its publication filter; none for a write's answer). */
  const oneSpec = async (args: Record<string, unknown>, status: unknown, locale: unknown, context: GraphqlContext, info: GraphQLResolveInfo) =>
    (await specOf(args, oneParams(status, locale), context.request, info, mergedSelection(info.fieldNodes), `one:${String(status)}:${String(locale)}`))!;
  /** A single type's document (it has at most one, in any locale), or undefined. */
  const theDocument = async () => (await documents.findFirst({ status: ct.draftAndPublish ? 'draft' : undefined, locale: ct.localized ? '*' : undefined, fields: [] }))?.documentId as string | undefined;

  // A single type's query reads its one document; a collection type's names one by its documentId.
  const readAction = single ? 'find' : 'findOne';
  if (crud.isActionEnabled(readAction)) {
    const documentIdOf = (args: Record<string, unknown>) => (single ? undefined : String(args.documentId));
    query[names.single] = {
      type,
      args: { ...(single ? {} : { documentId: { type: new GraphQLNonNull(GraphQLID) } }), ...publicationArgs, ...localeArg },
      extensions: {
        ...needs({ action: `${ct.uid}.${readAction}` }),
        ...compiledField(async (args, info, request) => {
          const spec = await specOf(args, oneParams(args.status, args.locale), request, info, mergedSelection(info.fieldNodes), oneTag(args), true);
          return spec && ((await documents.findOneJson(spec, documentIdOf(args))) ?? 'null');
        }),
      },
      resolve: async (_root, args, context, info) => parseEntry(await documents.findOneJson(await oneSpec(args, args.status, args.locale, context, info), documentIdOf(args))),
    };
  }

  if (ct.plugin) return;
  const name = typeName(ct);
  const input = registry.input(ct);
  /** The version a write answers with: the draft when it wrote only that, else the published one. */
  const written = (args: Record<string, unknown>) => (ct.draftAndPublish && args.status === 'draft' ? 'draft' : 'published');
  const create = async (args: Record<string, unknown>, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const spec = await oneSpec({}, written(args), documents.writeLocale({ locale: args.locale as string | undefined, data: args.data as Entry }), context, info);
    // The answer is read in the write's transaction: if it can't be, nothing was written.
    return parseEntry(await documents.transaction(async (trx) => trx.findOneJson(spec, await trx.createDocument({ data: args.data as Entry, status: args.status as never, locale: args.locale as string | undefined }))));
  };
  const update = async (documentId: string, args: Record<string, unknown>, context: GraphqlContext, info: GraphQLResolveInfo) => {
    const spec = await oneSpec({}, written(args), documents.writeLocale({ locale: args.locale as string | undefined, data: args.data as Entry }), context, info);
    const text = await documents.transaction(async (trx) => {
      const found = await trx.updateDocument({ documentId, data: args.data as Entry, status: args.status as never, locale: args.locale as string | undefined });
      if (!found) throw new NotFoundError();
      return trx.findOneJson(spec, documentId);
    });
    return parseEntry(text);
  };

  if (!single && crud.isActionEnabled('create')) mutation[`create${name}`] = {
    type,
    args: { ...statusArg, data: { type: new GraphQLNonNull(input) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.create` }),
    resolve: (_root, args, context, info) => create(args, context, info),
  };
  if (crud.isActionEnabled('update')) mutation[`update${name}`] = {
    type,
    args: { ...(single ? {} : { documentId: { type: new GraphQLNonNull(GraphQLID) } }), ...statusArg, data: { type: new GraphQLNonNull(input) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.update` }),
    resolve: async (_root, args, context, info) => {
      if (!single) return update(String(args.documentId), args, context, info);
      // A single type's one document: updated, or created the first time (as Strapi, and REST's PUT).
      const documentId = await theDocument();
      return documentId === undefined ? create(args, context, info) : update(documentId, args, context, info);
    },
  };
  if (crud.isActionEnabled('delete')) mutation[`delete${name}`] = {
    type: registry.deleteResponse,
    args: { ...(single ? {} : { documentId: { type: new GraphQLNonNull(GraphQLID) } }), ...localeArg },
    extensions: needs({ action: `${ct.uid}.delete` }),
    resolve: async (_root, args) => {
      const documentId = single ? await theDocument() : String(args.documentId);
      if (documentId === undefined) throw new NotFoundError('Document not found');
      await documents.delete({ documentId, locale: args.locale });
      return { documentId };
    },
  };
}

/** An entry's JSON text as the resolvers' object (null: none). */
function parseEntry(text: string | null): Entry | null {
  return text === null ? null : (JSON.parse(text) as Entry);
}
