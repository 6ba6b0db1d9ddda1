import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import type { ContentType } from '../model/types.js';
import { ApplicationError, CairnError, ForbiddenError, NotFoundError, ValidationError } from '../errors/index.js';
import type { GraphqlExtensionService } from './extension.js';
import { needs } from './field-auth.js';
import { TypeRegistry } from './schema-types.js';
import { queryNames, typeName } from './names.js';
import { I18NLocaleCodeScalar } from './scalars.js';
import { capPagination } from './limits.js';
import { collectFields, fieldGroups, mergedSelection, restFilters } from './selection.js';
import { v5Style } from './v5-style.js';
import { rootSpec } from './root-spec.js';
import { compiledField, projectJson, wrapperJson } from './compiled-path.js';

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
 * Strapi v5's shadow CRUD schema (the flat shape): per content-type `<plural>`, `<plural>_connection`,
 * `<singular>(documentId)` and create/update/delete mutations, plus register, login and me. Each root field
 * compiles its whole selection (relations, components, dynamic zones) into one read of the document service.
 * Root fields declare the action they need (`extensions.cairn`); `finalizeSchema` checks it. The app's shadowCRUD
 * toggles (`ext`) leave out disabled types, operations and fields.
 */
export function buildSchema(cairn: Cairn, options: GraphqlOptions, ext: GraphqlExtensionService): GraphQLSchema {
  const registry = new TypeRegistry(cairn.model, ext);
  return shadowCrudSchema(
    cairn,
    options,
    ext,
    (ct) => !ct.plugin || ct.uid === 'plugin::upload.file',
    (ct, query, mutation) => addContentType(cairn, registry, options, ext, ct, query, mutation),
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

function addContentType(
  cairn: Cairn,
  registry: TypeRegistry,
  options: GraphqlOptions,
  ext: GraphqlExtensionService,
  ct: ContentType,
  query: GraphQLFieldConfigMap<unknown, GraphqlContext>,
  mutation: GraphQLFieldConfigMap<unknown, GraphqlContext>,
): void {
  const names = queryNames(ct);
  const type = registry.object(ct);
  const documents = cairn.documents(ct.uid);
  const localeArg: GraphQLFieldConfigArgumentMap = ct.localized ? { locale: { type: I18NLocaleCodeScalar } } : {};
  const statusArg: GraphQLFieldConfigArgumentMap = { status: { type: registry.status, defaultValue: 'published' } };
  const listArgs: GraphQLFieldConfigArgumentMap = {
    filters: { type: registry.filters(ct) },
    pagination: { type: registry.paginationArg, defaultValue: {} },
    sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
    ...statusArg,
    ...localeArg,
  };

  /** The spec of a root field whose entries' fields are selected in `selection`. */
  const specOf = (params: () => Record<string, unknown>, request: FastifyRequest, info: GraphQLResolveInfo, selection: SelectionSetNode, tag: string, shaped = false) =>
    rootSpec(cairn, options, { ct, style: v5Style, type, selection }, params, request, info, tag, shaped);

  const listParams = (args: Record<string, unknown>, withCount: boolean) => () => ({
    filters: args.filters ? restFilters(args.filters) : undefined,
    sort: args.sort,
    pagination: { ...capPagination(args.pagination as Record<string, number>, options.amountLimit, options.defaultPageSize), withCount },
    status: args.status,
    locale: args.locale,
  });
  const connection = registry.entityCollection(ct);
  /** The entries' selection of a `_connection` root field (its `nodes`), undefined when `nodes` has several keys. */
  const nodesSelection = (info: GraphQLResolveInfo) => {
    const groups = fieldGroups(mergedSelection(info.fieldNodes), connection.name, info).filter(([, nodes]) => nodes[0].name.value === 'nodes');
    return groups.length > 1 ? undefined : mergedSelection(groups.flatMap(([, nodes]) => nodes));
  };
  const connectionSelection = (info: GraphQLResolveInfo) => {
    const found = collectFields(mergedSelection(info.fieldNodes), connection.name, info).filter((f) => f.name.value === 'nodes');
    return mergedSelection(found);
  };
  const pageInfo = (pagination: Record<string, number>) => {
    const pageSize = pagination.pageSize ?? pagination.limit;
    const page = pagination.page ?? Math.floor((pagination.start ?? 0) / pageSize) + 1;
    return { page, pageSize, total: pagination.total, pageCount: Math.ceil(pagination.total / pageSize) };
  };

  const crud = ext.shadowCRUD(ct.uid);
  if (crud.isActionEnabled('find')) {
    query[names.plural] = {
      type: new GraphQLNonNull(new GraphQLList(type)),
      args: listArgs,
      extensions: {
        ...needs({ action: `${ct.uid}.find` }),
        ...compiledField(async (args, info, request) => {
          const spec = await specOf(listParams(args, false), request, info, mergedSelection(info.fieldNodes), 'list', true);
          return spec && `[${(await documents.findPage(spec)).rows.join(',')}]`;
        }),
      },
      resolve: async (_root, args, context, info) => {
        const spec = (await specOf(listParams(args, false), context.request, info, mergedSelection(info.fieldNodes), 'list'))!;
        return (await documents.findPage(spec)).rows.map((r) => JSON.parse(r) as Entry);
      },
    };
    query[`${names.plural}_connection`] = {
      type: connection,
      args: listArgs,
      extensions: {
        ...needs({ action: `${ct.uid}.find` }),
        ...compiledField(async (args, info, request) => {
          const selection = nodesSelection(info);
          const spec = selection && (await specOf(listParams(args, true), request, info, selection, 'connection', true));
          if (!spec) return undefined;
          const page = await documents.findPage(spec);
          return wrapperJson(connection, info, {
            nodes: `[${page.rows.join(',')}]`,
            pageInfo: (nodes) => projectJson(pageInfo(page.pagination as Record<string, number>), registry.pagination, mergedSelection(nodes), info),
          });
        }),
      },
      resolve: async (_root, args, context, info) => {
        const spec = (await specOf(listParams(args, true), context.request, info, connectionSelection(info), 'connection'))!;
        const page = await documents.findPage(spec);
        return { nodes: page.rows.map((r) => JSON.parse(r) as Entry), pageInfo: pageInfo(page.pagination as Record<string, number>) };
      },
    };
  }

  const oneParams = (status: unknown, locale: unknown) => () => ({ status, locale });
  /** The spec of one document's entry, read with the selection of the field that asked. */
  const oneSpec = async (status: unknown, locale: unknown, context: GraphqlContext, info: GraphQLResolveInfo) =>
    (await specOf(oneParams(status, locale), context.request, info, mergedSelection(info.fieldNodes), `one:${String(status)}:${String(locale)}`))!;
  const readOne = async (documentId: string, status: unknown, locale: unknown, context: GraphqlContext, info: GraphQLResolveInfo) =>
    parseEntry(await documents.findOneJson(await oneSpec(status, locale, context, info), documentId));

  if (crud.isActionEnabled('findOne')) {
    query[names.single] = {
      type,
      args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...statusArg, ...localeArg },
      extensions: {
        ...needs({ action: `${ct.uid}.findOne` }),
        ...compiledField(async (args, info, request) => {
          const spec = await specOf(oneParams(args.status, args.locale), request, info, mergedSelection(info.fieldNodes), `one:${String(args.status)}:${String(args.locale)}`, true);
          return spec && ((await documents.findOneJson(spec, String(args.documentId))) ?? 'null');
        }),
      },
      resolve: (_root, args, context, info) => readOne(args.documentId, args.status, args.locale, context, info),
    };
  }

  if (ct.plugin) return;
  const name = typeName(ct);
  const writeArgs: GraphQLFieldConfigArgumentMap = { ...(ct.draftAndPublish ? statusArg : {}), ...localeArg };
  if (crud.isActionEnabled('create')) mutation[`create${name}`] = {
    type,
    args: { ...writeArgs, data: { type: new GraphQLNonNull(registry.input(ct)) } },
    extensions: needs({ action: `${ct.uid}.create` }),
    resolve: async (_root, args, context, info) => {
      const spec = await oneSpec(ct.draftAndPublish && args.status === 'draft' ? 'draft' : 'published', documents.writeLocale({ locale: args.locale }), context, info);
      // The answer is read in the write's transaction: if it can't be, nothing was written.
      return parseEntry(await documents.transaction(async (trx) => trx.findOneJson(spec, await trx.createDocument({ data: args.data, status: args.status, locale: args.locale }))));
    },
  };
  if (crud.isActionEnabled('update')) mutation[`update${name}`] = {
    type,
    args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...writeArgs, data: { type: new GraphQLNonNull(registry.input(ct)) } },
    extensions: needs({ action: `${ct.uid}.update` }),
    resolve: async (_root, args, context, info) => {
      const spec = await oneSpec(ct.draftAndPublish && args.status === 'draft' ? 'draft' : 'published', documents.writeLocale({ locale: args.locale }), context, info);
      const text = await documents.transaction(async (trx) => {
        const found = await trx.updateDocument({ documentId: args.documentId, data: args.data, status: args.status, locale: args.locale });
        if (!found) throw new NotFoundError();
        return trx.findOneJson(spec, args.documentId);
      });
      return parseEntry(text);
    },
  };
  if (crud.isActionEnabled('delete')) mutation[`delete${name}`] = {
    type: registry.deleteResponse,
    args: { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.delete` }),
    resolve: async (_root, args) => {
      await documents.delete({ documentId: args.documentId, locale: args.locale });
      return { documentId: args.documentId };
    },
  };
}

/** register, login and me, answered by the same code as the REST auth routes. */
export function addUsersPermissions(cairn: Cairn, query: GraphQLFieldConfigMap<unknown, GraphqlContext>, mutation: GraphQLFieldConfigMap<unknown, GraphqlContext>): void {
  const role = new GraphQLObjectType({
    name: 'UsersPermissionsMeRole',
    fields: { id: { type: new GraphQLNonNull(GraphQLID) }, name: { type: new GraphQLNonNull(GraphQLString) }, description: { type: GraphQLString }, type: { type: GraphQLString } },
  });
  const me = new GraphQLObjectType({
    name: 'UsersPermissionsMe',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID) },
      documentId: { type: new GraphQLNonNull(GraphQLID) },
      username: { type: new GraphQLNonNull(GraphQLString) },
      email: { type: GraphQLString },
      confirmed: { type: GraphQLBoolean },
      blocked: { type: GraphQLBoolean },
      role: { type: role },
    },
  });
  const payload = new GraphQLObjectType({ name: 'UsersPermissionsLoginPayload', fields: { jwt: { type: GraphQLString }, user: { type: new GraphQLNonNull(me) } } });
  const registerInput = new GraphQLInputObjectType({
    name: 'UsersPermissionsRegisterInput',
    fields: { username: { type: new GraphQLNonNull(GraphQLString) }, email: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) } },
  });
  const loginInput = new GraphQLInputObjectType({
    name: 'UsersPermissionsLoginInput',
    fields: { identifier: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) }, provider: { type: GraphQLString, defaultValue: 'local' } },
  });
  /** Calls the REST auth route in-process (same validation, rate limit by the caller's address). */
  const viaRest = async (context: GraphqlContext, method: 'GET' | 'POST', url: string, body?: object) => {
    const response = await cairn.fastify.inject({
      method,
      url,
      payload: body,
      remoteAddress: context.request.ip,
      headers: context.request.headers.authorization ? { authorization: context.request.headers.authorization } : {},
    });
    const parsed = JSON.parse(response.body || 'null');
    if (response.statusCode >= 400) {
      const error = parsed?.error ?? {};
      throw new CairnError(error.name ?? 'ApplicationError', response.statusCode, error.message ?? 'Error', error.details ?? {});
    }
    return parsed;
  };
  mutation.register = { type: new GraphQLNonNull(payload), args: { input: { type: new GraphQLNonNull(registerInput) } }, extensions: needs({ public: true }), resolve: (_r, args, context) => viaRest(context, 'POST', '/api/auth/local/register', { ...args.input }) };
  mutation.login = {
    type: new GraphQLNonNull(payload),
    args: { input: { type: new GraphQLNonNull(loginInput) } },
    extensions: needs({ public: true }),
    resolve: (_r, args, context) => {
      if (args.input.provider !== 'local') throw new ValidationError('Only the local provider is supported');
      return viaRest(context, 'POST', '/api/auth/local', { identifier: args.input.identifier, password: args.input.password });
    },
  };
  query.me = {
    type: me,
    extensions: needs({ authenticated: true }),
    resolve: async (_r, _a, context) => {
      const caller = await cairn.access.caller(context.request);
      // No credentials: forbidden, as the reference answers; an API token is a credential without a user.
      if (caller.kind === 'public') throw new ForbiddenError();
      if (caller.kind !== 'user') throw new ApplicationError('Authentication requested');
      const [user] = await cairn.db.query<Entry>(
        `SELECT u.id, u.document_id AS "documentId", u.username, u.email, u.confirmed, u.blocked, r.id AS role_id, r.name AS role_name, r.description AS role_description, r.type AS role_type FROM up_users u LEFT JOIN up_users_role_lnk l ON l.entity_id = u.id LEFT JOIN up_roles r ON r.document_id = l.target_document_id WHERE u.id = ?`,
        [caller.userId],
      );
      if (!user) return null;
      const bool = (v: unknown) => v === true || v === 1 || v === '1';
      return {
        ...user,
        confirmed: bool(user.confirmed),
        blocked: bool(user.blocked),
        role: user.role_id ? { id: user.role_id, name: user.role_name, description: user.role_description, type: user.role_type } : null,
      };
    },
  };
}

/** An entry's JSON text as the resolvers' object (null: none). */
function parseEntry(text: string | null): Entry | null {
  return text === null ? null : (JSON.parse(text) as Entry);
}
