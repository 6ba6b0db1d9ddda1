import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCairn } from '../../src/app/cairn.js';
import { createLogger } from '../../src/app/logger.js';
import { readLayout } from '../../src/database/layout.js';
import { checkStrapiLayout } from '../../src/database/strapi-layout/check.js';
import { BUILTIN_SCHEMAS } from '../../src/model/index.js';
import { startTestApp, startupError, writeApp, writeFiles, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';

// examples/server-code extends the users-permissions user (src/extensions/users-permissions/content-types/user):
// a `phone` registration may set (config/plugins.js: register.allowedFields) and the `articles` its articles'
// `author` relation points back from.
const EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'server-code');
const PUBLIC = { authorization: '' };
const USER_UID = 'plugin::users-permissions.user';

describeEachDialect('a users-permissions user extended by the app (examples/server-code)', (dialect) => {
  let app: TestApp;
  let ann: { jwt: string; user: { id: number; documentId: string } };
  const bearer = () => ({ authorization: `Bearer ${ann.jwt}` });

  beforeAll(async () => {
    app = await startTestApp(dialect, EXAMPLE);
    const registered = await app.request('POST', '/api/auth/local/register', { username: 'ann', email: 'Ann@Example.com', password: 'secret123', phone: '+33 1 23' }, PUBLIC);
    expect(registered.status).toBe(200);
    ann = registered.body;
  });
  afterAll(() => app?.close());

  it('registration writes the extended field the config allows, answers it, and refuses a field it does not allow', async () => {
    expect(ann.user).toMatchObject({ username: 'ann', email: 'ann@example.com', phone: '+33 1 23', confirmed: true, blocked: false });
    expect(ann.user).not.toHaveProperty('password');
    const refused = await app.request('POST', '/api/auth/local/register', { username: 'bob', email: 'bob@example.com', password: 'secret123', articles: [] }, PUBLIC);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid parameters: articles' });
    // The extension's own rules apply to what registration writes.
    const tooLong = await app.request('POST', '/api/auth/local/register', { username: 'cid', email: 'cid@example.com', password: 'secret123', phone: '1'.repeat(21) }, PUBLIC);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details.errors[0]).toMatchObject({ path: ['phone'] });
  });

  it('/api/users/me answers the extended fields; /api/users lists and filters by them', async () => {
    const me = await app.request('GET', '/api/users/me', undefined, bearer());
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: ann.user.id, documentId: ann.user.documentId, username: 'ann', phone: '+33 1 23' });
    const found = await app.request('GET', `/api/users?filters[phone][$startsWith]=${encodeURIComponent('+33')}&fields[0]=username&fields[1]=phone`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual([{ id: ann.user.id, documentId: ann.user.documentId, username: 'ann', phone: '+33 1 23' }]);
    expect((await app.request('GET', '/api/users?filters[phone][$eq]=nope')).body).toEqual([]);
  });

  it('POST and PUT /api/users write the extended fields', async () => {
    const roles = (await app.request('GET', '/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    const role = roles.find((r) => r.type === 'authenticated')!.id;
    const created = await app.request('POST', '/api/users', { username: 'dan', email: 'dan@example.com', password: 'secret123', phone: '555', role });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'dan', phone: '555' });
    const updated = await app.request('PUT', `/api/users/${created.body.id}`, { phone: '556' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ username: 'dan', phone: '556' });
    expect((await app.request('PUT', `/api/users/${created.body.id}`, { nickname: 'd' })).body.error).toMatchObject({ status: 400, message: 'Invalid key nickname' });
    expect((await app.request('DELETE', `/api/users/${created.body.id}`)).status).toBe(200);
  });

  it("a relation from an article to the user, populated both ways, and filtered through", async () => {
    const article = await app.request('POST', '/api/articles', { data: { title: 'By Ann', author: ann.user.documentId } });
    expect(article.status).toBe(201);
    const other = await app.request('POST', '/api/articles', { data: { title: 'Nobody' } });
    expect(other.status).toBe(201);
    const list = await app.request('GET', '/api/articles?populate[author][fields][0]=username&populate[author][fields][1]=phone&sort=title&fields[0]=title', undefined, bearer());
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: { title: string; author: unknown }) => [a.title, a.author])).toEqual([
      ['By Ann', { id: ann.user.id, documentId: ann.user.documentId, username: 'ann', phone: '+33 1 23' }],
      ['Nobody', null],
    ]);
    const me = await app.request('GET', '/api/users/me?populate[articles][fields][0]=title', undefined, bearer());
    expect(me.status).toBe(200);
    expect(me.body.articles).toEqual([{ id: article.body.data.id, documentId: article.body.data.documentId, title: 'By Ann' }]);
    const byPhone = await app.request('GET', `/api/articles?filters[author][phone][$eq]=${encodeURIComponent('+33 1 23')}&fields[0]=title`);
    expect(byPhone.body.data.map((a: { title: string }) => a.title)).toEqual(['By Ann']);
    const graphql = await app.request('POST', '/graphql', { query: '{ articles(filters: { author: { phone: { eq: "+33 1 23" } } }) { title author { username phone articles { title } } } }' });
    expect(graphql.body).toEqual({ data: { articles: [{ title: 'By Ann', author: { username: 'ann', phone: '+33 1 23', articles: [{ title: 'By Ann' }] } }] } });
    // The public role may not find users: populating the author leaves it out, filtering through it is refused.
    const open = await app.request('GET', '/api/articles?populate=author&filters[title][$eq]=By Ann', undefined, PUBLIC);
    expect(open.body.data[0]).not.toHaveProperty('author');
    expect((await app.request('GET', '/api/articles?filters[author][phone][$eq]=1', undefined, PUBLIC)).status).toBe(400);
  });

  it("strapi-server: the plugin's `me`, wrapped by the app, answers what the app adds", async () => {
    const me = await app.request('GET', '/api/users/me', undefined, bearer());
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'ann', phone: '+33 1 23', articleCount: 1 });
    // Its route keeps Strapi's permission check: the public role may not call it.
    expect((await app.request('GET', '/api/users/me', undefined, PUBLIC)).status).toBe(403);
  });

  it("strapi-server: a route and an action the app adds, with the user's extended fields in ctx.state.user", async () => {
    const mine = await app.request('GET', '/api/users/me/articles', undefined, bearer());
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ titles: ['By Ann'], phone: '+33 1 23' });
    // Guarded by its own permission (plugin::users-permissions.user.myArticles), which the public role lacks.
    expect((await app.request('GET', '/api/users/me/articles', undefined, PUBLIC)).status).toBe(403);
  });

  it("strapi-server: the app's auth factory wraps register; the rate limit of the route still counts; GraphQL's register refuses", async () => {
    const response = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/auth/local/register',
      headers: { 'content-type': 'application/json' },
      payload: { username: 'admin2', email: 'admin2@example.com', password: 'secret123' },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).error).toMatchObject({ name: 'BadRequestError', message: 'This username is reserved' });
    expect(response.headers['x-ratelimit-limit']).toBe('10');
    const graphql = await app.request('POST', '/graphql', { query: 'mutation { register(input: { username: "eve", email: "eve@example.com", password: "secret123" }) { jwt } }' }, PUBLIC);
    expect(graphql.body.errors[0].message).toBe(
      "register is not available through GraphQL: the app's strapi-server replaces auth.register, which Cairn runs on its REST route only (POST /api/auth/local/register)",
    );
    // Login is the plugin's own, on both.
    const login = await app.request('POST', '/graphql', { query: 'mutation { login(input: { identifier: "ann", password: "secret123" }) { user { username } } }' }, PUBLIC);
    expect(login.body).toEqual({ data: { login: { user: { username: 'ann' } } } });
  });

  it('the database Cairn made has the tables Strapi makes for the extended user', async () => {
    expect(await checkStrapiLayout(app.cairn.db, app.cairn.model)).toEqual([]);
    const layout = await readLayout((sql, params) => app.cairn.db.query(sql, params), app.cairn.db.dialect);
    const users = layout.tables.find((t) => t.name === 'up_users')!;
    expect(users.columns.find((c) => c.name === 'phone')).toMatchObject({ nullable: true, type: expect.stringMatching(/^(varchar\(255\)|character varying\(255\))$/) });
    const link = layout.tables.find((t) => t.name === 'articles_author_lnk')!;
    expect(link.columns.map((c) => c.name).sort()).toEqual(['article_id', 'article_ord', 'id', 'user_id']);
    expect(link.foreignKeys.map((k) => [k.name, k.referencedTable])).toEqual(
      expect.arrayContaining([
        ['articles_author_lnk_fk', 'articles'],
        ['articles_author_lnk_ifk', 'up_users'],
      ]),
    );
  });
});

