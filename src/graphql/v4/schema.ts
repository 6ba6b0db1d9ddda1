import { GraphQLID, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, type GraphQLFieldConfigArgumentMap, type GraphQLFieldConfigMap, type GraphQLResolveInfo } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { Cairn } from '../../app/cairn.js';
import type { ContentType } from '../../model/types.js';
import { parseDocumentParams, type PopulateTree } from '../../query/index.js';
import type { GraphqlExtensionService } from '../extension.js';
import { needs } from '../field-auth.js';
import { shadowCrudSchema, type GraphqlContext, type GraphqlOptions } from '../schema.js';
import { queryNames, typeName } from '../names.js';
import { I18NLocaleCodeScalar } from '../scalars.js';
import { capPagination } from '../limits.js';
import { V4TypeRegistry } from './types.js';
import { attributesSelection, entityShape, v4Filters, v4Style } from './selection.js';
import { readOptions, rootSpec } from '../root-spec.js';
import { fieldGroups, mergedSelection } from '../selection.js';
import { compiledField, projectJson, wrapperJson } from '../compiled-path.js';

type Entry = Record<string, unknown>;
type Args = Record<string, unknown>;

/**
 * Strapi v4's shadow CRUD schema, the seed's shape: `<plural>(filters, pagination, sort, publicationState,
 * locale)` → `{ data: [{ id, attributes }], meta }`, `<singular>(id)` → `{ data }`, `create<Type>(data)`,
 * `update<Type>(id, data)`, `delete<Type>(id)`, plus register, login and me. `id` is the documentId. Each root
 * field reads its whole selection (relations, components, dynamic zones) with one SQL statement.
 *
 * Versions, as v4 answered: LIVE reads published versions; PREVIEW each document's latest content (its draft),
 * with `publishedAt` set when it has a published version. `<singular>(id)` and mutations answer that latest
 * content too; nested lists of Draft & Publish types follow their own `publicationState` (default LIVE).
 */
export function buildV4Schema(cairn: Cairn, options: GraphqlOptions, ext: GraphqlExtensionService): GraphQLSchema {
  const registry = new V4TypeRegistry(cairn.model, ext);
  return shadowCrudSchema(
    cairn,
    options,
    ext,
    (ct) => !ct.plugin || ct.uid === 'plugin::upload.file' || ct.plugin === 'users-permissions',
    (ct, query, mutation) => addContentType(cairn, registry, options, ext.shadowCRUD(ct.uid), ct, query, mutation),
  );
}

