import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writeExtensionApp } from '../fixtures/graphql-extensions.js';

type Entry = Record<string, any>;

/** Everything an app can do from register(): toggles, nexus types, typeDefs, resolvers and their configs. */
const INDEX = `
module.exports = {
  register({ strapi }) {
    const ext = strapi.plugin('graphql').service('extension');
    ext.shadowCRUD('api::tag.tag').disable();
    ext.shadowCRUD('api::writer.writer').disableMutations();
    ext.shadowCRUD('api::note.note').disableQueries();
    ext.shadowCRUD('api::article.article').disableAction('delete');
    ext.shadowCRUD('api::category.category').disableActions(['update', 'delete']);
    const article = ext.shadowCRUD('api::article.article');
    article.field('secret').disableOutput();
    article.field('views').disableInput();
    article.field('body').disableFilters();
    article.field('legacy').disable();

    ext.use(({ nexus }) => ({
      types: [
        nexus.extendType({ type: 'Query', definition(t) { t.field('hello', { type: 'String', resolve: () => 'hi' }); } }),
        nexus.objectType({ name: 'Stats', definition(t) { t.int('articles'); t.string('label'); } }),
        nexus.extendType({ type: 'Query', definition(t) { t.field('stats', { type: 'Stats', resolve: () => ({ articles: 42, label: 'all' }) }); } }),
        nexus.extendType({ type: 'Article', definition(t) { t.string('shout', { resolve: (parent) => String(parent.title).toUpperCase() }); } }),
      ],
      plugins: [
        nexus.plugin({
          name: 'label-suffix',
          onCreateFieldResolver(config) {
            if (config.parentTypeConfig.name !== 'Stats' || config.fieldConfig.name !== 'label') return;
            return async (root, args, ctx, info, next) => (await next(root, args, ctx, info)) + ' (plugin)';
          },
        }),
      ],
    }));
    ext.use({
      typeDefs: \`
        extend type Article { wordCount: Int }
        extend type Query { publicHello: String, scoped: String, both: String, guarded(word: String): String, named: String, globalNamed: String, whoami: String }
        extend type Mutation { ping: String }
      \`,
      resolvers: {
        Article: { wordCount: (parent) => String(parent.body ?? '').split(/\\s+/).filter(Boolean).length },
        Query: {
          publicHello: () => 'hello all',
          scoped: () => 'scoped ok',
          both: () => 'both ok',
          guarded: (_p, args) => 'guarded ' + args.word,
          named: () => 'named ok',
          globalNamed: () => 'global ok',
          whoami: (_p, _a, context) => context.state.user.username,
          writers: () => [{ documentId: 'w-override', name: 'Overridden' }],
        },
        Mutation: { ping: () => 'pong' },
      },
      resolversConfig: {
        'Query.publicHello': { auth: false },
        'Query.categories': { auth: false },
        'Query.writer': { auth: { scope: ['api::article.article.find'] } },
        'Query.scoped': { auth: { scope: 'api::writer.writer.create' } },
        'Query.both': { auth: { scope: ['api::article.article.find', 'api::writer.writer.find'] } },
        'Query.guarded': { auth: false, policies: [(context) => context.args.word === 'please'] },
        'Query.named': { auth: false, policies: [{ name: 'has-header', config: { header: 'x-pass' } }] },
        'Query.globalNamed': { auth: false, policies: ['global::always'] },
        'Query.whoami': { policies: [(context) => context.state.user !== null && context.is('graphql')] },
        'Mutation.createNote': { policies: [() => false] },
        'Query.articles': {
          middlewares: [async (next, parent, args, context, info) => (await next(parent, args, context, info)).map((a) => ({ ...a, title: a.title + '!' }))],
        },
        'Article.title': { middlewares: [async (next, ...rest) => String(await next(...rest)).toUpperCase()] },
        'Query.article': { middlewares: [{ name: 'global::suffix', options: { suffix: ' [named]' } }] },
      },
    });
  },
};
`;

const FILES = {
  'policies/has-header.js': `module.exports = (context, config) => context.http.headers[config.header] === 'yes';`,
  'policies/always.ts': `const always: { handler: () => boolean } = { handler: () => true };\nexport default always;`,
  'middlewares/suffix.js': `module.exports = (options) => async (next, parent, args, context, info) => {
    const entry = await next(parent, args, context, info);
    return entry && { ...entry, body: entry.body + options.suffix };
  };`,
};

