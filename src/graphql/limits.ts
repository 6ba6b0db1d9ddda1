import { PaginationError, ValidationError } from '../errors/index.js';
import type { PageSizes } from './config.js';
import { GraphQLError, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/**
 * `depthLimit`: the deepest field of an operation (root fields are depth 0), fragments followed, must not exceed
 * the limit. A validation rule, so a too-deep query is rejected before anything runs.
 */
export function depthLimitRule(limit: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === 'FragmentDefinition') fragments.set(definition.name.value, definition);
    }
    const depth = (set: SelectionSetNode | undefined, level: number, seen: Set<string>): number => {
      let max = level;
      for (const selection of set?.selections ?? []) {
        if (selection.kind === 'Field') {
          if (selection.name.value.startsWith('__')) continue;
          max = Math.max(max, selection.selectionSet ? depth(selection.selectionSet, level + 1, seen) : level);
        } else if (selection.kind === 'InlineFragment') max = Math.max(max, depth(selection.selectionSet, level, seen));
        else if (!seen.has(selection.name.value)) {
          const fragment = fragments.get(selection.name.value);
          if (fragment) max = Math.max(max, depth(fragment.selectionSet, level, new Set([...seen, selection.name.value])));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const found = depth(node.selectionSet, 0, new Set());
        if (found > limit) {
          context.reportError(new GraphQLError(`'${node.name?.value ?? ''}' exceeds maximum operation depth of ${limit}`, { nodes: [node] }));
        }
      },
    };
  };
}

/**
 * A root list's pagination: a size not given (or null) is the default, one above `maxLimit` is `maxLimit` (Strapi's
 * withDefaultPagination), and `amountLimit` caps them all; -1 means the largest allowed.
 */
export function capPagination(pagination: Record<string, number | null> | undefined, amountLimit: number, sizes: PageSizes) {
  const p = { ...(pagination ?? {}) };
  const cap = Math.min(sizes.max, amountLimit);
  const size = (given: number | null | undefined) => (given === undefined || given === null ? Math.min(sizes.default, amountLimit) : given === -1 ? cap : Math.min(given, cap));
  const offsetForm = (p.start !== undefined && p.start !== null) || (p.limit !== undefined && p.limit !== null);
  if (offsetForm) p.limit = size(p.limit);
  else p.pageSize = size(p.pageSize);
  return p;
}

/**
 * The part of a nested list that its `pagination` argument asks for, capped by `maxLimit` and amountLimit: none
 * given, the first `defaultLimit` items (10 unless configured, as for root lists); `start`/`limit`; or
 * `page`/`pageSize`, each size the default when not given. Sizes under 1, a page under 1 or a negative start are
 * bad input, and so is mixing both forms, as at the top level.
 */
export function nestedWindow(pagination: Record<string, number> | undefined, amountLimit: number, sizes: PageSizes): { start: number; limit: number } {
  const cap = Math.min(amountLimit, sizes.max);
  const defaultSize = Math.min(sizes.default, cap);
  const p = pagination ?? {};
  const offsetForm = p.start !== undefined || p.limit !== undefined;
  if (offsetForm && (p.page !== undefined || p.pageSize !== undefined)) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  if (offsetForm) {
    if ((p.start ?? 0) < 0) throw new ValidationError('pagination.start must be 0 or more');
    if (p.limit !== undefined && p.limit < 1 && p.limit !== -1) throw new ValidationError('pagination.limit must be 1 or more');
    const limit = p.limit === undefined ? defaultSize : p.limit === -1 ? cap : Math.min(p.limit, cap);
    return { start: p.start ?? 0, limit };
  }
  if (p.page === undefined && p.pageSize === undefined) return { start: 0, limit: defaultSize };
  if ((p.page ?? 1) < 1) throw new ValidationError('pagination.page must be 1 or more');
  if ((p.pageSize ?? defaultSize) < 1) throw new ValidationError('pagination.pageSize must be 1 or more');
  const size = Math.min(p.pageSize ?? defaultSize, cap);
  return { start: ((p.page ?? 1) - 1) * size, limit: size };
}

/**
 * Introspection off (production, unless configured on): one error per operation that asks for `__schema` or
 * `__type`, worded as the reference words it.
 */
export function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  let reported = false;
  return {
    Field(node) {
      if (reported || (node.name.value !== '__schema' && node.name.value !== '__type')) return;
      reported = true;
      context.reportError(
        new GraphQLError(
          'GraphQL introspection is not allowed, but the query contained __schema or __type. To enable introspection, set introspection: true in the graphql plugin config',
          { nodes: [node], extensions: { validationErrorCode: 'INTROSPECTION_DISABLED' } },
        ),
      );
    },
  };
}

/**
 * Cairn serves queries and mutations: a subscription is refused as invalid (HTTP 400), like any operation the
 * schema cannot run, before anything executes.
 */
export function noSubscriptionsRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(node) {
      if (node.operation !== 'subscription') return;
      context.reportError(new GraphQLError('Subscriptions are not supported: Cairn serves queries and mutations only', { nodes: [node] }));
    },
  };
}
