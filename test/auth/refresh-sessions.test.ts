import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

// users-permissions' "refresh" mode (`jwtManagement: 'refresh'`), as real Strapi 5.54 answers it (probed on its
// SQLite: every status, body, token claim and strapi_sessions row below was read off it): a login opens a session
// and answers a short-lived access token and a refresh token; refreshing rotates the session.
const SECRET = 'refresh-mode-secret';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const DAY = 24 * 3600 * 1000;
const config = (extra: object = {}) => ({
  plugins: { 'users-permissions': { config: { jwtSecret: SECRET, jwtManagement: 'refresh', ratelimit: { max: 1000 }, ...extra } } },
  server: { app: { keys: ['first-app-key', 'second-app-key'] } },
});
const none = { authorization: '' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface SessionRow {
  document_id: string;
  user_id: string;
  session_id: string;
  child_id: string | null;
  device_id: string | null;
  origin: string;
  status: string;
  type: string;
  metadata: unknown;
  expires_at: unknown;
  absolute_expires_at: unknown;
  created_at: unknown;
  published_at: unknown;
}

/** A stored datetime (SQLite: milliseconds; elsewhere a Date or wall-clock text in UTC) in milliseconds. */
const ms = (value: unknown): number => (value instanceof Date ? value.getTime() : /^\d+$/.test(String(value)) ? Number(value) : Date.parse(`${String(value).replace(' ', 'T')}Z`));
const metadataOf = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);

