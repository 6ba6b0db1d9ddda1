import { GraphQLBoolean, GraphQLID, GraphQLList, GraphQLNonNull, type GraphQLFieldConfigArgumentMap, type GraphQLObjectType, type GraphQLResolveInfo } from 'graphql';
import type { ContentType, Model } from '../../model/types.js';
import type { Filter, OutputShape, PublicationFilterMode, Status } from '../../query/index.js';
import { NotFoundError } from '../../errors/index.js';
import type { WriteParams } from '../../documents/index.js';
import type { GraphqlExtensionService } from '../extension.js';
import type { GraphqlContext } from '../schema-options.js';
import { TypeRegistry } from '../schema-types.js';
import { I18NLocaleCodeScalar } from '../scalars.js';
import { collectFields, fieldGroups, mergedSelection } from '../selection.js';
import { collectionJson, type Args, type CrudShape, type Entry, type EntryForm, type ListForm, type CrudFields, type Version } from '../shadow-crud.js';
import { flatShape } from './style.js';

/**
 * Strapi 5's shadow CRUD schema, flat or (`compat`) with `v4CompatibilityMode`'s deprecated fields (style.ts): per
 * collection type `<plural>`, `<plural>_connection`, `<singular>(documentId)` and create/update/delete mutations;
 * per single type `<singular>`, `update<Type>` (which creates the document the first time) and `delete<Type>`.
 * Entries are answered flat; `status` (and `publicationFilter`) say which version is read.
 */
export function v5CrudShape(model: Model, ext: GraphqlExtensionService, compat: boolean): CrudShape {
  const flat = flatShape(compat);
  const registry = new TypeRegistry(model, ext, flat);
  const localeArg = (ct: ContentType): GraphQLFieldConfigArgumentMap =>
    ct.localized ? { locale: { type: I18NLocaleCodeScalar, description: 'The locale to use for the query' } } : {};
  const documentIdArg = (ct: ContentType): GraphQLFieldConfigArgumentMap => (ct.kind === 'singleType' ? {} : { documentId: { type: new GraphQLNonNull(GraphQLID) } });
  const statusArg: GraphQLFieldConfigArgumentMap = { status: { type: registry.status, defaultValue: 'published' } };
  // Strapi 5 gives every root read these, Draft & Publish or not (they do nothing on a type without it).
  const publicationArgs: GraphQLFieldConfigArgumentMap = {
    ...statusArg,
    // Superseded by publicationFilter; Strapi's schema does not mark it deprecated (introspection would hide it).
    hasPublishedVersion: { type: GraphQLBoolean },
    publicationFilter: { type: registry.publicationFilter },
  };
  const readVersion = (args: Args): Version => ({ status: args.status, locale: args.locale, filter: publicationFilter(args) });

  /** The version a write answers with: the draft when it wrote only that, else the published one. */
  const written = (fields: CrudFields, args: Args): Version => ({
    status: fields.ct.draftAndPublish && args.status === 'draft' ? 'draft' : 'published',
    locale: fields.documents.writeLocale({ locale: args.locale as string | undefined, data: args.data as Entry }),
  });
  const writeParams = (args: Args): WriteParams => ({ data: args.data as Entry, status: args.status as Status | undefined, ...(args.locale === undefined || args.locale === null ? {} : { locale: args.locale as string }) });
  const create = (fields: CrudFields, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) =>
    fields.written(entry(fields.type), written(fields, args), context, info, (trx, params) => trx.createDocument((params ?? writeParams(args)) as WriteParams), {
      name: 'create',
      params: { ...writeParams(args) },
    });
  const update = (fields: CrudFields, documentId: string, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) =>
    fields.written(
      entry(fields.type),
      written(fields, args),
      context,
      info,
      async (trx, params) => {
        if (!(await trx.updateDocument((params ?? { documentId, ...writeParams(args) }) as unknown as WriteParams & { documentId: string }))) throw new NotFoundError();
        return documentId;
      },
      { name: 'update', params: { documentId, ...writeParams(args) } },
    );
  /** A single type's document (it has at most one, in any locale and version), or undefined. */
  const theDocument = (fields: CrudFields) => fields.documents.singleDocumentId();

  return {
    registry,
    style: flat.style,
    preview: false,
    mutationAnswersEveryLinkedVersion: true,
    exposes: (ct) => !ct.plugin || ct.uid === 'plugin::upload.file',
    lists: (ct, names) =>
      ct.kind === 'singleType'
        ? []
        : [
            { name: `${names.plural}_connection`, form: connection(registry.entityCollection(ct), flat.listFields) },
            { name: names.plural, form: entryList(registry.object(ct)) },
          ],
    listArgs: (ct) => ({ ...publicationArgs, ...localeArg(ct) }),
    listVersion: (_ct, args) => readVersion(args),
    // A single type's query reads its one document; a collection type's names one by its documentId.
    one: (ct, names) => ({
      name: names.single,
      action: ct.kind === 'singleType' ? 'find' : 'findOne',
      args: { ...documentIdArg(ct), ...publicationArgs, ...localeArg(ct) },
      form: entry(registry.object(ct)),
      target: (args) => ({ documentId: ct.kind === 'singleType' ? undefined : String(args.documentId), ...readVersion(args) }),
    }),
    create: (fields) =>
      fields.ct.kind === 'singleType'
        ? undefined
        : {
            type: fields.type,
            args: { ...statusArg, data: { type: new GraphQLNonNull(registry.input(fields.ct)) }, ...localeArg(fields.ct) },
            resolve: (_root, args, context, info) => create(fields, args, context, info),
          },
    update: (fields) => ({
      type: fields.type,
      args: { ...documentIdArg(fields.ct), ...statusArg, data: { type: new GraphQLNonNull(registry.input(fields.ct)) }, ...localeArg(fields.ct) },
      resolve: async (_root, args, context, info) => {
        if (fields.ct.kind !== 'singleType') return update(fields, String(args.documentId), args, context, info);
        // A single type's one document: updated, or created the first time (as Strapi, and REST's PUT).
        const documentId = await theDocument(fields);
        return documentId === undefined ? create(fields, args, context, info) : update(fields, documentId, args, context, info);
      },
    }),
    delete: (fields) => ({
      type: registry.deleteResponse,
      args: { ...documentIdArg(fields.ct), ...localeArg(fields.ct) },
      resolve: async (_root, args) => {
        const documentId = fields.ct.kind === 'singleType' ? await theDocument(fields) : String(args.documentId);
        if (documentId === undefined) throw new NotFoundError('Document not found');
        await fields.documents.delete({ documentId, locale: args.locale as string | undefined });
        return { documentId };
      },
    }),
  };
}