const NOTE = { kind: 'collectionType', collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, attributes: { text: { type: 'string' } } };

describe('an extension Cairn cannot apply stops the start, naming the file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function startError(files: Record<string, string>): Promise<{ dir: string; message: string }> {
    const dir = writeApp({ contentTypes: { note: NOTE } });
    dirs.push(dir);
    writeFiles(dir, files);
    return { dir, message: await startupError(dir) };
  }

  const user = BUILTIN_SCHEMAS.find((b) => b.uid === USER_UID)!.schema as { attributes: Record<string, unknown> };
  const SCHEMA = 'src/extensions/users-permissions/content-types/user/schema.json';

  it("a schema that drops one of the plugin's attributes", async () => {
    const { confirmed: _, ...rest } = user.attributes;
    const { message } = await startError({ [SCHEMA]: JSON.stringify({ ...user, attributes: { ...rest, phone: { type: 'string' } } }) });
    expect(message).toBe(
      `${SCHEMA}: the plugin's attribute "confirmed" is missing: an extension's "attributes" replace the plugin's whole (as in Strapi), so they must keep the plugin's own (Cairn's users-permissions serves plugin::users-permissions.user with it)`,
    );
  });

  it('a database Cairn made before the extension gets, at the next start, what the extension adds (as Strapi would)', async () => {
    const dir = writeApp({ contentTypes: { note: NOTE } });
    dirs.push(dir);
    const config = { database: { connection: { client: 'sqlite', connection: { filename: join(dir, '.tmp', 'data.db') } } } } as never;
    const log = createLogger({ write: () => undefined });
    await (await createCairn({ dir, config, log })).close();
    mkdirSync(dirname(join(dir, SCHEMA)), { recursive: true });
    writeFileSync(join(dir, SCHEMA), JSON.stringify({ ...user, attributes: { ...user.attributes, phone: { type: 'string' }, notes: { type: 'relation', relation: 'oneToMany', target: 'api::note.note' } } }));
    const cairn = await createCairn({ dir, config, log });
    try {
      expect(await checkStrapiLayout(cairn.db, cairn.model)).toEqual([]);
      const layout = await readLayout((sql, params) => cairn.db.query(sql, params), cairn.db.dialect);
      expect(layout.tables.find((t) => t.name === 'up_users')!.columns.some((c) => c.name === 'phone')).toBe(true);
      expect(layout.tables.find((t) => t.name === 'up_users_notes_lnk')!.columns.map((c) => c.name).sort()).toEqual(['id', 'note_id', 'note_ord', 'user_id']);
    } finally {
      await cairn.close();
    }
  });

  it('a folder naming no plugin, a content type the plugin lacks', async () => {
    expect((await startError({ 'src/extensions/user-permissions/content-types/user/schema.json': '{}' })).message).toContain(
      'src/extensions/user-permissions: "user-permissions" is not a plugin Cairn knows',
    );
    expect((await startError({ 'src/extensions/users-permissions/content-types/member/schema.json': '{}' })).message).toBe(
      'src/extensions/users-permissions/content-types/member/schema.json: the plugin users-permissions has no content type "member" (it has permission, role, user)',
    );
  });
});