describeEachDialect('GraphQL extensions', (dialect) => {
  let app: TestApp;
  let dir: string;
  let jwt: string;
  let articleId: string;
  const gql = async (query: string, headers?: Record<string, string>, variables?: Entry) => {
    const res = await app.request('POST', '/graphql', { query, variables }, headers);
    return { status: res.status, body: res.body as { data?: Entry; errors?: Entry[] } };
  };
  const none = { authorization: '' };
  const type = async (name: string) => (await gql(`{ __type(name: "${name}") { fields { name } inputFields { name } } }`)).body.data!.__type;
  const names = (list: Array<{ name: string }> | null) => (list ?? []).map((f) => f.name);
  const expectInvalid = async (query: string) => {
    const res = await gql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  };

  beforeAll(async () => {
    dir = writeExtensionApp(INDEX, FILES);
    app = await startTestApp(dialect, dir);
    const writer = (await app.request('POST', '/api/writers', { data: { name: 'Ann' } })).body.data.documentId;
    const created = await app.request('POST', '/api/articles', {
      data: { title: 'Hello', body: 'one two three', views: 3, secret: 's3', kind: 'news', writer, parts: [{ __component: 'parts.quote', text: 'q' }] },
    });
    articleId = created.body.data.documentId;
    await app.request('POST', '/api/categories', { data: { name: 'Cat' } });
    const registered = await app.request('POST', '/api/auth/local/register', { username: 'ann', email: 'ann@example.com', password: 'secret12' }, none);
    jwt = registered.body.jwt;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a disabled type is gone: its type, its root fields, and relation fields, inputs and filters pointing to it', async () => {
    expect(await type('Tag')).toBeNull();
    expect(await type('TagFiltersInput')).toBeNull();
    expect(names((await type('Article')).fields)).not.toContain('tags');
    expect(names((await type('Article')).fields)).not.toContain('tags_connection');
    expect(names((await type('ArticleInput')).inputFields)).not.toContain('tags');
    expect(names((await type('ArticleFiltersInput')).inputFields)).not.toContain('tags');
    await expectInvalid('{ tags { label } }');
    await expectInvalid('{ articles { tags { label } } }');
  });

  it('disabled queries, mutations and single actions remove exactly those root fields', async () => {
    const query = names((await type('Query')).fields);
    const mutation = names((await type('Mutation')).fields);
    expect(query).not.toEqual(expect.arrayContaining(['notes']));
    expect(query.filter((n) => n.startsWith('note'))).toEqual([]);
    expect(mutation).toEqual(expect.arrayContaining(['createNote', 'updateNote', 'deleteNote', 'createArticle', 'updateArticle', 'createCategory']));
    expect(mutation.filter((n) => /Writer$/.test(n))).toEqual([]);
    expect(mutation).not.toContain('deleteArticle');
    expect(mutation).not.toContain('updateCategory');
    expect(mutation).not.toContain('deleteCategory');
    expect(query).toEqual(expect.arrayContaining(['articles', 'article', 'articles_connection', 'writers', 'writer', 'categories']));
    await expectInvalid('{ notes { text } }');
    await expectInvalid('{ notes_connection { nodes { text } } }');
    await expectInvalid('{ note(documentId: "x") { text } }');
    await expectInvalid('mutation { createWriter(data: { name: "x" }) { name } }');
    await expectInvalid(`mutation { deleteArticle(documentId: "${articleId}") { documentId } }`);
    await expectInvalid('mutation { deleteCategory(documentId: "x") { documentId } }');
  });

  it('field toggles: output, input and filters each remove the field from one type only', async () => {
    const output = names((await type('Article')).fields);
    const input = names((await type('ArticleInput')).inputFields);
    const filters = names((await type('ArticleFiltersInput')).inputFields);
    expect(output).not.toContain('secret');
    expect(input).toContain('secret');
    expect(filters).toContain('secret');
    expect(output).toContain('views');
    expect(input).not.toContain('views');
    expect(filters).toContain('views');
    expect(output).toContain('body');
    expect(input).toContain('body');
    expect(filters).not.toContain('body');
    for (const list of [output, input, filters]) expect(list).not.toContain('legacy');
    await expectInvalid('{ articles { secret } }');
    await expectInvalid('mutation { createArticle(data: { views: 3 }) { title } }');
    await expectInvalid('{ articles(filters: { body: { eq: "x" } }) { title } }');
    await expectInvalid('{ articles(filters: { legacy: { eq: "x" } }) { title } }');
    // What stays still works: filter on secret, write secret (the middlewares add "!" and upper-case titles).
    const found = await gql('{ articles(filters: { secret: { eq: "s3" }, views: { eq: 3 } }) { title views } }');
    expect(found.body.data!.articles).toEqual([{ title: 'HELLO!', views: 3 }]);
  });

  it('nexus types and plugins: new root fields, new object types, fields on generated types; generated unions and enums still work', async () => {
    const res = await gql('{ hello stats { articles label } articles { shout kind parts { __typename ... on ComponentPartsQuote { text } } } }');
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ hello: 'hi', stats: { articles: 42, label: 'all (plugin)' }, articles: [{ shout: 'HELLO!', kind: 'news', parts: [{ __typename: 'ComponentPartsQuote', text: 'q' }] }] });
  });

  it('typeDefs extend Query, Mutation and a generated type; their resolvers see the whole entry', async () => {
    const res = await gql('{ articles { wordCount } publicHello }');
    expect(res.body.data).toEqual({ articles: [{ wordCount: 3 }], publicHello: 'hello all' });
    expect((await gql('mutation { ping }')).body.data).toEqual({ ping: 'pong' });
  });

  it('resolvers override a generated resolver (which keeps its own authorization)', async () => {
    expect((await gql('{ writers { documentId name } }')).body.data!.writers).toEqual([{ documentId: 'w-override', name: 'Overridden' }]);
    const publicCall = await gql('{ writers { name } }', none);
    expect(publicCall.body.errors![0].extensions.code).toBe('FORBIDDEN');
  });

  it('auth: false opens a field to the public; a custom root field without config needs an authenticated caller', async () => {
    expect((await gql('{ categories { name } }', none)).body.data!.categories).toEqual([{ name: 'Cat' }]);
    expect((await gql('{ publicHello }', none)).body.data!.publicHello).toBe('hello all');
    const denied = await gql('{ hello }', none);
    expect(denied.status).toBe(200);
    expect(denied.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'ForbiddenError' } });
    expect(denied.body.data).toEqual({ hello: null });
    expect((await gql('{ hello }', { authorization: `Bearer ${jwt}` })).body.data!.hello).toBe('hi');
    expect((await gql('{ hello }')).body.data!.hello).toBe('hi');
    // Without a token, the public role's own grants still apply to generated fields.
    expect((await gql('{ articles { title } }', none)).body.data!.articles).toEqual([{ title: 'HELLO!' }]);
    const write = await gql('mutation { createCategory(data: { name: "x" }) { name } }', none);
    expect(write.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'ForbiddenError' } });
  });

  it('auth.scope replaces the default action; every listed action is needed', async () => {
    const writerId = (await app.request('GET', '/api/writers')).body.data[0].documentId;
    // The public role may not read writers, but Query.writer asks for article.find instead, which it has.
    expect((await gql(`{ writer(documentId: "${writerId}") { name } }`, none)).body.data!.writer).toEqual({ name: 'Ann' });
    expect((await gql('{ scoped }', none)).body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ scoped }', { authorization: `Bearer ${jwt}` })).body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ scoped }')).body.data!.scoped).toBe('scoped ok');
    expect((await gql('{ both }', none)).body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ both }')).body.data!.both).toBe('both ok');
  });

  it('policies: a falsy answer is FORBIDDEN "Policy Failed"; registered policies by name, with config; state.user', async () => {
    const blocked = await gql('{ guarded(word: "no") }', none);
    expect(blocked.status).toBe(200);
    expect(blocked.body.errors![0].message).toBe('Policy Failed');
    expect(blocked.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'PolicyError', message: 'Policy Failed' } });
    expect((await gql('{ guarded(word: "please") }', none)).body.data!.guarded).toBe('guarded please');
    expect((await gql('{ named }', none)).body.errors![0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ named }', { ...none, 'x-pass': 'no' })).body.errors![0].message).toBe('Policy Failed');
    expect((await gql('{ named }', { ...none, 'x-pass': 'yes' })).body.data!.named).toBe('named ok');
    expect((await gql('{ globalNamed }', none)).body.data!.globalNamed).toBe('global ok');
    // A policy on a generated mutation blocks even a full-access token.
    const created = await gql('mutation { createNote(data: { text: "n" }) { text } }');
    expect(created.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', error: { name: 'PolicyError' } });
    expect((await app.request('GET', '/api/notes')).body.data).toEqual([]);
    expect((await gql('{ whoami }', { authorization: `Bearer ${jwt}` })).body.data!.whoami).toBe('ann');
    // A full-access token passes auth but has no user: the policy refuses.
    expect((await gql('{ whoami }')).body.errors![0].message).toBe('Policy Failed');
  });

  it('middlewares change results, on root and nested fields; a registered middleware by name with options', async () => {
    expect((await gql('{ articles { title } }')).body.data!.articles).toEqual([{ title: 'HELLO!' }]);
    const one = await gql(`{ article(documentId: "${articleId}") { title body } }`);
    expect(one.body.data!.article).toEqual({ title: 'HELLO', body: 'one two three [named]' });
    // The nested middleware runs wherever the field is resolved, also under a relation.
    const nested = await gql('{ writers: articles { writer { name articles { title } } } }');
    expect(nested.body.data!.writers[0].writer.articles).toEqual([{ title: 'HELLO' }]);
  });
});
