import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestSchemas } from '../helpers/app.js';

/**
 * A repeatable component field takes a list's arguments in GraphQL, as Strapi's (`getContentTypeArgs(component,
 * { multiple: true })`: `filters`, `pagination`, `sort`); its items are filtered, sorted and windowed in the read's
 * SQL (Strapi's component resolver: a window of `defaultLimit`, 10, when no pagination is given).
 */
const model = (graphql: Record<string, unknown>): TestSchemas => ({
  contentTypes: {
    label: {
      kind: 'collectionType',
      collectionName: 'labels',
      info: { singularName: 'label', pluralName: 'labels', displayName: 'Label' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        colors: { type: 'component', repeatable: true, component: 'default.rgb-color' },
        main: { type: 'component', repeatable: false, component: 'default.rgb-color' },
      },
    },
  },
  components: {
    'default.rgb-color': {
      collectionName: 'components_default_rgb_colors',
      info: { displayName: 'rgb-color' },
      attributes: { name: { type: 'string' }, red: { type: 'integer' } },
    },
  },
  config: { plugins: { graphql: { config: graphql } } },
});

const colors = Array.from({ length: 12 }, (_, i) => ({ name: `c${String(i).padStart(2, '0')}`, red: (i * 7) % 12 }));

for (const [shape, graphql, list] of [
  ['Strapi 5', {}, (fields: string) => `labels { name COLORS }`.replace('COLORS', fields)],
  ['Strapi 5, v4CompatibilityMode', { v4CompatibilityMode: true }, (fields: string) => `labels_connection { data { attributes { name COLORS } } }`.replace('COLORS', fields)],
  ['the seed\'s v4 shape', { shape: 'v4' }, (fields: string) => `labels { data { attributes { name COLORS } } }`.replace('COLORS', fields)],
] as const) {
  describeEachDialect(`GraphQL (${shape}): a repeatable component's filters, sort and pagination`, (dialect) => {
    let app: TestApp;
    /** The `colors` items' names of the one label, for the arguments given. */
    const names = async (args: string, fields = 'name') => {
      const res = await app.request('POST', '/graphql', { query: `{ ${list(`colors${args} { ${fields} }`)} }` });
      if (res.body.errors) return { errors: res.body.errors.map((e: { message: string }) => e.message) };
      const data = res.body.data;
      const label = shape === 'Strapi 5' ? data.labels[0] : shape === 'the seed\'s v4 shape' ? data.labels.data[0].attributes : data.labels_connection.data[0].attributes;
      return (label.colors as Array<{ name: string }>).map((c) => c.name);
    };
    beforeAll(async () => {
      app = await startTestApp(dialect, model(graphql));
      const res = await app.request('POST', '/api/labels', { data: { name: 'palette', colors, main: colors[0] } });
      expect(res.status).toBe(201);
    });
    afterAll(async () => app?.close());

    it('without arguments: the first 10 items, in their stored order', async () => {
      expect(await names('')).toEqual(colors.slice(0, 10).map((c) => c.name));
    });

    it('filters keep the matching items', async () => {
      expect(await names('(filters: { red: { eq: 0 } })')).toEqual(['c00']);
      expect(await names('(filters: { red: { gte: 10 } })')).toEqual(colors.filter((c) => c.red >= 10).map((c) => c.name));
      expect(await names('(filters: { or: [{ name: { eq: "c03" } }, { name: { eq: "c11" } }] })')).toEqual(['c03', 'c11']);
    });

    it('sort orders the items, pagination windows them', async () => {
      expect(await names('(sort: "name:desc", pagination: { limit: 3 })')).toEqual(['c11', 'c10', 'c09']);
      expect(await names('(sort: ["red:asc", "name:asc"], pagination: { start: 1, limit: 2 })')).toEqual(
        [...colors].sort((a, b) => a.red - b.red || a.name.localeCompare(b.name)).slice(1, 3).map((c) => c.name),
      );
      expect(await names('(pagination: { page: 2, pageSize: 5 })')).toEqual(['c05', 'c06', 'c07', 'c08', 'c09']);
      expect(await names('(pagination: { limit: -1 })')).toHaveLength(12);
    });

    it('bad arguments are refused with the errors of a relation\'s', async () => {
      expect(await names('(filters: { nope: { eq: 1 } })')).toEqual({ errors: [expect.stringContaining('nope')] });
      expect(await names('(sort: "nope:asc")')).toEqual({ errors: [expect.stringContaining('nope')] });
      expect(await names('(pagination: { page: 1, limit: 2 })')).toEqual({ errors: ['Cannot use both page & offset pagination in the same query'] });
      // A single component takes no arguments.
      const res = await app.request('POST', '/graphql', { query: `{ ${list('main(pagination: { limit: 1 }) { name }')} }` });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toContain('Unknown argument "pagination"');
    });
  });
}
