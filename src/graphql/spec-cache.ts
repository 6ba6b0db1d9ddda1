import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { Caller } from '../auth/access-control.js';
import type { ReadSpec } from '../query/index.js';

const MAX_PER_FIELD = 64;
const specs = new WeakMap<FieldNode, Map<string, unknown>>();

/**
 * The read spec of a root field, built once per field node of a cached document, variables, caller permissions
 * and `tag`: a repeated query skips walking its selection and validating it, and reuses its compiled SQL (the
 * document service caches compiled statements per spec object). Documents are cached per query text, so their
 * field nodes are stable; a document evicted from that cache takes its specs with it.
 */
export function cachedSpec<T extends ReadSpec | undefined>(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'variableValues'>, caller: Caller, tag: string, build: () => T): T {
  const node = info.fieldNodes[0];
  let byKey = specs.get(node);
  if (!byKey) specs.set(node, (byKey = new Map()));
  const key = `${caller.key}\u0000${tag}\u0000${JSON.stringify(info.variableValues)}`;
  let spec = byKey.get(key) as T | undefined;
  if (!byKey.has(key)) {
    spec = build();
    if (byKey.size >= MAX_PER_FIELD) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, spec);
  }
  return spec as T;
}