function addContentType(
  cairn: Cairn,
  registry: V4TypeRegistry,
  options: GraphqlOptions,
  crud: ReturnType<GraphqlExtensionService['shadowCRUD']>,
  ct: ContentType,
  query: GraphQLFieldConfigMap<unknown, GraphqlContext>,
  mutation: GraphQLFieldConfigMap<unknown, GraphqlContext>,
): void {
  const names = queryNames(ct);
  const documents = cairn.documents(ct.uid);
  const attributes = registry.object(ct);
  const single = registry.entityResponse(ct);
  const collection = registry.entityResponseCollection(ct);
  const localeArg: GraphQLFieldConfigArgumentMap = ct.localized ? { locale: { type: I18NLocaleCodeScalar } } : {};
  const listArgs: GraphQLFieldConfigArgumentMap = {
    filters: { type: registry.filters(ct) },
    pagination: { type: registry.paginationArg, defaultValue: {} },
    sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
    ...(ct.draftAndPublish ? { publicationState: { type: registry.publicationState, defaultValue: 'LIVE' } } : {}),
    ...localeArg,
  };

  /** The spec of a root field answering `wrapper` (its entries under `data { id attributes }`). */
  const specOf = (params: () => Record<string, unknown>, request: FastifyRequest, info: GraphQLResolveInfo, wrapper: GraphQLObjectType, tag: string, shaped = false) =>
    rootSpec(
      cairn,
      options,
      {
        ct,
        style: v4Style,
        type: attributes,
        selection: attributesSelection(wrapper, info.fieldNodes, info),
        entry: (fields) => entityShape(wrapper, info.fieldNodes, fields, info),
        preview: true,
      },
      params,
      request,
      info,
      tag,
      shaped,
    );

  const listParams = (args: Args, info: GraphQLResolveInfo) => () => ({
    filters: args.filters ? v4Filters(cairn.model, ct, args.filters) : undefined,
    sort: args.sort,
    pagination: {
      ...capPagination(args.pagination as Record<string, number>, options.amountLimit, options.defaultPageSize),
      withCount: fieldGroups(mergedSelection(info.fieldNodes), collection.name, info).some(([, nodes]) => nodes[0].name.value === 'meta'),
    },
    status: args.publicationState === 'PREVIEW' ? 'draft' : 'published',
    locale: args.locale === 'all' ? '*' : args.locale,
  });
  const latestParams = () => ({ status: ct.draftAndPublish ? 'draft' : undefined, locale: ct.localized ? '*' : undefined });

  /** Latest content of one document (any locale: v4's ids named one locale's entry), or null. */
  const latestSpec = async (context: GraphqlContext, info: GraphQLResolveInfo) => (await specOf(latestParams, context.request, info, single, 'latest'))!;
  const readLatest = async (documentId: string, context: GraphqlContext, info: GraphQLResolveInfo): Promise<Entry | null> => {
    const text = await documents.findOneJson(await latestSpec(context, info), documentId);
    return text === null ? null : (JSON.parse(text) as Entry);
  };

  // Each root field declares the action it needs; finalizeSchema's wrapper checks it (or the app's resolversConfig).
  if (crud.isActionEnabled('find')) query[names.plural] = {
    type: collection,
    args: listArgs,
    extensions: {
      ...needs({ action: `${ct.uid}.find` }),
      ...compiledField(async (args, info, request) => {
        const spec = await specOf(listParams(args, info), request, info, collection, 'list', true);
        if (!spec) return undefined;
        const page = await documents.findPage(spec);
        return wrapperJson(collection, info, {
          data: `[${page.rows.join(',')}]`,
          meta: (nodes) => projectJson({ pagination: pageMeta(page.pagination as Record<string, number>) }, registry.meta, mergedSelection(nodes), info),
        });
      }),
    },
    resolve: async (_root, args: Args, context, info) => {
      const spec = (await specOf(listParams(args, info), context.request, info, collection, 'list'))!;
      const page = await documents.findPage(spec);
      return { data: page.rows.map((r) => JSON.parse(r) as Entry), meta: { pagination: pageMeta(page.pagination as Record<string, number>) } };
    },
  };

  if (crud.isActionEnabled('findOne')) query[names.single] = {
    type: single,
    args: { id: { type: GraphQLID }, ...localeArg },
    extensions: {
      ...needs({ action: `${ct.uid}.findOne` }),
      ...compiledField(async (args, info, request) => {
        const spec = await specOf(latestParams, request, info, single, 'latest', true);
        if (!spec) return undefined;
        const text = args.id === undefined || args.id === null ? null : await documents.findOneJson(spec, String(args.id));
        return wrapperJson(single, info, { data: text ?? 'null' });
      }),
    },
    resolve: async (_root, args: Args, context, info) => {
      return { data: args.id === undefined || args.id === null ? null : await readLatest(String(args.id), context, info) };
    },
  };

  if (ct.plugin) return;
  const name = typeName(ct);
  const input = registry.input(ct);
  if (crud.isActionEnabled('create')) mutation[`create${name}`] = {
    type: single,
    args: { data: { type: new GraphQLNonNull(input) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.create` }),
    resolve: async (_root, args: Args, context, info) => {
      const { data, publish } = splitPublishedAt(args.data as Entry);
      const spec = await latestSpec(context, info);
      // The answer is read in the write's transaction: if it can't be, nothing was written.
      const text = await documents.transaction(async (trx) =>
        // A draft is checked whole, as Strapi v4 checked every write (Strapi 5 leaves required values for publish).
        trx.findOneJson(
          spec,
          await trx.createDocument({ data, status: publish ? 'published' : 'draft', locale: args.locale as string | undefined, wholeDraft: true }),
        ),
      );
      return { data: text === null ? null : (JSON.parse(text) as Entry) };
    },
  };
  if (crud.isActionEnabled('update')) mutation[`update${name}`] = {
    type: single,
    args: { id: { type: new GraphQLNonNull(GraphQLID) }, data: { type: new GraphQLNonNull(input) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.update` }),
    resolve: async (_root, args: Args, context, info) => {
      const documentId = String(args.id);
      const locale = args.locale as string | undefined;
      const { data, publish } = splitPublishedAt(args.data as Entry);
      // v4 edits the entry in place: a published entry stays published unless `publishedAt: null` says otherwise.
      const keepPublished = publish === undefined && ct.draftAndPublish && (await isPublished(cairn, ct, documentId, locale));
      const spec = await latestSpec(context, info);
      const text = await documents.transaction(async (trx) => {
        const status = publish || keepPublished ? 'published' : 'draft';
        const found = await trx.updateDocument({ documentId, data, status, locale, wholeDraft: true });
        if (!found) return null;
        if (publish === false) await trx.unpublish({ documentId, locale });
        return trx.findOneJson(spec, documentId);
      });
      return { data: text === null ? null : (JSON.parse(text) as Entry) };
    },
  };
  if (crud.isActionEnabled('delete')) mutation[`delete${name}`] = {
    type: single,
    args: { id: { type: new GraphQLNonNull(GraphQLID) }, ...localeArg },
    extensions: needs({ action: `${ct.uid}.delete` }),
    resolve: async (_root, args: Args, context, info) => {
      const documentId = String(args.id);
      const entry = await readLatest(documentId, context, info);
      if (!entry) return { data: null };
      await documents.delete({ documentId, locale: args.locale as string | undefined });
      // The deleted entry, as v4 answered it: its links went with it.
      const spec = (await specOf(latestParams, context.request, info, single, 'latest'))!;
      return { data: withoutRelations(ct, entry, spec.populate) };
    },
  };
}