describeEachDialect('users-permissions refresh mode', (dialect) => {
  let app: TestApp;
  let userId: number;
  const rows = (where = '1 = 1', params: unknown[] = []) =>
    app.cairn.db.query<SessionRow>(`SELECT * FROM strapi_sessions WHERE ${where} ORDER BY id`, params);
  const login = async (body: object = {}, headers: Record<string, string> = { 'user-agent': CHROME_MAC }) => {
    const res = await app.request('POST', '/api/auth/local', { identifier: 'alice', password: 'Passw0rd!', ...body }, { ...none, ...headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { jwt: string; refreshToken: string; user: { id: number } };
  };
  const refresh = (refreshToken: unknown) => app.request('POST', '/api/auth/refresh', { refreshToken }, none);

  beforeAll(async () => {
    app = await startTestApp(dialect, { contentTypes: {}, config: config() });
    const res = await app.request('POST', '/api/auth/local/register', { username: 'alice', email: 'alice@example.com', password: 'Passw0rd!' }, { ...none, 'user-agent': CHROME_MAC });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    userId = res.body.user.id;
  });
  afterAll(async () => app?.close());

  it('register and login answer an access token, a refresh token and the user; each opens a session row as Strapi writes it', async () => {
    const [registered] = await rows('user_id = ?', [String(userId)]);
    expect(registered).toMatchObject({ origin: 'users-permissions', status: 'active', type: 'refresh', child_id: null });
    expect(registered.device_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(registered.session_id).toMatch(/^[0-9a-f]{32}$/);
    expect(registered.document_id).toMatch(/^[a-z0-9]{24}$/);
    expect(registered.published_at).not.toBeNull();
    expect(metadataOf(registered.metadata)).toMatchObject({ deviceName: 'Chrome on macOS' });
    expect(ms(registered.expires_at) - ms(registered.created_at)).toBe(14 * DAY);
    expect(ms(registered.absolute_expires_at) - ms(registered.created_at)).toBe(30 * DAY);

    const answer = await login({ deviceId: 'phone-1' });
    expect(Object.keys(answer)).toEqual(['jwt', 'refreshToken', 'user']);
    const access = decodeJwt(answer.jwt);
    const refreshClaims = decodeJwt(answer.refreshToken);
    expect(access).toMatchObject({ userId: String(userId), type: 'access' });
    expect(access.exp! - access.iat!).toBe(600);
    // Strapi signs refresh tokens with jsonwebtoken's noTimestamp: no iat.
    expect(Object.keys(refreshClaims).sort()).toEqual(['exp', 'sessionId', 'type', 'userId']);
    expect(refreshClaims).toMatchObject({ userId: String(userId), type: 'refresh', sessionId: access.sessionId });
    const [row] = await rows('session_id = ?', [access.sessionId]);
    expect(row.device_id).toBe('phone-1');
    expect(refreshClaims.exp).toBe(Math.floor(ms(row.expires_at) / 1000));

    // No deviceId (or not a non-empty string): none is recorded; no User-Agent: no device name.
    const bare = decodeJwt((await login({ deviceId: 42 }, {})).jwt);
    const [bareRow] = await rows('session_id = ?', [bare.sessionId]);
    expect(bareRow.device_id).toBeNull();
    expect(Object.keys(metadataOf(bareRow.metadata))).toEqual(['loginAt']);
  });

  it('only access tokens authenticate: a refresh token or a default-mode { id } token is a 401', async () => {
    const { jwt, refreshToken } = await login();
    expect((await app.request('GET', '/api/users/me', undefined, bearer(jwt))).body.username).toBe('alice');
    expect((await app.request('GET', '/api/users/me', undefined, bearer(refreshToken))).status).toBe(401);
    const legacy = await new SignJWT({ id: userId }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('30d').sign(new TextEncoder().encode(SECRET));
    expect((await app.request('GET', '/api/users/me', undefined, bearer(legacy))).status).toBe(401);
  });

  it('a refresh rotates the session: a new pair, the old row marked rotated; the old token is refused after', async () => {
    const first = await login({ deviceId: 'laptop' });
    const firstSession = decodeJwt(first.refreshToken).sessionId as string;
    const res = await refresh(first.refreshToken);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['jwt', 'refreshToken']);
    const childSession = decodeJwt(res.body.refreshToken).sessionId as string;
    expect(decodeJwt(res.body.jwt).sessionId).toBe(childSession);
    const [parent] = await rows('session_id = ?', [firstSession]);
    const [child] = await rows('session_id = ?', [childSession]);
    expect(parent).toMatchObject({ status: 'rotated', child_id: childSession });
    // The child keeps the device, the metadata and the family's absolute end; it is a new document.
    expect(child).toMatchObject({ status: 'active', device_id: 'laptop', child_id: null });
    expect(metadataOf(child.metadata)).toEqual(metadataOf(parent.metadata));
    expect(ms(child.absolute_expires_at)).toBe(ms(parent.absolute_expires_at));
    expect(child.document_id).not.toBe(parent.document_id);

    expect(await refresh(first.refreshToken)).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid refresh token' } } });
    expect((await refresh(res.body.refreshToken)).status).toBe(200);
  });

  it('a refresh token used three times at once rotates once: one 200, two 401', async () => {
    const { refreshToken } = await login();
    const statuses = (await Promise.all([refresh(refreshToken), refresh(refreshToken), refresh(refreshToken)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401, 401]);
    expect(await rows('child_id IS NOT NULL AND session_id = ?', [decodeJwt(refreshToken).sessionId])).toHaveLength(1);
  });

  it('refresh refuses what is not a valid refresh token, with Strapi\'s statuses and messages', async () => {
    const missing = { status: 400, body: { data: null, error: { status: 400, name: 'BadRequestError', message: 'Missing refresh token', details: {} } } };
    expect(await app.request('POST', '/api/auth/refresh', {}, none)).toMatchObject(missing);
    expect(await app.request('POST', '/api/auth/refresh', undefined, none)).toMatchObject(missing);
    expect(await refresh(123)).toMatchObject(missing);
    const { jwt } = await login();
    const forged = await new SignJWT({ userId: String(userId), sessionId: 'f'.repeat(32), type: 'refresh' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1d').sign(new TextEncoder().encode(SECRET));
    const otherKey = await new SignJWT({ userId: String(userId), sessionId: decodeJwt(jwt).sessionId as string, type: 'refresh' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1d').sign(new TextEncoder().encode('other'));
    for (const bad of ['garbage', jwt, forged, otherKey]) {
      expect(await refresh(bad)).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid refresh token' } } });
    }
  });

  it('GET /auth/sessions lists the active sessions, the current one first; DELETE ends one of the user\'s own', async () => {
    const phone = await login({ deviceId: 'phone-list' });
    const desk = await login({ deviceId: 'desk-list' });
    const listed = await app.request('GET', '/api/auth/sessions', undefined, bearer(phone.jwt));
    expect(listed.status).toBe(200);
    const phoneSession = decodeJwt(phone.jwt).sessionId;
    expect(listed.body.data[0]).toEqual({ id: phoneSession, deviceId: 'phone-list', deviceName: 'Chrome on macOS', current: true, loginAt: expect.any(String), lastActiveAt: expect.any(String) });
    expect(listed.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    const active = await rows("user_id = ? AND status = 'active'", [String(userId)]);
    expect(listed.body.data.map((s: { id: string }) => s.id).sort()).toEqual(active.map((r) => r.session_id).sort());

    const deskSession = decodeJwt(desk.jwt).sessionId as string;
    expect(await app.request('DELETE', `/api/auth/sessions/${deskSession}`, undefined, bearer(phone.jwt))).toMatchObject({ status: 200, body: { data: {} } });
    expect(await rows('session_id = ?', [deskSession])).toHaveLength(0);
    const notFound = { status: 404, body: { error: { name: 'NotFoundError', message: 'Session not found' } } };
    expect(await app.request('DELETE', `/api/auth/sessions/${deskSession}`, undefined, bearer(phone.jwt))).toMatchObject(notFound);
    expect(await app.request('DELETE', '/api/auth/sessions/nope', undefined, bearer(phone.jwt))).toMatchObject(notFound);
    // Another user's session is not this user's to end.
    const bob = await app.request('POST', '/api/auth/local/register', { username: 'bob', email: 'bob@example.com', password: 'Passw0rd!' }, none);
    expect(await app.request('DELETE', `/api/auth/sessions/${decodeJwt(bob.body.jwt).sessionId}`, undefined, bearer(phone.jwt))).toMatchObject(notFound);
    // The public role may not list or end sessions; the access token of an ended session still authenticates (Strapi).
    expect((await app.request('GET', '/api/auth/sessions', undefined, none)).status).toBe(403);
    expect((await app.request('DELETE', `/api/auth/sessions/${phoneSession}`, undefined, none)).status).toBe(403);
    expect((await app.request('GET', '/api/users/me', undefined, bearer(desk.jwt))).status).toBe(200);
  });

  it("strapi.db.query('admin::session'): the session rows by their attribute names; a deleteMany ends them (Strapi's tests clean up so)", async () => {
    const sessions = app.cairn.strapi.db.query('admin::session');
    const tablet = await login({ deviceId: 'tablet-query' });
    const sessionId = decodeJwt(tablet.jwt).sessionId as string;
    const [row] = await sessions.findMany({ where: { sessionId } });
    expect(row).toMatchObject({ sessionId, userId: String(userId), deviceId: 'tablet-query', origin: 'users-permissions', status: 'active', type: 'refresh', childId: null, documentId: expect.any(String) });
    expect(await sessions.count({ where: { origin: 'users-permissions', deviceId: 'tablet-query' } })).toBe(1);
    expect(await sessions.deleteMany({ where: { origin: 'users-permissions', deviceId: 'tablet-query' } })).toEqual({ count: 1 });
    expect(await rows('session_id = ?', [sessionId])).toEqual([]);
    expect((await refresh(tablet.refreshToken)).status).toBe(401);
    // A column that is not one of the session's attributes is named.
    await expect(sessions.findMany({ where: { nope: 1 } })).rejects.toThrow(/nope/);
  });

  it('logout ends the request\'s session, a device\'s, or all of them; access tokens stay valid until they expire', async () => {
    const a = await login({ deviceId: 'logout-a' });
    const b = await login({ deviceId: 'logout-b' });
    const c = await login({ deviceId: 'logout-c' });
    expect(await app.request('POST', '/api/auth/logout', {}, bearer(a.jwt))).toMatchObject({ status: 200, body: { ok: true } });
    expect((await refresh(a.refreshToken)).status).toBe(401);
    expect((await refresh(b.refreshToken)).status).toBe(200);
    expect((await app.request('GET', '/api/users/me', undefined, bearer(a.jwt))).status).toBe(200);

    expect((await app.request('POST', '/api/auth/logout', { deviceId: 'logout-c' }, bearer(b.jwt))).status).toBe(200);
    expect(await rows("device_id = 'logout-c'")).toHaveLength(0);
    expect((await refresh(c.refreshToken)).status).toBe(401);

    expect((await app.request('POST', '/api/auth/logout', { scope: 'all' }, bearer(b.jwt))).status).toBe(200);
    expect(await rows('user_id = ?', [String(userId)])).toHaveLength(0);
    expect((await app.request('POST', '/api/auth/logout', {}, none)).status).toBe(403);
  });

  it('change-password ends every session of the user and opens one on a new device', async () => {
    const before = await login();
    const res = await app.request('POST', '/api/auth/change-password', { currentPassword: 'Passw0rd!', password: 'Passw0rd2!', passwordConfirmation: 'Passw0rd2!' }, bearer(before.jwt));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['jwt', 'refreshToken', 'user']);
    const left = await rows('user_id = ?', [String(userId)]);
    expect(left).toHaveLength(1);
    expect(left[0].session_id).toBe(decodeJwt(res.body.refreshToken).sessionId);
    expect(left[0].metadata).toBeNull();
    expect(left[0].device_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await refresh(before.refreshToken)).status).toBe(401);
    expect((await refresh(res.body.refreshToken)).status).toBe(200);
    await app.request('POST', '/api/auth/change-password', { currentPassword: 'Passw0rd2!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }, bearer(res.body.jwt));
  });

  it('reset-password, as change-password: every session of the user ended, one opened, the token used up', async () => {
    const before = await login();
    await app.cairn.strapi.db.query('plugin::users-permissions.user').update({ where: { id: userId }, data: { resetPasswordToken: 'reset-me' } });
    const res = await app.request('POST', '/api/auth/reset-password', { code: 'reset-me', password: 'Passw0rd3!', passwordConfirmation: 'Passw0rd3!' }, none);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body)).toEqual(['jwt', 'refreshToken', 'user']);
    expect((await rows('user_id = ?', [String(userId)])).map((r) => r.session_id)).toEqual([decodeJwt(res.body.refreshToken).sessionId]);
    expect((await refresh(before.refreshToken)).status).toBe(401);
    const again = await app.request('POST', '/api/auth/reset-password', { code: 'reset-me', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }, none);
    expect([again.status, again.body.error.message]).toEqual([400, 'Incorrect code provided']);
    await app.request('POST', '/api/auth/change-password', { currentPassword: 'Passw0rd3!', password: 'Passw0rd!', passwordConfirmation: 'Passw0rd!' }, bearer(res.body.jwt));
  });

  it("GraphQL's login answers the access token of a new session (its payload has no refresh token, as Strapi's)", async () => {
    const res = await app.request('POST', '/graphql', { query: 'mutation { login(input: { identifier: "alice", password: "Passw0rd!" }) { jwt user { username } } }' }, { ...none, 'user-agent': CHROME_MAC });
    expect(res.body.errors).toBeUndefined();
    const claims = decodeJwt(res.body.data.login.jwt);
    expect(claims).toMatchObject({ userId: String(userId), type: 'access' });
    const [row] = await rows('session_id = ?', [claims.sessionId]);
    expect(row).toMatchObject({ status: 'active', device_id: null });
    expect(metadataOf(row.metadata)).toMatchObject({ deviceName: 'Chrome on macOS' });
    expect((await app.request('POST', '/graphql', { query: '{ me { username } }' }, bearer(res.body.data.login.jwt))).body.data.me.username).toBe('alice');
  });

  it("GraphQL's changePassword, as REST's: every session ended, one opened; its payload has the new access token", async () => {
    const before = await login();
    const change = (current: string, next: string, headers: Record<string, string>) =>
      app.request('POST', '/graphql', { query: `mutation { changePassword(currentPassword: "${current}", password: "${next}", passwordConfirmation: "${next}") { jwt user { username } } }` }, headers);
    expect((await change('Passw0rd!', 'Passw0rd3!', none)).body.errors[0].extensions.error.name).toBe('ForbiddenError');
    const res = await change('Passw0rd!', 'Passw0rd3!', bearer(before.jwt));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.changePassword.user.username).toBe('alice');
    const claims = decodeJwt(res.body.data.changePassword.jwt);
    expect(claims.type).toBe('access');
    expect((await rows('user_id = ?', [String(userId)])).map((r) => r.session_id)).toEqual([claims.sessionId]);
    expect((await refresh(before.refreshToken)).status).toBe(401);
    const wrong = await change('nope-nope', 'Passw0rd!', bearer(res.body.data.changePassword.jwt));
    expect(wrong.body.errors[0].message).toBe('The provided current password is invalid');
    expect((await change('Passw0rd3!', 'Passw0rd!', bearer(res.body.data.changePassword.jwt))).body.errors).toBeUndefined();
  });

  it('an access token Strapi signed for a session (its claims, the same secret) authenticates, as Strapi accepts it', async () => {
    const strapis = await new SignJWT({ userId: String(userId), sessionId: 'a'.repeat(32), type: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(SECRET));
    expect((await app.request('GET', '/api/users/me', undefined, bearer(strapis))).body.id).toBe(userId);
  });
});

describe('users-permissions refresh mode: the refresh token in a cookie', () => {
  let app: TestApp;
  const inject = (method: 'POST' | 'GET', url: string, body: object | undefined, headers: Record<string, string>) =>
    app.cairn.fastify.inject({ method, url, headers: body ? { 'content-type': 'application/json', ...headers } : headers, ...(body ? { payload: JSON.stringify(body) } : {}) });
  beforeAll(async () => {
    app = await startTestApp('sqlite', { contentTypes: {}, config: config({ sessions: { cookie: { name: 'rt' } } }) });
    expect((await app.request('POST', '/api/auth/local/register', { username: 'carol', email: 'carol@example.com', password: 'Passw0rd!' }, none)).status).toBe(200);
  });
  afterAll(async () => app?.close());

  it('asked for by x-strapi-refresh-cookie: login and refresh set it (with its .sig), refresh reads it, logout clears it', async () => {
    const login = await inject('POST', '/api/auth/local', { identifier: 'carol', password: 'Passw0rd!' }, { 'x-strapi-refresh-cookie': 'httpOnly' });
    expect(login.statusCode, login.body).toBe(200);
    expect(Object.keys(login.json())).toEqual(['jwt', 'user']);
    const [cookie, signature] = login.headers['set-cookie'] as string[];
    // As Strapi's Koa writes it (not in production: not Secure), with the keygrip signature Koa adds for the app's keys.
    expect(cookie).toMatch(/^rt=eyJ[\w-]+\.[\w-]+\.[\w-]+; path=\/; samesite=lax; httponly$/);
    expect(signature).toMatch(/^rt\.sig=[\w-]+; path=\/; samesite=lax; httponly$/);
    const token = cookie.slice(3, cookie.indexOf(';'));
    expect(decodeJwt(token).type).toBe('refresh');

    // The cookie is read before the body, and read unsigned, as Strapi reads it.
    const refreshed = await inject('POST', '/api/auth/refresh', undefined, { cookie: `rt=${token}` });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(Object.keys(refreshed.json())).toEqual(['jwt', 'refreshToken']);
    expect(refreshed.headers['set-cookie']).toBeUndefined();
    const next = refreshed.json().refreshToken as string;
    expect((await inject('POST', '/api/auth/refresh', { refreshToken: next }, { cookie: 'rt=garbage' })).statusCode).toBe(401);

    const inCookie = await inject('POST', '/api/auth/refresh', { refreshToken: next }, { 'x-strapi-refresh-cookie': 'httpOnly' });
    expect(Object.keys(inCookie.json())).toEqual(['jwt']);
    const last = (inCookie.headers['set-cookie'] as string[])[0];
    const logout = await inject('POST', '/api/auth/logout', {}, { authorization: `Bearer ${inCookie.json().jwt}`, 'x-strapi-refresh-cookie': 'httpOnly', cookie: last.split(';')[0] });
    expect(logout.statusCode).toBe(200);
    expect(logout.headers['set-cookie']).toEqual([
      'rt=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly',
      expect.stringMatching(/^rt\.sig=[\w-]+; path=\/; expires=Thu, 01 Jan 1970 00:00:00 GMT; samesite=lax; httponly$/),
    ]);
    expect((await inject('POST', '/api/auth/refresh', { refreshToken: last.slice(3, last.indexOf(';')) }, {})).statusCode).toBe(401);
  });

  it("GraphQL's login sets it too when asked (its payload carries the access token only)", async () => {
    const query = 'mutation { login(input: { identifier: "carol", password: "Passw0rd!" }) { jwt } }';
    const asked = await inject('POST', '/graphql', { query }, { 'x-strapi-refresh-cookie': 'httpOnly' });
    expect(asked.json().data.login.jwt).toEqual(expect.any(String));
    const [cookie] = asked.headers['set-cookie'] as string[];
    expect(decodeJwt(cookie.slice(3, cookie.indexOf(';')))).toMatchObject({ type: 'refresh', sessionId: decodeJwt(asked.json().data.login.jwt).sessionId });
    expect((await inject('POST', '/graphql', { query }, {})).headers['set-cookie']).toBeUndefined();
  });
});

describe('users-permissions refresh mode: a Secure cookie over plain HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { contentTypes: {}, config: config({ sessions: { httpOnly: true, cookie: { secure: true } } }) });
    expect((await app.request('POST', '/api/auth/local/register', { username: 'dan', email: 'dan@example.com', password: 'Passw0rd!' }, none)).status).toBe(200);
  });
  afterAll(async () => app?.close());

  it('is refused before the session is opened (Strapi: a 500 after opening it), with what to change', async () => {
    const before = await app.cairn.db.query('SELECT id FROM strapi_sessions');
    const res = await app.request('POST', '/api/auth/local', { identifier: 'dan', password: 'Passw0rd!' }, none);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: expect.stringMatching(/^The refresh token cookie is Secure and this connection is not encrypted/) });
    expect(await app.cairn.db.query('SELECT id FROM strapi_sessions')).toEqual(before);
  });
});

describe('users-permissions default mode: the session routes', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('sqlite', { contentTypes: {}, config: { plugins: { 'users-permissions': { config: { jwtSecret: SECRET, ratelimit: { max: 1000 } } } } } });
  });
  afterAll(async () => app?.close());

  it('answer 404 once the caller may call them (403 before), and no session is ever written', async () => {
    const notFound = { status: 404, body: { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } } };
    expect(await app.request('POST', '/api/auth/refresh', { refreshToken: 'x' }, none)).toMatchObject(notFound);
    expect((await app.request('POST', '/api/auth/logout', {}, none)).status).toBe(403);
    expect((await app.request('GET', '/api/auth/sessions', undefined, none)).status).toBe(403);
    const { body } = await app.request('POST', '/api/auth/local/register', { username: 'erin', email: 'erin@example.com', password: 'Passw0rd!' }, none);
    expect(Object.keys(body)).toEqual(['jwt', 'user']);
    expect(decodeJwt(body.jwt)).toMatchObject({ id: body.user.id });
    const user = bearer(body.jwt);
    // The authenticated role may not refresh (Strapi grants it to the public role only).
    expect((await app.request('POST', '/api/auth/refresh', {}, user)).status).toBe(403);
    expect(await app.request('POST', '/api/auth/logout', {}, user)).toMatchObject(notFound);
    expect(await app.request('GET', '/api/auth/sessions', undefined, user)).toMatchObject(notFound);
    expect(await app.request('DELETE', '/api/auth/sessions/x', undefined, user)).toMatchObject(notFound);
    // GraphQL's changePassword answers a default-mode token too.
    const changed = await app.request('POST', '/graphql', { query: 'mutation { changePassword(currentPassword: "Passw0rd!", password: "Passw0rd2!", passwordConfirmation: "Passw0rd2!") { jwt } }' }, user);
    expect(decodeJwt(changed.body.data.changePassword.jwt)).toMatchObject({ id: body.user.id });
    expect(await app.cairn.db.query('SELECT id FROM strapi_sessions')).toEqual([]);
  });
});