/**
 * `publicationFilter` (or the deprecated `hasPublishedVersion`, which names the document-wide modes) as a
 * condition on the entries read, as Strapi 5 merges them.
 */
function publicationFilter(args: Args): Filter | undefined {
  if (args.publicationFilter !== undefined && args.publicationFilter !== null) return { kind: 'publication', mode: args.publicationFilter as PublicationFilterMode };
  if (args.hasPublishedVersion === undefined || args.hasPublishedVersion === null) return undefined;
  return { kind: 'publication', mode: args.hasPublishedVersion ? 'has-published-version-document' : 'never-published-document' };
}

/** Flat entries: the field's selection is theirs, and each is answered as its fields are. */
const FLAT = { selection: (info: GraphQLResolveInfo) => mergedSelection(info.fieldNodes), entry: (fields: OutputShape) => fields };

/** An entry, flat (`article`, and what a mutation answers). */
function entry(type: GraphQLObjectType): EntryForm {
  return { type, ...FLAT, json: (text) => text ?? 'null', value: (value) => value };
}

/** A list of flat entries (`articles`), not counted. */
function entryList(type: GraphQLObjectType): ListForm {
  return { type: new GraphQLNonNull(new GraphQLList(type)), ...FLAT, counts: () => false, json: (entries) => entries, value: (entries) => entries };
}

/** `<Type>EntityResponseCollection` (`articles_connection`): the entries in `nodes` (and `data`), `pageInfo` (and `meta`). */
function connection(wrapper: GraphQLObjectType, listFields: ReadonlySet<string>): ListForm {
  const lists = (info: GraphQLResolveInfo) => fieldGroups(mergedSelection(info.fieldNodes), wrapper.name, info).filter(([, nodes]) => listFields.has(nodes[0].name.value));
  return {
    type: wrapper,
    selection: (info) => mergedSelection(collectFields(mergedSelection(info.fieldNodes), wrapper.name, info).filter((node) => listFields.has(node.name.value))),
    // Several keys listing the entries (`nodes` and `data`, or aliases) would each need the list: resolvers answer.
    entry: (fields, info) => (lists(info).length > 1 ? undefined : fields),
    counts: () => true,
    json: (entries, page, info) => collectionJson(wrapper, entries, page, info),
    value: (nodes, pageInfo) => ({ nodes, pageInfo }),
  };
}
