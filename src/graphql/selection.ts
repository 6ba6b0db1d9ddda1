import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

const FILTER_OPERATORS = new Set([
  'eq', 'eqi', 'ne', 'nei', 'lt', 'lte', 'gt', 'gte', 'in', 'notIn', 'contains', 'notContains', 'containsi', 'notContainsi',
  'null', 'notNull', 'between', 'startsWith', 'startsWithi', 'endsWith', 'endsWithi', 'and', 'or', 'not',
]);

/** `{ title: { startsWith: 'A' }, or: [...] }` → `{ title: { $startsWith: 'A' }, $or: [...] }`. */
export function restFilters(filters: unknown): unknown {
  if (Array.isArray(filters)) return filters.map(restFilters);
  if (filters === null || typeof filters !== 'object') return filters;
  return Object.fromEntries(Object.entries(filters).map(([k, v]) => [FILTER_OPERATORS.has(k) ? `$${k}` : k, restFilters(v)]));
}

/** The fields selected under a field node, fragments expanded, for one concrete type. */
export function collectFields(selectionSet: SelectionSetNode | undefined, typeName: string, info: GraphQLResolveInfo, out: FieldNode[] = []): FieldNode[] {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === 'Field') out.push(selection);
    else if (selection.kind === 'InlineFragment') {
      if (!selection.typeCondition || selection.typeCondition.name.value === typeName) collectFields(selection.selectionSet, typeName, info, out);
    } else {
      const fragment = info.fragments[selection.name.value];
      if (fragment && fragment.typeCondition.name.value === typeName) collectFields(fragment.selectionSet, typeName, info, out);
    }
  }
  return out;
}

/** The selected fields on `typeName`, grouped by response key in order (fields of one key merge, as GraphQL does). */
export function fieldGroups(selectionSet: SelectionSetNode | undefined, typeName: string, info: GraphQLResolveInfo): Array<[string, FieldNode[]]> {
  const groups = new Map<string, FieldNode[]>();
  for (const node of collectFields(selectionSet, typeName, info)) {
    const key = node.alias?.value ?? node.name.value;
    const group = groups.get(key);
    if (group) group.push(node);
    else groups.set(key, [node]);
  }
  return [...groups];
}

/** The selections of several field nodes as one selection set. */
export function mergedSelection(nodes: readonly FieldNode[]): SelectionSetNode {
  return { kind: Kind.SELECTION_SET, selections: nodes.flatMap((n) => n.selectionSet?.selections ?? []) };
}
