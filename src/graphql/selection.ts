import {
  getArgumentValues,
  getNamedType,
  isObjectType,
  isUnionType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { Component, ContentType, Model } from '../model/types.js';

/** REST-shaped read parameters (what the REST query string would say), built from a GraphQL selection. */
export interface RestParams {
  fields: string[];
  populate: Record<string, unknown>;
}

const SYSTEM_FIELDS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);
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

/**
 * Walks a selection set on the type of `schema` and says what to read: its scalar fields, and a populate tree
 * for relations, media, components and dynamic zones, with the filters and sort of nested list fields. The
 * REST parser then validates it and the compiler turns the whole tree into one statement.
 */
export function selectionParams(
  model: Model,
  schema: ContentType | Component,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
): RestParams {
  const fields = new Set<string>();
  const populate: Record<string, Record<string, unknown>> = {};
  let extended = false;
  for (const node of collectFields(selectionSet, type.name, info)) {
    const name = node.name.value;
    if (name.startsWith('__') || name === 'documentId' || name === 'id') continue;
    const connection = name.endsWith('_connection');
    const base = connection ? name.slice(0, -'_connection'.length) : name;
    if (SYSTEM_FIELDS.has(base)) {
      fields.add(base);
      continue;
    }
    const field = type.getFields()[name];
    const attribute = base === 'localizations' ? undefined : schema.attributes.get(base);
    // A field an extension added (typeDefs, nexus): its resolver may read any attribute of the entry.
    if (!field) extended = true;
    if (!field || (!attribute && base !== 'localizations')) continue;
    if (attribute?.kind === 'scalar') {
      fields.add(base);
      continue;
    }
    const args = getArgumentValues(field, node, info.variableValues) as { filters?: unknown; sort?: unknown };
    const inner = connection ? collectFields(node.selectionSet, getNamedType(field.type).name, info).find((f) => f.name.value === 'nodes')?.selectionSet : node.selectionSet;
    const namedType = getNamedType(field.type);
    if (attribute?.kind === 'dynamiczone' && isUnionType(namedType)) {
      const on: Record<string, unknown> = {};
      for (const member of namedType.getTypes()) {
        const component = [...model.components.values()].find((c) => `Component${pascal(c.uid)}` === member.name);
        if (!component) continue;
        const sub = selectionParams(model, component, member, inner, info);
        on[component.uid] = { fields: sub.fields, populate: sub.populate };
      }
      populate[base] = { on };
      continue;
    }
    const nodeType = connection ? nodesType(namedType) : namedType;
    if (!isObjectType(nodeType)) continue;
    const target =
      base === 'localizations'
        ? schema
        : attribute?.kind === 'component'
          ? model.components.get(attribute.component)!
          : model.contentTypes.get((attribute as { target: string }).target)!;
    const sub = selectionParams(model, target, nodeType, inner, info);
    const entry: Record<string, unknown> = { fields: sub.fields, populate: sub.populate };
    if (attribute?.kind === 'relation' || attribute?.kind === 'media' || base === 'localizations') {
      if (args.filters) entry.filters = restFilters(args.filters);
      const sort = Array.isArray(args.sort) ? args.sort : args.sort ? [args.sort] : [];
      if (sort.length) entry.sort = sort;
    }
    populate[base] = entry;
  }
  if (extended) {
    for (const attribute of schema.attributes.values()) if (attribute.kind === 'scalar' && !schema.privateAttributes.has(attribute.name)) fields.add(attribute.name);
  }
  return { fields: [...fields], populate };
}

function nodesType(connectionType: unknown): unknown {
  if (!isObjectType(connectionType)) return connectionType;
  return getNamedType(connectionType.getFields().nodes.type);
}

function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}
