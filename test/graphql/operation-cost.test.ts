import { describe, expect, it } from 'vitest';
import { buildSchema, parse, validate } from 'graphql';
import { operationCostRule, type OperationBudget } from '../../src/graphql/operation-cost.js';

// Both shapes Cairn generates: v4's wrappers (`{ data }` under the paginated field), v5's plain lists and
// `_connection { nodes }`, a repeatable component and a dynamic zone (lists without pagination).
const schema = buildSchema(`
  input PaginationArg { page: Int pageSize: Int start: Int limit: Int }
  type Query {
    restaurants(pagination: PaginationArg = {}): RestaurantEntityResponseCollection
    restaurantsFlat(pagination: PaginationArg = {}): [Restaurant]!
    restaurants_connection(pagination: PaginationArg = {}): RestaurantConnection
    restaurant(id: ID): RestaurantEntityResponse
  }
  type RestaurantEntityResponseCollection { data: [RestaurantEntity!]! meta: Meta! }
  type Meta { pagination: Pagination! }
  type Pagination { total: Int }
  type RestaurantEntityResponse { data: RestaurantEntity }
  type RestaurantEntity { id: ID attributes: Restaurant }
  type RestaurantConnection { nodes: [Restaurant!]! }
  type Restaurant {
    name: String
    tags: [String]
    categories(pagination: PaginationArg = {}): CategoryRelationResponseCollection
    categoriesFlat(pagination: PaginationArg = {}): [Category]!
    menu: [Dish]!
    blocks: [Block]!
  }
  type CategoryRelationResponseCollection { data: [CategoryEntity!]! }
  type CategoryEntity { id: ID attributes: Category }
  type Category { name: String restaurants(pagination: PaginationArg = {}): [Restaurant]! }
  type Dish { name: String }
  type Hero { title: String }
  union Block = Hero | Dish
`);

const loose: OperationBudget = { maxAliases: 1e15, maxFields: 1e15, maxItems: 1e15, amountLimit: 100, defaultPageSize: 10 };

/** The measure of one kind (aliases, fields or items), read from the rule's error at a limit of 0. */
function measure(query: string, kind: 'maxAliases' | 'maxFields' | 'maxItems', budget: Partial<OperationBudget> = {}): number {
  const errors = validate(schema, parse(query), [operationCostRule({ ...loose, ...budget, [kind]: 0 })]);
  if (errors.length === 0) return 0;
  return (errors[0].extensions as { error: { details: { found: number } } }).error.details.found;
}
const items = (query: string, budget: Partial<OperationBudget> = {}) => measure(query, 'maxItems', budget);

describe('operationCostRule: the items an answer can hold', () => {
  it('a list holds the page asked (10 when not given), capped by amountLimit; -1, 0 and variables count at the cap', () => {
    expect(items('{ restaurants { data { id } } }')).toBe(10);
    expect(items('{ restaurants(pagination: { pageSize: 25 }) { data { id } } }')).toBe(25);
    expect(items('{ restaurants(pagination: { start: 5, limit: 7 }) { data { id } } }')).toBe(7);
    expect(items('{ restaurants(pagination: { pageSize: 5000 }) { data { id } } }')).toBe(100);
    expect(items('{ restaurants(pagination: { limit: -1 }) { data { id } } }')).toBe(100);
    expect(items('{ restaurants(pagination: { pageSize: 0 }) { data { id } } }')).toBe(100);
    expect(items('{ restaurants(pagination: null) { data { id } } }')).toBe(10);
    expect(items('query($p: PaginationArg) { restaurants(pagination: $p) { data { id } } }')).toBe(100);
    expect(items('query($n: Int) { restaurants(pagination: { page: 2, pageSize: $n }) { data { id } } }')).toBe(100);
    expect(items('{ restaurants(pagination: { pageSize: 50 }) { data { id } } }', { amountLimit: 20 })).toBe(20);
    expect(items('{ restaurants { data { id } } }', { amountLimit: 4 })).toBe(4);
  });

  it('the page applies to the list in a wrapper, not to its other members; single entries and scalar lists hold none', () => {
    expect(items('{ restaurants(pagination: { pageSize: 30 }) { meta { pagination { total } } } }')).toBe(0);
    expect(items('{ restaurant(id: "x") { data { id attributes { name tags } } } }')).toBe(0);
    expect(items('{ restaurants_connection(pagination: { pageSize: 30 }) { nodes { name } } }')).toBe(30);
    expect(items('{ restaurantsFlat(pagination: { pageSize: 30 }) { name } }')).toBe(30);
  });

  it('nested lists multiply; lists without pagination count 10; every alias counts', () => {
    const nested = '{ restaurants(pagination: { pageSize: 100 }) { data { attributes { categories(pagination: { pageSize: 50 }) { data { id } } } } } }';
    expect(items(nested)).toBe(100 + 100 * 50);
    expect(items('{ restaurantsFlat(pagination: { pageSize: 20 }) { categoriesFlat { restaurants(pagination: { limit: 3 }) { name } } } }')).toBe(20 + 200 + 600);
    expect(items('{ restaurantsFlat { menu { name } blocks { __typename } } }')).toBe(10 + 100 + 100);
    expect(items('{ a: restaurantsFlat(pagination: { pageSize: 100 }) { name } b: restaurantsFlat(pagination: { pageSize: 100 }) { name } }')).toBe(200);
  });

  it('fragments count where they are spread, inline or named, with the page of the field around them', () => {
    const named = 'query { restaurants(pagination: { pageSize: 40 }) { ...List } } fragment List on RestaurantEntityResponseCollection { data { attributes { ...Cats } } } fragment Cats on Restaurant { categoriesFlat(pagination: { pageSize: 2 }) { name } }';
    expect(items(named)).toBe(40 + 80);
    expect(items('{ restaurantsFlat { ... on Restaurant { menu { name } } } }')).toBe(10 + 100);
    expect(items('{ restaurantsFlat { blocks { ... on Dish { name } ... on Hero { title } } } }')).toBe(110);
  });

  it('introspection holds no items; its fields count', () => {
    expect(items('{ __schema { types { fields { name } } } }')).toBe(0);
    expect(measure('{ __schema { types { fields { name } } } }', 'maxFields')).toBe(4);
  });
});

