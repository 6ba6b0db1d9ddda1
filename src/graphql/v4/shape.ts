import { GraphQLID, GraphQLNonNull, type GraphQLFieldConfigArgumentMap, type GraphQLObjectType } from 'graphql';
import type { ContentType, Model } from '../../model/types.js';
import { parseDocumentParams, type PopulateTree } from '../../query/index.js';
import type { GraphqlExtensionService } from '../extension.js';
import { I18NLocaleCodeScalar } from '../scalars.js';
import { fieldGroups, mergedSelection } from '../selection.js';
import { wrapperJson } from '../compiled-path.js';
import { collectionJson, type AnswerForm, type CrudShape, type Entry, type EntryForm, type ListForm, type CrudFields, type Version } from '../shadow-crud.js';
import { V4TypeRegistry } from './types.js';
import { attributesSelection, entityShape, v4Style } from './selection.js';

/**
 * Strapi v4's shadow CRUD schema, the seed's shape: `<plural>(filters, pagination, sort, publicationState,
 * locale)` → `{ data: [{ id, attributes }], meta }`, `<singular>(id)` → `{ data }`, `create<Type>(data)`,
 * `update<Type>(id, data)`, `delete<Type>(id)`. `id` is the documentId. Users and roles have their queries too.
 *
 * Versions, as v4 answered: LIVE reads published versions; PREVIEW each document's latest content (its draft),
 * with `publishedAt` set when it has a published version. `<singular>(id)` and mutations answer that latest
 * content too; nested lists of Draft & Publish types follow their own `publicationState` (default LIVE).
 */
export function v4CrudShape(model: Model, ext: GraphqlExtensionService): CrudShape {
  const registry = new V4TypeRegistry(model, ext);
  const localeArg = (ct: ContentType): GraphQLFieldConfigArgumentMap => (ct.localized ? { locale: { type: I18NLocaleCodeScalar } } : {});
  /** A document's latest content, in any locale (v4's ids named one locale's entry). */
  const latest = (ct: ContentType): Version => ({ status: ct.draftAndPublish ? 'draft' : undefined, locale: ct.localized ? '*' : undefined });
  const response = (ct: ContentType) => entityResponse(registry.entityResponse(ct));

  return {
    registry,
    style: v4Style,
    preview: true,
    // Strapi v4 kept one row per entry: there was no second version of a target to answer.
    mutationAnswersEveryLinkedVersion: false,
    exposes: (ct) => !ct.plugin || ct.uid === 'plugin::upload.file' || ct.plugin === 'users-permissions',
    lists: (ct, names) => [{ name: names.plural, form: entityCollection(registry.entityResponseCollection(ct)) }],
    listArgs: (ct) => ({ ...(ct.draftAndPublish ? { publicationState: { type: registry.publicationState, defaultValue: 'LIVE' } } : {}), ...localeArg(ct) }),
    listVersion: (_ct, args) => ({ status: args.publicationState === 'PREVIEW' ? 'draft' : 'published', locale: args.locale === 'all' ? '*' : args.locale }),
    one: (ct, names) => ({
      name: names.single,
      action: 'findOne',
      args: { id: { type: GraphQLID }, ...localeArg(ct) },
      form: response(ct),
      target: (args) => ({ documentId: args.id === undefined || args.id === null ? null : String(args.id), ...latest(ct) }),
    }),
    create: (fields) => ({
      type: registry.entityResponse(fields.ct),
      args: { data: { type: new GraphQLNonNull(registry.input(fields.ct)) }, ...localeArg(fields.ct) },
      resolve: (_root, args, context, info) => {
        const { data, publish } = splitPublishedAt(args.data as Entry);
        // A draft is checked whole, as Strapi v4 checked every write (Strapi 5 leaves required values for publish).
        const status = publish ? 'published' : 'draft';
        return fields.written(response(fields.ct), latest(fields.ct), context, info, (trx) => trx.createDocument({ data, status, locale: args.locale as string | undefined, wholeDraft: true }));
      },
    }),
    update: (fields) => ({
      type: registry.entityResponse(fields.ct),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, data: { type: new GraphQLNonNull(registry.input(fields.ct)) }, ...localeArg(fields.ct) },
      resolve: async (_root, args, context, info) => {
        const documentId = String(args.id);
        const locale = args.locale as string | undefined;
        const { data, publish } = splitPublishedAt(args.data as Entry);
        // v4 edits the entry in place: a published entry stays published unless `publishedAt: null` says otherwise.
        const keepPublished = publish === undefined && fields.ct.draftAndPublish && (await isPublished(fields, documentId, locale));
        return fields.written(response(fields.ct), latest(fields.ct), context, info, async (trx) => {
          const status = publish || keepPublished ? 'published' : 'draft';
          if (!(await trx.updateDocument({ documentId, data, status, locale, wholeDraft: true }))) return null;
          if (publish === false) await trx.unpublish({ documentId, locale });
          return documentId;
        });
      },
    }),
    delete: (fields) => ({
      type: registry.entityResponse(fields.ct),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, ...localeArg(fields.ct) },
      resolve: async (_root, args, context, info) => {
        const documentId = String(args.id);
        const spec = (await fields.spec(response(fields.ct), latest(fields.ct), context.request, info, 'one', false))!;
        const text = await fields.documents.findOneJson(spec, documentId);
        if (text === null) return { data: null };
        await fields.documents.delete({ documentId, locale: args.locale as string | undefined });
        // The deleted entry, as v4 answered it: its links went with it.
        return { data: withoutRelations(fields.ct, JSON.parse(text) as Entry, spec.populate) };
      },
    }),
  };
}

/** Entries as entities (`{ id, attributes }`) in `wrapper`'s `data`: the selection under `data { attributes }` is theirs. */
function entities(wrapper: GraphQLObjectType): AnswerForm {
  return {
    type: wrapper,
    selection: (info) => attributesSelection(wrapper, info.fieldNodes, info),
    entry: (fields, info) => entityShape(wrapper, info.fieldNodes, fields, info),
  };
}

/** `<Type>EntityResponseCollection`: `{ data: [{ id, attributes }], meta { pagination } }`, counted when `meta` is selected. */
function entityCollection(wrapper: GraphQLObjectType): ListForm {
  return {
    ...entities(wrapper),
    counts: (info) => fieldGroups(mergedSelection(info.fieldNodes), wrapper.name, info).some(([, nodes]) => nodes[0].name.value === 'meta'),
    json: (entries, page, info) => collectionJson(wrapper, entries, page, info),
    value: (data, pagination) => ({ data, meta: { pagination } }),
  };
}

/** `<Type>EntityResponse`: `{ data: { id, attributes } }` (`data` null: none). */
function entityResponse(wrapper: GraphQLObjectType): EntryForm {
  return {
    ...entities(wrapper),
    json: (text, info) => wrapperJson(wrapper, info, { data: text ?? 'null' }),
    value: (data) => ({ data }),
  };
}

/** `publishedAt` in v4 input: a date publishes, null unpublishes (a draft on create), absent changes nothing. */
function splitPublishedAt(input: Entry): { data: Entry; publish: boolean | undefined } {
  const { publishedAt, ...data } = input;
  return { data, publish: publishedAt === undefined ? undefined : publishedAt !== null };
}

async function isPublished(fields: CrudFields, documentId: string, locale: string | undefined): Promise<boolean> {
  const spec = parseDocumentParams(fields.host.model, fields.ct, { fields: [], locale }, fields.readOptions({ can: () => true }));
  return (await fields.documents.findOneJson(spec, documentId)) !== null;
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