describe("a users-permissions strapi-server: what Cairn honours, and what stops the start", () => {
  const dirs: string[] = [];
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const SERVER = 'src/extensions/users-permissions/strapi-server.js';

  function appWith(files: Record<string, string>): string {
    const dir = writeApp({ contentTypes: { note: NOTE } });
    dirs.push(dir);
    writeFiles(dir, files);
    return dir;
  }
  async function started(source: string): Promise<TestApp> {
    const app = await startTestApp('sqlite', appWith({ [SERVER]: source }));
    apps.push(app);
    return app;
  }
  async function refused(source: string): Promise<string> {
    const message = await startupError(appWith({ [SERVER]: source }));
    expect(message).toContain(SERVER);
    return message;
  }
  const register = (app: TestApp, username: string) =>
    app.request('POST', '/api/auth/local/register', { username, email: `${username}@example.com`, password: 'secret123' }, PUBLIC);

  it("edits of contentTypes.user's schema extend the model; its lifecycles run", async () => {
    const app = await started(`module.exports = (plugin) => {
      plugin.contentTypes.user.schema.attributes.nickname = { type: 'string' };
      plugin.contentTypes.user.lifecycles = { beforeCreate(event) { event.params.data.nickname = 'nick-' + event.params.data.username; } };
      return plugin;
    };`);
    expect(app.cairn.model.contentTypes.get(USER_UID)!.attributes.get('nickname')).toMatchObject({ kind: 'scalar', type: 'string' });
    const created = await register(app, 'fay');
    expect(created.status).toBe(200);
    expect(created.body.user).toMatchObject({ username: 'fay', nickname: 'nick-fay' });
  });

  it('a TypeScript strapi-server (export default), its register and bootstrap wrapping the plugin\'s', async () => {
    const dir = appWith({
      'src/extensions/users-permissions/strapi-server.ts': `import type { Core } from '@strapi/strapi';
        const seen: string[] = [];
        (globalThis as { __upHooks?: string[] }).__upHooks = seen;
        export default (plugin: any) => {
          const { register, bootstrap } = plugin;
          plugin.register = async (app: { strapi: Core.Strapi }) => { await register(app); seen.push('register'); };
          plugin.bootstrap = async (app: { strapi: Core.Strapi }) => { await bootstrap(app); seen.push('bootstrap:' + typeof app.strapi.documents); };
          plugin.contentTypes.user.schema.attributes.age = { type: 'integer', min: 0 };
          return plugin;
        };`,
    });
    const app = await startTestApp('sqlite', dir);
    apps.push(app);
    expect((globalThis as { __upHooks?: string[] }).__upHooks).toEqual(['register', 'bootstrap:function']);
    expect(app.cairn.model.contentTypes.get(USER_UID)!.attributes.get('age')).toMatchObject({ type: 'integer', min: 0 });
  });

  it("a route's config the app changes (a policy) and a route it removes are served as it left them", async () => {
    const app = await started(`module.exports = (plugin) => {
      const routes = plugin.routes['content-api'].routes;
      routes.find((r) => r.path === '/users/me').config.policies = [(ctx) => ctx.request.header['x-ok'] === 'yes'];
      plugin.routes['content-api'].routes = routes.filter((r) => r.handler !== 'user.destroy');
      return plugin;
    };`);
    const { body } = await register(app, 'gus');
    const auth = { authorization: `Bearer ${body.jwt}` };
    expect((await app.request('GET', '/api/users/me', undefined, auth)).body.error).toMatchObject({ status: 403, name: 'PolicyError' });
    expect((await app.request('GET', '/api/users/me', undefined, { ...auth, 'x-ok': 'yes' })).body).toMatchObject({ username: 'gus' });
    expect((await app.request('DELETE', `/api/users/${body.user.id}`)).status).toBe(404);
    // The other routes are Cairn's own, unchanged.
    expect((await app.request('GET', `/api/users/${body.user.id}`)).body).toMatchObject({ username: 'gus' });
  });

  it.each([
    ['a member Cairn does not provide, read as the file runs (with its line)', `module.exports = (plugin) => {\n  const { user } = plugin.services;\n  return plugin;\n};`, ["plugin.services.user is not supported by Cairn", '(line 2)']],
    ['an action of the plugin Cairn does not serve', `module.exports = (plugin) => {\n  const count = plugin.controllers.user.count;\n  return plugin;\n};`, ['plugin.controllers.user.count is not provided by Cairn (Cairn serves its find, me, findOne, create, update, destroy)']],
    ["Strapi 4's way of replacing an auth action, which Strapi 5 ignores", `module.exports = (plugin) => {\n  plugin.controllers.auth.register = async (ctx) => {};\n  return plugin;\n};`, ['in Strapi 5 plugin.controllers.auth is a factory ({ strapi }) => actions, and Strapi ignores what is set on it']],
    ['a change to the role content type', `module.exports = (plugin) => {\n  plugin.contentTypes.role.schema.attributes.level = { type: 'integer' };\n  return plugin;\n};`, ['changing plugin.contentTypes.role is not supported by Cairn (it extends the user only)']],
    ['a replaced member', `module.exports = (plugin) => {\n  plugin.policies = { ...plugin.policies, mine: () => true };\n  return plugin;\n};`, ['plugin.policies must stay as Strapi gave it']],
    ['no plugin returned', `module.exports = (plugin) => {\n  plugin.controllers.user.me = async (ctx) => {};\n};`, ['must return the plugin (Strapi uses what it returns), not undefined']],
    ['a route to an action that does not exist', `module.exports = (plugin) => {\n  plugin.routes['content-api'].routes.push({ method: 'GET', path: '/users/stats', handler: 'user.stats' });\n  return plugin;\n};`, ['route GET /users/stats: Handler not found "user.stats"']],
    ["a schema edit the model refuses (dropping the plugin's attribute)", `module.exports = (plugin) => {\n  delete plugin.contentTypes.user.schema.attributes.blocked;\n  return plugin;\n};`, [`${SERVER}: the plugin's attribute "blocked" is missing`]],
  ])('refuses %s', async (_, source, parts) => {
    const message = await refused(source);
    for (const part of parts) expect(message).toContain(part);
  });

  it("refuses another plugin's strapi-server", async () => {
    const dir = appWith({ 'src/extensions/upload/strapi-server.js': 'module.exports = (plugin) => plugin;' });
    await expect(
      createCairn({ dir, config: { database: { connection: { client: 'sqlite', connection: { filename: join(dir, '.tmp', 'data.db') } } } } as never, log: createLogger({ write: () => undefined }) }),
    ).rejects.toThrow("strapi-server.js: a strapi-server extension of the upload plugin is not supported by Cairn (it runs users-permissions' only)");
  });
});