describe('operationCostRule: aliases and fields', () => {
  it('counts aliases and field selections with fragments expanded at every spread', () => {
    const query = '{ a: restaurantsFlat { ...F } b: restaurantsFlat { ...F } } fragment F on Restaurant { x: name y: name }';
    expect(measure(query, 'maxAliases')).toBe(2 + 4);
    expect(measure(query, 'maxFields')).toBe(2 + 4);
  });

  it('a fragment bomb (each fragment spreads the next twice) is measured without expanding it', () => {
    const levels = 60;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment F${i} on Restaurant { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : 'name'} }`).join(' ');
    const started = performance.now();
    const found = measure(`{ restaurantsFlat { ...F0 } } ${fragments}`, 'maxFields');
    expect(performance.now() - started).toBeLessThan(500);
    expect(found).toBe(1 + 2 ** (levels - 1));
    const errors = validate(schema, parse(`{ restaurantsFlat { ...F0 } } ${fragments}`), [operationCostRule({ ...loose, maxFields: 1000 })]);
    expect(errors.map((e) => e.message)).toEqual([`The operation has more than ${Number.MAX_SAFE_INTEGER} field selections, more than graphql.config.maxFields allows (1000)`]);
  });

  it('a fragment cycle is left to the specified rules (no endless recursion)', () => {
    const cycle = '{ restaurantsFlat { ...A } } fragment A on Restaurant { name ...B } fragment B on Restaurant { ...A }';
    expect(measure(cycle, 'maxFields')).toBe(2);
  });

  it('fields the schema lacks still count (the specified rules report them)', () => {
    expect(measure('{ nope { a b } restaurantsFlat { missing } }', 'maxFields')).toBe(5);
  });
});

describe('operationCostRule: the error', () => {
  it('names the operation, the measure, the setting and its value; at the limit passes', () => {
    const query = 'query Home { a: restaurantsFlat { name } b: restaurantsFlat { name } c: restaurantsFlat { name } }';
    expect(validate(schema, parse(query), [operationCostRule({ ...loose, maxAliases: 3 })])).toEqual([]);
    const [error] = validate(schema, parse(query), [operationCostRule({ ...loose, maxAliases: 2 })]);
    expect(error.message).toBe("Operation 'Home' has 3 aliases, more than graphql.config.maxAliases allows (2)");
    expect(error.extensions).toEqual({ error: { name: 'ValidationError', message: error.message, details: { limit: 'maxAliases', max: 2, found: 3 } } });
    expect(validate(schema, parse(query), [operationCostRule({ ...loose, maxItems: 30 })])).toEqual([]);
    expect(validate(schema, parse(query), [operationCostRule({ ...loose, maxItems: 29 })])[0].message).toBe(
      "Operation 'Home' has 30 list items, more than graphql.config.maxItems allows (29)",
    );
  });
});
