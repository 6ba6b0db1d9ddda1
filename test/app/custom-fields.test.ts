import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCairn } from '../../src/app/cairn.js';
import { ModelError } from '../../src/errors/index.js';
import { describeEachDialect, freshDatabaseConfig } from '../helpers/databases.js';
import { startTestApp, writeApp, type TestApp } from '../helpers/app.js';

const theme = {
  kind: 'collectionType',
  collectionName: 'themes',
  info: { singularName: 'theme', pluralName: 'themes', displayName: 'Theme' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    // Strapi's own color picker, and a field of a plugin Cairn does not run, which the app declares.
    accent: { type: 'customField', customField: 'plugin::color-picker.color', regex: '^#[0-9a-f]{6}$' },
    rating: { type: 'customField', customField: 'plugin::rating.stars', min: 1, max: 5 },
  },
};
const declares = `module.exports = { register({ strapi }) {
  strapi.customFields.register({ name: 'stars', plugin: 'rating', type: 'integer' });
} };`;

describeEachDialect('custom fields in an app', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, { contentTypes: { theme }, index: declares });
  });
  afterAll(async () => app?.close());

  it('are served as their underlying types, with those types\' checks', async () => {
    const created = await app.request('POST', '/api/themes', { data: { name: 'dark', accent: '#102030', rating: 4 } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'dark', accent: '#102030', rating: 4 });
    const found = await app.request('GET', `/api/themes?filters[rating][$gte]=4&filters[accent][$startsWith]=%2310`);
    expect(found.body.data.map((t: { name: string }) => t.name)).toEqual(['dark']);
    const bad = await app.request('POST', '/api/themes', { data: { accent: 'red', rating: 'many' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((e: { path: string[] }) => e.path.join('.')).sort()).toEqual(['accent', 'rating']);
    expect((await app.request('POST', '/api/themes', { data: { rating: 9 } })).status).toBe(400);
  });
});

it('an undeclared custom field stops the start naming the attribute and how to declare it', async () => {
  const dir = writeApp({ contentTypes: { theme } });
  const database = await freshDatabaseConfig('sqlite');
  try {
    const error = await createCairn({ dir, config: { database: database.config } as never }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelError);
    expect((error as Error).message).toBe(
      'src/api/theme/content-types/theme/schema.json (attribute "rating"): custom field "plugin::rating.stars" is not known to Cairn: ' +
        "declare the type it is stored as in register() of src/index.js, e.g. strapi.customFields.register({ name: 'stars', plugin: 'rating', type: 'string' })",
    );
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});
