import {
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type SelectionSetNode,
  type ValueNode,
  type ValidationContext,
} from 'graphql';

/** What one operation may cost; each limit is a `graphql.config` key of the same name. */
export interface OperationBudget {
  /** Aliased fields, fragments expanded. */
  maxAliases: number;
  /** Field selections, fragments expanded (each spread of a fragment counts its fields again). */
  maxFields: number;
  /** List items the answer can hold at most, nested lists multiplied. */
  maxItems: number;
  /** The cap on a list's page size, and the size `limit: -1` or a size given by a variable may reach. */
  amountLimit: number;
  /** The size of a list whose size is not given. */
  defaultPageSize: number;
}

/** What an operation was measured at; `items` per item of the list above it (scaled by the caller). */
interface Cost {
  aliases: number;
  fields: number;
  items: number;
}

const LIMITS = [
  ['maxAliases', 'aliases', 'aliases'],
  ['maxFields', 'fields', 'field selections'],
  ['maxItems', 'items', 'list items'],
] as const;

/**
 * Bounds what one operation may cost before anything runs: its aliases, its field selections and the list items
 * its answer can hold at most. Without it, one request of 5,000 aliases of a 100-item list asks for 500,000
 * entries (37 MB of JSON, 1.7 s, 160 MB more memory on the example app), under every depth and page-size limit.
 *
 * Items are a worst case computed from the document alone (so the result is cached with it): a field with a
 * `pagination` argument holds the page it asks for (`pageSize` or `limit`, 10 when not given, capped by
 * `amountLimit`; `-1` and a size given by a variable count as `amountLimit`), applied to the list it returns or, for
 * a wrapper (`{ data }`, `{ nodes }`), to the list directly inside it. A list without one (repeatable components,
 * dynamic zones) counts as `defaultPageSize`. Nested lists multiply; aliases and fragment spreads count every
 * time they appear. Fragments are measured once each (memoized), so a document of fragments spreading each other
 * twice per level is measured in linear time, and a fragment cycle (reported by the specified rules) counts as
 * empty rather than recursing forever. Introspection (`__schema`, `__type`) counts its fields and aliases but no
 * items: its lists are as long as the schema, not the data.
 */
export function operationCostRule(budget: OperationBudget) {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === 'FragmentDefinition') fragments.set(definition.name.value, definition);
    }
    const measured = new Map<string, Cost>();
    const inProgress = new Set<string>();

    /** `pending`: the page of the wrapper field just above, applied to the first list inside it. */
    const measure = (set: SelectionSetNode, parent: GraphQLCompositeType | undefined, pending: number | undefined, introspection: boolean): Cost => {
      const cost: Cost = { aliases: 0, fields: 0, items: 0 };
      const add = (part: Cost, multiplier = 1) => {
        cost.aliases += part.aliases;
        cost.fields += part.fields;
        cost.items += part.items * multiplier;
      };
      for (const selection of set.selections) {
        if (selection.kind === 'Field') {
          cost.fields += 1;
          if (selection.alias) cost.aliases += 1;
          const name = selection.name.value;
          const inIntrospection = introspection || name === '__schema' || name === '__type';
          const field = parent && (isObjectType(parent) || isInterfaceType(parent)) ? (parent.getFields()[name] as GraphQLField<unknown, unknown> | undefined) : undefined;
          if (!selection.selectionSet) continue;
          const child = field ? getNamedType(field.type) : undefined;
          const childType = child && isCompositeType(child) ? child : undefined;
          const list = field !== undefined && isListType(getNullableType(field.type));
          const page = field?.args.some((arg) => arg.name === 'pagination') ? pageOf(selection.arguments?.find((arg) => arg.name.value === 'pagination')?.value, budget) : undefined;
          let size = 1;
          let childPending: number | undefined;
          if (list) size = page ?? pending ?? budget.defaultPageSize;
          else childPending = page;
          const inner = measure(selection.selectionSet, childType, childPending, inIntrospection);
          if (list && !inIntrospection) cost.items += size;
          add(inner, size);
        } else if (selection.kind === 'InlineFragment') {
          const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          add(measure(selection.selectionSet, condition && isCompositeType(condition) ? condition : undefined, pending, introspection));
        } else {
          add(spread(selection.name.value, pending, introspection));
        }
      }
      return cost;
    };

    const spread = (name: string, pending: number | undefined, introspection: boolean): Cost => {
      const key = `${name}\u0000${pending ?? ''}\u0000${introspection}`;
      const known = measured.get(key);
      if (known) return known;
      const fragment = fragments.get(name);
      if (!fragment || inProgress.has(name)) return { aliases: 0, fields: 0, items: 0 };
      inProgress.add(name);
      const condition = schema.getType(fragment.typeCondition.name.value);
      const cost = measure(fragment.selectionSet, condition && isCompositeType(condition) ? condition : undefined, pending, introspection);
      inProgress.delete(name);
      measured.set(key, cost);
      return cost;
    };

    return {
      OperationDefinition(node) {
        const root = node.operation === 'query' ? schema.getQueryType() : node.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
        const cost = measure(node.selectionSet, root ?? undefined, undefined, false);
        const operation = node.name ? `Operation '${node.name.value}'` : 'The operation';
        for (const [limit, measure, noun] of LIMITS) {
          if (cost[measure] <= budget[limit]) continue;
          const found = Number.isSafeInteger(cost[measure]) ? String(cost[measure]) : `more than ${Number.MAX_SAFE_INTEGER}`;
          const message = `${operation} has ${found} ${noun}, more than graphql.config.${limit} allows (${budget[limit]})`;
          context.reportError(new GraphQLError(message, { nodes: [node], extensions: { error: { name: 'ValidationError', message, details: { limit, max: budget[limit], found: cost[measure] } } } }));
          return;
        }
      },
    };
  };
}

/** The largest page a `pagination` argument can ask for (see `capPagination` and `nestedWindow`). */
function pageOf(value: ValueNode | undefined, budget: OperationBudget): number {
  if (!value || value.kind === 'NullValue') return Math.min(budget.defaultPageSize, budget.amountLimit);
  if (value.kind !== 'ObjectValue') return budget.amountLimit; // a variable: any size up to the cap
  let size: number | undefined;
  for (const member of value.fields) {
    if (member.name.value !== 'pageSize' && member.name.value !== 'limit') continue;
    const given = member.value.kind === 'IntValue' ? Number(member.value.value) : undefined;
    // -1 asks for the cap; a variable may; 0 and negatives are refused when the field runs, counted at the cap here.
    const page = given !== undefined && given >= 1 ? Math.min(given, budget.amountLimit) : budget.amountLimit;
    size = Math.max(size ?? 0, page);
  }
  return size ?? Math.min(budget.defaultPageSize, budget.amountLimit);
}
