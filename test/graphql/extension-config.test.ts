import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCairn } from '../../src/app/cairn.js';
import { GraphqlExtensionService } from '../../src/graphql/index.js';
import { freshDatabaseConfig } from '../helpers/databases.js';
import { startTestApp } from '../helpers/app.js';
import { extensionModel, writeExtensionApp } from '../fixtures/graphql-extensions.js';

describe('GraphQL extension service: toggles and getters', () => {
  it('a type starts enabled in every respect', () => {
    const crud = new GraphqlExtensionService().shadowCRUD('api::article.article');
    expect([crud.isEnabled(), crud.isDisabled(), crud.areQueriesEnabled(), crud.areQueriesDisabled(), crud.areMutationsEnabled(), crud.areMutationsDisabled()]).toEqual([true, false, true, false, true, false]);
    for (const action of ['find', 'findOne', 'create', 'update', 'delete'] as const) expect([crud.isActionEnabled(action), crud.isActionDisabled(action)]).toEqual([true, false]);
  });

  it('shadowCRUD(uid) is one object per uid; setters chain', () => {
    const ext = new GraphqlExtensionService();
    expect(ext.shadowCRUD('api::a.a')).toBe(ext.shadowCRUD('api::a.a'));
    expect(ext.shadowCRUD('api::a.a').field('x')).toBe(ext.shadowCRUD('api::a.a').field('x'));
    expect(ext.shadowCRUD('api::a.a').disableQueries().disableAction('create')).toBe(ext.shadowCRUD('api::a.a'));
    expect(ext.configuredUids()).toEqual(['api::a.a']);
  });

  it('disable() turns off the type and with it every query, mutation and action', () => {
    const crud = new GraphqlExtensionService().shadowCRUD('api::a.a').disable();
    expect([crud.isEnabled(), crud.isDisabled(), crud.areQueriesEnabled(), crud.areMutationsEnabled(), crud.isActionEnabled('find'), crud.isActionDisabled('delete')]).toEqual([false, true, false, false, false, true]);
  });

  it('disableQueries() turns off find and findOne only; disableMutations() create, update and delete only', () => {
    const ext = new GraphqlExtensionService();
    const queries = ext.shadowCRUD('api::q.q').disableQueries();
    expect([queries.isEnabled(), queries.areQueriesDisabled(), queries.areMutationsEnabled()]).toEqual([true, true, true]);
    expect(['find', 'findOne', 'create', 'update', 'delete'].map((a) => queries.isActionEnabled(a as never))).toEqual([false, false, true, true, true]);
    const mutations = ext.shadowCRUD('api::m.m').disableMutations();
    expect([mutations.areQueriesEnabled(), mutations.areMutationsDisabled()]).toEqual([true, true]);
    expect(['find', 'findOne', 'create', 'update', 'delete'].map((a) => mutations.isActionEnabled(a as never))).toEqual([true, true, false, false, false]);
  });

  it('disableAction and disableActions turn off single actions; an unknown action or a non-array is refused', () => {
    const crud = new GraphqlExtensionService().shadowCRUD('api::a.a').disableAction('findOne').disableActions(['update', 'delete']);
    expect(['find', 'findOne', 'create', 'update', 'delete'].map((a) => crud.isActionDisabled(a as never))).toEqual([false, true, false, true, true]);
    expect([crud.areQueriesEnabled(), crud.areMutationsEnabled()]).toEqual([true, true]);
    expect(() => crud.disableAction('publish' as never)).toThrow("unknown action 'publish'");
    expect(() => crud.disableActions('find' as never)).toThrow('takes an array');
    expect(() => new GraphqlExtensionService().shadowCRUD('' as never)).toThrow('takes a content-type uid');
  });

  it('field toggles: disable() turns off everything; output, input and filters separately', () => {
    const crud = new GraphqlExtensionService().shadowCRUD('api::a.a');
    const state = (name: string) => {
      const f = crud.field(name);
      return [f.isEnabled(), f.isDisabled(), f.hasOutputEnabled(), f.hasInputEnabled(), f.hasFiltersEnabled()];
    };
    expect(state('plain')).toEqual([true, false, true, true, true]);
    crud.field('off').disable();
    expect(state('off')).toEqual([false, true, false, false, false]);
    crud.field('out').disableOutput();
    expect(state('out')).toEqual([true, false, false, true, true]);
    crud.field('in').disableInput();
    expect(state('in')).toEqual([true, false, true, false, true]);
    crud.field('filters').disableFilters();
    expect(state('filters')).toEqual([true, false, true, true, false]);
  });

  it('use() takes an object or a function, called only when the schema is built', () => {
    const ext = new GraphqlExtensionService();
    let calls = 0;
    ext.use({ typeDefs: 'type A { a: Int }' }).use(({ nexus }) => {
      calls += 1;
      return { typeDefs: `type B { b: ${nexus === 'N' ? 'Int' : 'String'} }` };
    });
    expect(calls).toBe(0);
    expect(ext.hasExtensions()).toBe(true);
    expect(ext.resolve({ nexus: 'N', cairn: null, strapi: null })).toEqual([{ typeDefs: 'type A { a: Int }' }, { typeDefs: 'type B { b: Int }' }]);
    expect(calls).toBe(1);
    expect(() => ext.use(null as never)).toThrow('takes an object or a function');
    expect(() => ext.use('typeDefs' as never)).toThrow('takes an object or a function');
    expect(() => new GraphqlExtensionService().use(() => null as never).resolve({ nexus: 0, cairn: 0, strapi: 0 })).toThrow('extension #1 must return an object');
  });
});

