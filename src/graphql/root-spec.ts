import type { GraphQLObjectType, GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import type { ContentType } from '../model/types.js';
import { parseDocumentParams, type Filter, type OutputShape, type ReadSpec } from '../query/index.js';
import { readSelection, type ReadStyle } from './read-selection.js';
import type { GraphqlOptions } from './schema.js';
import { findAction } from '../auth/access-control.js';
import { cachedSpec } from './spec-cache.js';

/** What a root field reads: its entries' type and selection, in a shape's style. */
export interface RootRead {
  ct: ContentType;
  style: ReadStyle;
  type: GraphQLObjectType;
  selection: SelectionSetNode;
  /** One entry's JSON from the shape of its fields (v4 wraps it as `{ id, attributes }`). */
  entry?: (fields: OutputShape) => OutputShape | undefined;
  /** v4's PREVIEW: draft rows answer with `publishedAt` of their published version. */
  preview?: boolean;
  /** A condition on the entries besides the `filters` argument (Strapi 5's `publicationFilter`). */
  filter?: Filter;
}

/**
 * The spec of a root field: its arguments (`params`, the REST read parameters) and what its selection reads,
 * cached per field node, variables and caller (spec-cache.ts). `shaped`: the compiled path, where the statement
 * builds each entry exactly as the response has it; undefined when only field resolvers can answer.
 */
export async function rootSpec(
  cairn: Cairn,
  options: GraphqlOptions,
  read: RootRead,
  params: () => Record<string, unknown>,
  request: FastifyRequest,
  info: GraphQLResolveInfo,
  tag: string,
  shaped = false,
): Promise<ReadSpec | undefined> {
  // The action itself was checked by finalizeSchema's wrapper; the caller still decides which populated types it reads.
  const caller = await cairn.access.caller(request);
  return cachedSpec(info, caller, `${tag}:${shaped}`, () => {
    const readOpts = readOptions(cairn, caller);
    const selectionOptions = { populate: { model: cairn.model, canFind: readOpts.canFind }, amountLimit: options.amountLimit, shaped, customized: options.customized };
    const selection = readSelection(read.style, selectionOptions, read.ct, read.type, read.selection, info);
    const spec = parseDocumentParams(cairn.model, read.ct, { ...params(), fields: selection.fields }, { ...readOpts, maxLimit: options.amountLimit });
    const shape = shaped ? (read.entry ? read.entry(selection.shape) : selection.shape) : undefined;
    if (shaped && (!selection.compilable || !shape)) return undefined;
    const filters = read.filter ? (spec.filters ? { kind: 'and' as const, items: [spec.filters, read.filter] } : read.filter) : spec.filters;
    return { ...spec, filters, populate: selection.populate, preview: read.preview === true && spec.status === 'draft', shape };
  });
}

/** Read options of a GraphQL read for this caller (populate omits the types it may not find). */
export function readOptions(cairn: Cairn, caller: { can(a: string): boolean }) {
  return {
    ...cairn.config.api.rest,
    maxLimit: Math.max(cairn.config.api.rest.maxLimit, 1),
    locales: cairn.locales.map((l) => l.code),
    defaultLocale: cairn.defaultLocale,
    canFind: (uid: string) => caller.can(findAction(uid)),
  };
}
