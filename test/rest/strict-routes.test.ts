import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { kitchen } from '../fixtures/kitchen.js';

const model = {
  ...kitchen,
  config: { ...kitchen.config, plugins: { ...kitchen.config!.plugins, 'users-permissions': { config: { jwtSecret: 'strict-test' } } } },
};

/** Every route refuses a query parameter it does not read, as the Content API's routes do, before it acts. */
describeEachDialect('strict query parameters on every route', (dialect) => {
  let app: TestApp;
  let draft: string;
  let jwt: string;
  let userId: number;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    draft = (await app.request('POST', '/api/restaurants?status=draft', { data: { name: 'Draft' } })).body.data.documentId;
    const registered = await app.request('POST', '/api/auth/local/register', { username: 'strict', email: 'strict@example.com', password: 'secret12' }, { authorization: '' });
    jwt = registered.body.jwt;
    userId = registered.body.user.id;
  });
  afterAll(async () => app?.close());

  const invalidFoo = { status: 400, name: 'ValidationError', message: 'Invalid key foo', details: { key: 'foo', path: null, source: 'query', param: 'foo' } };
  const multipart = () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n%%EOF\n'))], { type: 'application/pdf' }), 'a.pdf');
    return new Response(form);
  };

  it('actions (publish, unpublish, discard-draft) → 400 Invalid key, and nothing is published', async () => {
    for (const action of ['publish', 'unpublish', 'discard-draft']) {
      const res = await app.request('POST', `/api/restaurants/${draft}/actions/${action}?foo=1`);
      expect(res.status, action).toBe(400);
      expect(res.body.error, action).toEqual(invalidFoo);
    }
    expect((await app.request('GET', `/api/restaurants/${draft}`)).status).toBe(404);
    // `locale` is what they read.
    expect((await app.request('POST', `/api/restaurants/${draft}/actions/publish?locale=en`)).status).toBe(200);
    expect((await app.request('GET', `/api/restaurants/${draft}`)).status).toBe(200);
  });

  it('auth and users routes → 400 Invalid key, before they act', async () => {
    const user = { authorization: `Bearer ${jwt}` };
    const routes: Array<[string, string, unknown?, Record<string, string>?]> = [
      ['POST', '/api/auth/local/register?foo=1', { username: 'other', email: 'other@example.com', password: 'secret12' }, { authorization: '' }],
      ['POST', '/api/auth/local?foo=1', { identifier: 'strict', password: 'secret12' }, { authorization: '' }],
      ['POST', '/api/auth/change-password?foo=1', { currentPassword: 'secret12', password: 'secret34', passwordConfirmation: 'secret34' }, user],
      ['GET', '/api/users/me?foo=1', undefined, user],
      ['GET', '/api/users?foo=1'],
      ['POST', '/api/users?foo=1', { username: 'third', email: 'third@example.com', password: 'secret12' }],
      ['GET', `/api/users/${userId}?foo=1`],
      ['PUT', `/api/users/${userId}?foo=1`, { username: 'renamed' }],
      ['DELETE', `/api/users/${userId}?foo=1`],
    ];
    for (const [method, url, body, headers] of routes) {
      const res = await app.request(method, url, body, headers);
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.error, `${method} ${url}`).toEqual(invalidFoo);
    }
    // Nothing happened: no user was made or changed, the password is the same.
    const users = (await app.request('GET', '/api/users?sort=username')).body.map((u: { username: string }) => u.username);
    expect(users).toEqual(['strict']);
    expect((await app.request('POST', '/api/auth/local', { identifier: 'strict', password: 'secret12' }, { authorization: '' })).status).toBe(200);
  });

  it('GET /users/me and /users/:id read fields and populate, as the Content API does', async () => {
    const me = await app.request('GET', '/api/users/me?fields[0]=username', undefined, { authorization: `Bearer ${jwt}` });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: userId, documentId: expect.any(String), username: 'strict' });
    const one = await app.request('GET', `/api/users/${userId}?fields[0]=email&populate[role][fields][0]=type`);
    expect(one.body).toEqual({ id: userId, documentId: expect.any(String), email: 'strict@example.com', role: { id: expect.any(Number), documentId: expect.any(String), type: 'authenticated' } });
    const bad = await app.request('GET', `/api/users/${userId}?fields[0]=password`);
    expect(bad.status).toBe(400);
    expect((await app.request('GET', `/api/users/${userId}?sort=username`)).body.error).toMatchObject({ message: 'Invalid key sort' });
  });

  it('upload routes and i18n locales → 400 Invalid key; a refused upload stores nothing', async () => {
    const files = (await app.request('GET', '/api/upload/files')).body.length;
    const body = multipart();
    const upload = await app.cairn.fastify.inject({
      method: 'POST',
      url: '/api/upload?foo=1',
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')!, authorization: `Bearer ${app.token}` },
    });
    expect(upload.statusCode).toBe(400);
    expect(JSON.parse(upload.body).error).toEqual(invalidFoo);
    expect((await app.request('GET', '/api/upload/files')).body.length).toBe(files);
    for (const [method, url] of [
      ['GET', '/api/upload/files/1?foo=1'],
      ['DELETE', '/api/upload/files/1?foo=1'],
      ['GET', '/api/upload/files?foo=1'],
      ['GET', '/api/i18n/locales?foo=1'],
      ['DELETE', `/api/restaurants/${draft}?foo=1`],
    ]) {
      const res = await app.request(method, url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toEqual(invalidFoo);
    }
    expect((await app.request('GET', '/api/i18n/locales')).body.map((l: { code: string }) => l.code)).toEqual(['en', 'fr']);
  });
});