/** `publishedAt` in v4 input: a date publishes, null unpublishes (a draft on create), absent changes nothing. */
function splitPublishedAt(input: Entry): { data: Entry; publish: boolean | undefined } {
  const { publishedAt, ...data } = input;
  return { data, publish: publishedAt === undefined ? undefined : publishedAt !== null };
}

async function isPublished(cairn: Cairn, ct: ContentType, documentId: string, locale: string | undefined): Promise<boolean> {
  const documents = cairn.documents(ct.uid);
  const spec = parseDocumentParams(cairn.model, ct, { fields: [], locale }, readOptions(cairn, { can: () => true }));
  return (await documents.findOneJson(spec, documentId)) !== null;
}

/** An entry without its populated relations, media and localizations (keys may be aliases: `populate` says). */
function withoutRelations(ct: ContentType, entry: Entry, populate: PopulateTree): Entry {
  const out: Entry = {};
  for (const [key, value] of Object.entries(entry)) {
    const name = populate.get(key)?.attribute ?? key;
    const attribute = ct.attributes.get(name);
    if (name === 'localizations' || attribute?.kind === 'relation' || attribute?.kind === 'media') continue;
    out[key] = value;
  }
  return out;
}

/** v4's meta: the page form even for `start`/`limit` (`start: 10, limit: 3` → page 4, pageSize 3). */
function pageMeta(p: Record<string, number>): Record<string, number> {
  const pageSize = p.pageSize ?? p.limit;
  const page = p.page ?? Math.floor((p.start ?? 0) / pageSize) + 1;
  return { page, pageSize, pageCount: p.total === undefined ? 0 : Math.ceil(p.total / pageSize), total: p.total ?? 0 };
}