/** Starts an app with this register() (and src files) on SQLite and returns the start-up error. */
async function startupError(register: string, files: Record<string, string> = {}): Promise<Error> {
  const dir = writeExtensionApp(`module.exports = { register({ strapi }) { const ext = strapi.plugin('graphql').service('extension'); ${register} } };`, files);
  const database = await freshDatabaseConfig('sqlite');
  try {
    const cairn = await createCairn({ dir, config: { database: database.config } as never });
    await cairn.close();
  } catch (error) {
    return error as Error;
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error('the app started');
}

describe('GraphQL extensions: configuration errors stop start-up, naming the culprit', () => {
  it('an unknown policy or middleware name', async () => {
    const policy = await startupError(`ext.use({ resolversConfig: { 'Query.articles': { policies: ['global::is-owner'] } } });`, { 'policies/other.js': 'module.exports = () => true;' });
    expect(policy.name).toBe('ConfigError');
    expect(policy.message).toBe("graphql resolversConfig['Query.articles']: unknown policy 'global::is-owner' (none in src/policies)");
    const middleware = await startupError(`ext.use({ resolversConfig: { 'Article.title': { middlewares: [{ name: 'nope', options: {} }] } } });`);
    expect(middleware.message).toBe("graphql resolversConfig['Article.title']: unknown middleware 'nope' (none in src/middlewares)");
  });

  it('malformed entries: a policy of another shape, policies not an array, auth neither false nor an object', async () => {
    expect((await startupError(`ext.use({ resolversConfig: { 'Query.articles': { policies: [42] } } });`)).message).toBe("graphql resolversConfig['Query.articles']: a policy is a name, { name, config } or a function");
    expect((await startupError(`ext.use({ resolversConfig: { 'Query.articles': { policies: 'x' } } });`)).message).toBe("graphql resolversConfig['Query.articles']: policies must be an array");
    expect((await startupError(`ext.use({ resolversConfig: { 'Query.articles': { auth: true } } });`)).message).toBe("graphql resolversConfig['Query.articles'].auth must be false or { scope }");
  });

  it('a policy or middleware file exporting no function', async () => {
    const error = await startupError(`ext.use({ resolversConfig: { 'Query.articles': { policies: ['bad'] } } });`, { 'policies/bad.js': 'module.exports = { nope: 1 };' });
    expect(error.message).toMatch(/src\/policies\/bad\.js must export a function$/);
  });

  it('a config for a field the schema does not have (a typo, or a disabled operation)', async () => {
    expect((await startupError(`ext.use({ resolversConfig: { 'Query.artcles': { auth: false } } });`)).message).toBe("graphql resolversConfig['Query.artcles']: no such field in the schema");
    expect((await startupError(`ext.shadowCRUD('api::tag.tag').disable(); ext.use({ resolversConfig: { 'Query.tags': { auth: false } } });`)).message).toBe("graphql resolversConfig['Query.tags']: no such field in the schema");
  });

  it('shadowCRUD of an unknown uid, an unknown action, and SDL that does not build', async () => {
    expect((await startupError(`ext.shadowCRUD('api::artcle.artcle').disable();`)).message).toBe("graphql shadowCRUD('api::artcle.artcle'): no such content-type or component");
    expect((await startupError(`ext.shadowCRUD('api::article.article').disableAction('publish');`)).message).toContain("unknown action 'publish'");
    expect((await startupError(`ext.use({ typeDefs: 'extend type Nope { x: Int }' });`)).message).toMatch(/^graphql extension: .*Nope/);
  });
});

describe('GraphQL shadowCRUD: false', () => {
  it('generates nothing from the models; users-permissions\' auth mutations, me and the extensions stay', async () => {
    const dir = writeExtensionApp(
      `module.exports = { register({ strapi }) { strapi.plugin('graphql').service('extension').use({ typeDefs: 'extend type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } }, resolversConfig: { 'Query.hello': { auth: false } } }); } };`,
      {},
      { ...extensionModel, config: { ...extensionModel.config, plugins: { ...extensionModel.config!.plugins, graphql: { config: { v4CompatibilityMode: false, shadowCRUD: false } } } } },
    );
    const app = await startTestApp('sqlite', dir);
    try {
      const res = await app.request('POST', '/graphql', { query: '{ q: __type(name: "Query") { fields { name } } m: __type(name: "Mutation") { fields { name } } a: __type(name: "Article") { name } }' });
      expect(res.body.data.q.fields.map((f: { name: string }) => f.name).sort()).toEqual(['hello', 'me']);
      expect(res.body.data.m.fields.map((f: { name: string }) => f.name).sort()).toEqual(['changePassword', 'emailConfirmation', 'forgotPassword', 'login', 'register', 'resetPassword']);
      expect(res.body.data.a).toBeNull();
      expect((await app.request('POST', '/graphql', { query: '{ hello }' }, { authorization: '' })).body).toEqual({ data: { hello: 'hi' } });
      expect((await app.request('POST', '/graphql', { query: '{ articles { title } }' })).status).toBe(400);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
