import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type DatabaseConfig, type DialectName } from '../../src/database/index.js';
import { holdsStrapiLayout } from '../../src/database/storage-layout.js';
import type { ApiTokens } from '../../src/auth/index.js';
import { PERMISSIONS_RECHECK_MS } from '../../src/auth/roles.js';
import { changeRole, roleActions as listRoleActions } from '../../src/auth/role-changes.js';
import { startAppOn } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';
import { loadStrapiFixture } from '../helpers/strapi-fixture.js';
import { CONFORMANCE_APP, STRAPI_SECRETS, STRAPI_TOKENS } from '../helpers/strapi-app.js';
import { databaseSnapshot } from '../helpers/db-snapshot.js';
import { cairn as runCli, ensureBuilt } from '../cli/build.js';

// Auth on a database that real Strapi 5 made (issue 18): roles and permissions from `up_*`, users with the passwords
// Strapi stored, API tokens Strapi issued, JWTs signed as Strapi signs them; nothing written that Strapi did not ask.

const SECRETS = STRAPI_SECRETS;
const TOKENS = STRAPI_TOKENS;
const TOKEN_TYPES: Record<string, string> = { 'Read Only': 'read-only', 'Full Access': 'full-access', 'anchor-full-access': 'full-access' };

/**
 * A copy of the conformance app that opens `database`, with the fixture's salt and encryption key, and either no
 * config/permissions (the roles are the database's) or the one given.
 */
function appFor(database: DatabaseConfig, permissions?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-auth-'));
  const skipped = new Set(['config/permissions.json', 'config/database.js', 'config/admin.js']);
  cpSync(CONFORMANCE_APP, dir, { recursive: true, filter: (source) => !skipped.has(relative(CONFORMANCE_APP, source)) });
  writeFileSync(join(dir, 'config', 'database.json'), JSON.stringify(database));
  writeFileSync(join(dir, 'config', 'admin.json'), JSON.stringify({ apiToken: { salt: SECRETS.apiTokenSalt }, secrets: { encryptionKey: SECRETS.encryptionKey } }));
  if (permissions) writeFileSync(join(dir, 'config', 'permissions.json'), JSON.stringify(permissions));
  return dir;
}

/** config/plugins.js reads JWT_SECRET: the fixture's secret given over it. */
const JWT_CONFIG = { plugins: { 'users-permissions': { config: { jwtSecret: SECRETS.jwtSecret, ratelimit: { max: 1000 } } } } };

/** Every table's definition and row count, and the permission rows: what must not change when Cairn starts and reads. */
async function snapshot(db: Database) {
  const permissions = await db.query('SELECT * FROM up_permissions ORDER BY id');
  const links = await db.query('SELECT * FROM up_permissions_role_lnk ORDER BY id');
  return { ...(await databaseSnapshot(db)), permissions, links };
}

/** A role's actions, read from Strapi's tables. */
async function roleActions(db: Database, role: string): Promise<string[]> {
  const rows = await db.query<{ action: string }>(
    'SELECT p.action FROM up_roles r JOIN up_permissions_role_lnk l ON l.role_id = r.id JOIN up_permissions p ON p.id = l.permission_id WHERE r.type = ? ORDER BY p.action',
    [role],
  );
  return rows.map((r) => r.action);
}

/** A datetime as Strapi stores it: SQLite milliseconds, elsewhere UTC wall-clock text. */
const stored = (dialect: DialectName, at: Date) => (dialect === 'sqlite' ? at.getTime() : at.toISOString().replace('T', ' ').replace('Z', ''));
/** A stored datetime (milliseconds, or text in UTC) in milliseconds. */
const millis = (value: unknown) => (typeof value === 'number' || /^\d+$/.test(String(value)) ? Number(value) : Date.parse(`${String(value).replace(' ', 'T')}Z`));
const STORED_DATETIME: Record<DialectName, (value: unknown) => boolean> = {
  sqlite: (value) => Number.isInteger(value),
  postgres: (value) => typeof value === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(value),
  mysql: (value) => typeof value === 'string' && /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?$/.test(value),
};

/** Grants `action` to a role by SQL, as Strapi's admin does: a new permission row, linked at the end of the role's list. */
async function grantBySql(db: Database, dialect: DialectName, role: string, action: string): Promise<void> {
  const [{ id: roleId }] = await db.query<{ id: number }>('SELECT id FROM up_roles WHERE type = ?', [role]);
  const now = stored(dialect, new Date());
  const [{ id }] = await db.query<{ id: number }>(
    'INSERT INTO up_permissions (document_id, action, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    ['grantedbysqlxxxxxxxxxxxx', action, now, now, now],
  );
  const [{ ord }] = await db.query<{ ord: number }>('SELECT MAX(permission_ord) AS ord FROM up_permissions_role_lnk WHERE role_id = ?', [roleId]);
  await db.execute('INSERT INTO up_permissions_role_lnk (permission_id, role_id, permission_ord) VALUES (?, ?, ?)', [id, roleId, Number(ord) + 1]);
}

/** Revokes `action` from a role by SQL, as Strapi's admin does: its permission row deleted with its link. */
async function revokeBySql(db: Database, role: string, action: string): Promise<void> {
  const rows = await db.query<{ id: number }>(
    'SELECT p.id FROM up_permissions p JOIN up_permissions_role_lnk l ON l.permission_id = p.id JOIN up_roles r ON r.id = l.role_id WHERE r.type = ? AND p.action = ?',
    [role, action],
  );
  expect(rows).toHaveLength(1);
  await db.execute('DELETE FROM up_permissions_role_lnk WHERE permission_id = ?', [rows[0].id]);
  await db.execute('DELETE FROM up_permissions WHERE id = ?', [rows[0].id]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const none = { authorization: '' };
const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
const secretKey = new TextEncoder().encode(SECRETS.jwtSecret);

describeEachDialect('auth from the tables of a database Strapi made', (dialect) => {
  let drop: () => Promise<void>;
  let side: Database;
  let dir: string;
  let app: Awaited<ReturnType<typeof startAppOn>>;
  let before: Awaited<ReturnType<typeof snapshot>>;
  let tokensBefore: Array<Record<string, unknown>>;
  let started = 0;

  beforeAll(async () => {
    const fixture = await loadStrapiFixture(dialect);
    drop = fixture.drop;
    // The test's own connection: Strapi's admin, as it were, and the observer of what Cairn writes.
    side = await createDatabase(fixture.config);
    before = await snapshot(side);
    tokensBefore = await side.query('SELECT * FROM strapi_api_tokens ORDER BY id');
    dir = appFor(fixture.config);
    app = await startAppOn(dir, fixture.config, JWT_CONFIG);
    started = Date.now();
  });
  afterAll(async () => {
    await app?.close();
    await side?.close();
    await drop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens in Strapi\'s layout', async () => {
    expect(await holdsStrapiLayout(app.cairn.db)).toBe(true);
  });

  it('the public role: what it was granted in Strapi answers 200, anything else 403 ForbiddenError', async () => {
    const found = await app.request('GET', '/api/articles?pagination[pageSize]=2', undefined, none);
    expect(found.status, found.raw).toBe(200);
    expect(found.body.data).toHaveLength(2);
    expect((await app.request('GET', '/api/restaurants?pagination[pageSize]=1&locale=fr', undefined, none)).status).toBe(200);
    for (const [method, url, body] of [
      ['GET', '/api/users', undefined],
      ['POST', '/api/articles', { data: { title: 'no' } }],
      ['DELETE', '/api/categories/x', undefined],
    ] as const) {
      const refused = await app.request(method, url, body, none);
      expect(refused.status, `${method} ${url}`).toBe(403);
      expect(refused.body.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
    }
  });

  it('each token Strapi issued gives the access of its type', async () => {
    expect(Object.keys(TOKENS[dialect]).sort()).toEqual(Object.keys(TOKEN_TYPES).sort());
    for (const [name, key] of Object.entries(TOKENS[dialect])) {
      const type = TOKEN_TYPES[name];
      // Reads: any token. /api/users is not the public role's, so this is the token's doing.
      expect((await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status, name).toBe(200);
      expect((await app.request('GET', '/api/users', undefined, bearer(key))).status, name).toBe(200);
      // A write: refused to a read-only token (403), made with the others.
      const write = await app.request('POST', '/api/categories', { data: { name: `by ${name}` } }, bearer(key));
      expect(write.status, `${name}: ${write.raw}`).toBe(type === 'read-only' ? 403 : 201);
    }
  });

  it('a wrong token, or a credential that is no bearer token, is a 401 (never the public role)', async () => {
    const real = TOKENS[dialect]['Full Access'];
    for (const authorization of [`Bearer ${real.slice(0, -1)}0`, `Bearer ${'f'.repeat(256)}`, 'Bearer ', `Basic ${real}`, `Bearer ${real} extra`]) {
      const res = await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, { authorization });
      expect(res.status, authorization.slice(0, 12)).toBe(401);
      expect(res.body.error.name).toBe('UnauthorizedError');
    }
    // A key hashed with another salt is another key: the fixture's tokens are found only with the fixture's salt.
    const other = new (app.cairn.plugin('users-permissions').service<ApiTokens>('tokens').constructor as typeof ApiTokens)(app.cairn.db, 'another-salt');
    expect(await other.verify(real)).toBeNull();
  });

  it('the seeded user logs in with the password Strapi stored; the JWT has the form Strapi\'s has, and /users/me answers the user', async () => {
    const login = await app.request('POST', '/api/auth/local', { identifier: SECRETS.user.email, password: SECRETS.user.password }, none);
    expect(login.status, login.raw).toBe(200);
    expect(login.body.user).toMatchObject({ id: SECRETS.user.id, username: SECRETS.user.username, email: SECRETS.user.email });
    expect(login.body.user).not.toHaveProperty('password');
    const jwt = login.body.jwt as string;
    // users-permissions (legacy-support mode, Strapi's default): jsonwebtoken's HS256 of { id }, 30 days.
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(jwt);
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'id']);
    expect(claims.id).toBe(SECRETS.user.id);
    expect(claims.exp! - claims.iat!).toBe(30 * 86_400);
    await expect(jwtVerify(jwt, secretKey, { algorithms: ['HS256'] })).resolves.toBeTruthy();

    const me = await app.request('GET', '/api/users/me', undefined, bearer(jwt));
    expect(me.status, me.raw).toBe(200);
    const [row] = await side.query<Record<string, unknown>>('SELECT document_id, created_at, updated_at, published_at FROM up_users WHERE id = ?', [SECRETS.user.id]);
    const iso = (value: unknown) => new Date(millis(value)).toISOString();
    expect(me.body).toEqual({
      id: SECRETS.user.id,
      documentId: row.document_id,
      username: SECRETS.user.username,
      email: SECRETS.user.email,
      provider: 'local',
      confirmed: true,
      blocked: false,
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      publishedAt: iso(row.published_at),
    });

    // The user's role (authenticated, in Strapi's tables) decides: granted reads and writes pass, the rest is 403.
    expect((await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(jwt))).status).toBe(200);
    expect((await app.request('POST', '/api/categories', { data: { name: 'by jwt' } }, bearer(jwt))).status).toBe(201);
    expect((await app.request('GET', '/api/users', undefined, bearer(jwt))).status).toBe(403);

    const wrong = await app.request('POST', '/api/auth/local', { identifier: SECRETS.user.username, password: `${SECRETS.user.password}x` }, none);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe('Invalid identifier or password');
  });

  it('a JWT signed as Strapi signs it (its secret, the user\'s row id) is accepted; another secret, an unknown user, another algorithm are 401', async () => {
    const sign = (payload: Record<string, unknown>, key = secretKey) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('30d').sign(key);
    const me = await app.request('GET', '/api/users/me', undefined, bearer(await sign({ id: SECRETS.user.id })));
    expect(me.status, me.raw).toBe(200);
    expect(me.body.username).toBe(SECRETS.user.username);
    const refused = [
      await sign({ id: SECRETS.user.id }, new TextEncoder().encode('conformance-users-permissions-jwt-secret')),
      await sign({ id: 999_999 }),
      await sign({ id: String(SECRETS.user.id) }),
      await new SignJWT({ id: SECRETS.user.id }).setProtectedHeader({ alg: 'HS512' }).setIssuedAt().setExpirationTime('1h').sign(secretKey),
      await new SignJWT({ id: SECRETS.user.id }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(0).setExpirationTime(1).sign(secretKey),
    ];
    for (const jwt of refused) expect((await app.request('GET', '/api/users/me', undefined, bearer(jwt))).status).toBe(401);
    expect((await app.request('GET', '/api/users/me', undefined, none)).status).toBe(403);
  });

  it('registering writes Strapi\'s user row and its link to the authenticated role; the new user logs in', async () => {
    const res = await app.request('POST', '/api/auth/local/register', { username: 'newcomer', email: 'newcomer@example.com', password: 'long enough' }, none);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.user).toMatchObject({ username: 'newcomer', email: 'newcomer@example.com', provider: 'local', confirmed: true, blocked: false });
    const [user] = await side.query<Record<string, unknown>>('SELECT * FROM up_users WHERE username = ?', ['newcomer']);
    expect(user).toMatchObject({ id: res.body.user.id, document_id: res.body.user.documentId, email: 'newcomer@example.com', locale: null, created_by_id: null });
    // bcrypt, as Strapi hashes: Strapi's own login checks it.
    expect(String(user.password)).toMatch(/^\$2[aby]\$10\$/);
    expect(STORED_DATETIME[dialect](user.created_at), String(user.created_at)).toBe(true);
    const roles = await side.query<{ type: string }>('SELECT r.type FROM up_users_role_lnk l JOIN up_roles r ON r.id = l.role_id WHERE l.user_id = ?', [user.id]);
    expect(roles.map((r) => r.type)).toEqual(['authenticated']);
    const login = await app.request('POST', '/api/auth/local', { identifier: 'newcomer', password: 'long enough' }, none);
    expect(login.status, login.raw).toBe(200);
    expect((await app.request('GET', '/api/users/me', undefined, bearer(login.body.jwt))).body).toMatchObject({ username: 'newcomer' });
    // Bad input is still a 400, and a taken email still the usual error, before anything is written.
    const count = await side.query('SELECT COUNT(*) AS n FROM up_users');
    expect((await app.request('POST', '/api/auth/local/register', { username: 'x', email: 'bad', password: '1' }, none)).status).toBe(400);
    const taken = await app.request('POST', '/api/auth/local/register', { username: 'other', email: SECRETS.user.email, password: 'long enough' }, none);
    expect(taken.status).toBe(400);
    expect(taken.body.error.message).toBe('Email or Username are already taken');
    expect(await side.query('SELECT COUNT(*) AS n FROM up_users')).toEqual(count);
  });

  it('the start and the reads wrote nothing: the layout as Strapi left it, and only the rows the writes above added', async () => {
    const after = await snapshot(side);
    expect(after.layout).toEqual(before.layout);
    // Three categories (two full-access tokens, one user's JWT), one user with its role link.
    const added: Record<string, number> = { categories: 3, up_users: 1, up_users_role_lnk: 1 };
    expect(after.counts).toEqual(Object.fromEntries(Object.entries(before.counts).map(([table, n]) => [table, n + (added[table] ?? 0)])));
    expect(after.permissions).toEqual(before.permissions);
    expect(after.links).toEqual(before.links);
    // Except what Strapi writes itself when a token is used: `last_used_at` (with `updated_at`), when it was empty
    // or an hour old, in the dialect's datetime form. Every token was used above.
    const tokens = await side.query<Record<string, unknown>>('SELECT * FROM strapi_api_tokens ORDER BY id');
    expect(tokens).toHaveLength(tokensBefore.length);
    for (const [i, token] of tokens.entries()) {
      const old = tokensBefore[i];
      const { last_used_at: used, updated_at: updated, ...rest } = token;
      const { last_used_at: usedBefore, updated_at: updatedBefore, ...restBefore } = old;
      expect(rest).toEqual(restBefore);
      const due = usedBefore === null || started - millis(usedBefore) >= 3_600_000;
      if (!due) {
        expect([used, updated]).toEqual([usedBefore, updatedBefore]);
        continue;
      }
      expect(STORED_DATETIME[dialect](used), String(used)).toBe(true);
      expect(updated).toEqual(used);
      expect(millis(used)).toBeGreaterThanOrEqual(started - 1000);
      expect(millis(used)).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('a token written again within the hour is not written (Strapi\'s rule); an expired token is a 401', async () => {
    const key = TOKENS[dialect]['Read Only'];
    const [usedBefore] = await side.query('SELECT last_used_at, updated_at FROM strapi_api_tokens WHERE name = ?', ['Read Only']);
    // Another process (a fresh ApiTokens: nothing remembered) uses it: the row is an hour younger than due.
    const fresh = new (app.cairn.plugin('users-permissions').service<ApiTokens>('tokens').constructor as typeof ApiTokens)(app.cairn.db, SECRETS.apiTokenSalt);
    expect((await fresh.verify(key))?.name).toBe('Read Only');
    expect((await side.query('SELECT last_used_at, updated_at FROM strapi_api_tokens WHERE name = ?', ['Read Only']))[0]).toEqual(usedBefore);

    await side.execute('UPDATE strapi_api_tokens SET expires_at = ? WHERE name = ?', [stored(dialect, new Date(Date.now() - 60_000)), 'Read Only']);
    const expired = await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key));
    expect(expired.status).toBe(401);
    expect(expired.body.error.name).toBe('UnauthorizedError');
    await side.execute('UPDATE strapi_api_tokens SET expires_at = ? WHERE name = ?', [stored(dialect, new Date(Date.now() + 86_400_000)), 'Read Only']);
    expect((await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(200);
    // A token of another kind (Strapi's admin tokens) is no content-API token.
    await side.execute('UPDATE strapi_api_tokens SET kind = ? WHERE name = ?', ['admin', 'Read Only']);
    expect((await app.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(401);
    await side.execute('UPDATE strapi_api_tokens SET kind = ? WHERE name = ?', ['content-api', 'Read Only']);
  });

  it('a permission granted or revoked in Strapi\'s tables applies at the next recheck, without a restart, and not before', async () => {
    const publicStatus = async (url: string) => (await app.request('GET', url, undefined, none)).status;
    /** Runs `change` just after a recheck, then checks the old answer holds until the next one and the new one after. */
    const applies = async (change: () => Promise<void>, url: string, was: number, becomes: number) => {
      await sleep(PERMISSIONS_RECHECK_MS + 20);
      expect(await publicStatus(url)).toBe(was); // this request rechecks: the cache is fresh from here
      const checkedAt = Date.now();
      await change();
      const early = await publicStatus(url);
      if (Date.now() - checkedAt < PERMISSIONS_RECHECK_MS - 100) expect(early, 'before the recheck: the cached permissions').toBe(was);
      await sleep(checkedAt + PERMISSIONS_RECHECK_MS + 100 - Date.now());
      expect(await publicStatus(url), 'after the recheck (~1.1 s)').toBe(becomes);
    };
    await applies(() => grantBySql(side, dialect, 'public', 'plugin::users-permissions.user.find'), '/api/users', 403, 200);
    await applies(() => revokeBySql(side, 'public', 'api::author.author.find'), '/api/authors?pagination[pageSize]=1', 200, 403);
    // A role's permission deleted and another created in one save (the count stays the same) is noticed too.
    await applies(
      async () => {
        await revokeBySql(side, 'public', 'plugin::users-permissions.user.find');
        await grantBySql(side, dialect, 'public', 'api::author.author.find');
      },
      '/api/users',
      200,
      403,
    );
    expect(await publicStatus('/api/authors?pagination[pageSize]=1')).toBe(200);
  });
});

describeEachDialect('auth writing the tables of a database Strapi made', (dialect) => {
  let drop: () => Promise<void>;
  let config: DatabaseConfig;
  let side: Database;
  const dirs: string[] = [];
  beforeAll(async () => {
    // The CLI test runs the compiled code (a build, under the hooks' longer time limit).
    ensureBuilt();
    const fixture = await loadStrapiFixture(dialect);
    drop = fixture.drop;
    config = fixture.config;
    side = await createDatabase(fixture.config);
  });
  afterAll(async () => {
    await side?.close();
    await drop?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const app = (permissions?: object) => {
    const dir = appFor(config, permissions);
    dirs.push(dir);
    return startAppOn(dir, config, JWT_CONFIG);
  };

  it('config/permissions is written into up_permissions and its role links as Strapi\'s admin writes them, once', async () => {
    const publicBefore = await roleActions(side, 'public');
    const [{ ord: lastOrd }] = await side.query<{ ord: number }>(
      'SELECT MAX(l.permission_ord) AS ord FROM up_permissions_role_lnk l JOIN up_roles r ON r.id = l.role_id WHERE r.type = ?',
      ['public'],
    );
    const wanted = [...publicBefore.filter((a) => a !== 'api::dish.dish.findOne'), 'plugin::users-permissions.user.find'];
    const permissions = { roles: { public: { permissions: wanted }, editor: { name: 'Editor', description: 'edits', permissions: ['api::article.article.find'] } } };
    const first = await app(permissions);
    try {
      expect(await roleActions(side, 'public')).toEqual([...wanted].sort());
      expect(await roleActions(side, 'editor')).toEqual(['api::article.article.find']);
      const [added] = await side.query<Record<string, unknown>>(
        'SELECT p.*, l.permission_ord FROM up_permissions p JOIN up_permissions_role_lnk l ON l.permission_id = p.id WHERE p.action = ?',
        ['plugin::users-permissions.user.find'],
      );
      expect(added.document_id).toMatch(/^[a-z][a-z0-9]{23}$/);
      for (const column of ['created_at', 'updated_at', 'published_at']) expect(STORED_DATETIME[dialect](added[column]), `${column}: ${added[column]}`).toBe(true);
      expect(added.updated_at).toEqual(added.created_at);
      expect([added.locale, added.created_by_id, added.updated_by_id]).toEqual([null, null, null]);
      expect(Number(added.permission_ord)).toBe(Number(lastOrd) + 1);
      const [role] = await side.query<Record<string, unknown>>('SELECT * FROM up_roles WHERE type = ?', ['editor']);
      expect(role).toMatchObject({ name: 'Editor', description: 'edits', locale: null });
      expect(role.document_id).toMatch(/^[a-z][a-z0-9]{23}$/);
      expect(STORED_DATETIME[dialect](role.published_at)).toBe(true);
      expect((await first.request('GET', '/api/users', undefined, none)).status).toBe(200);
      const dish = await first.request('GET', '/api/dishes?pagination[pageSize]=1', undefined, none);
      expect((await first.request('GET', `/api/dishes/${dish.body.data[0].documentId}`, undefined, none)).status).toBe(403);
    } finally {
      await first.close();
    }
    // Started again with the same file: the roles hold what it says, so nothing is written.
    const before = await snapshot(side);
    const second = await app(permissions);
    await second.close();
    const after = await snapshot(side);
    expect(after.counts).toEqual(before.counts);
    expect(after.permissions).toEqual(before.permissions);
    expect(after.links).toEqual(before.links);
    expect(after.layout).toEqual(before.layout);
  });

  it('a token made by Cairn is a row Strapi reads as its own: kind, hash, encrypted key, expiry; a custom token\'s actions linked in order', async () => {
    const running = await app();
    try {
      const tokens = running.cairn.plugin('users-permissions').service<ApiTokens>('tokens');
      const { key, token } = await tokens.create({ name: 'cairn-custom', type: 'custom', permissions: ['api::article.article.find', 'api::chef.chef.find', 'api::article.article.find'], lifespanDays: 30 });
      expect(token).toMatchObject({ name: 'cairn-custom', type: 'custom', permissions: ['api::article.article.find', 'api::chef.chef.find'] });
      const [row] = await side.query<Record<string, unknown>>('SELECT * FROM strapi_api_tokens WHERE name = ?', ['cairn-custom']);
      expect(row).toMatchObject({ kind: 'content-api', type: 'custom', last_used_at: null, locale: null, created_by_id: null, updated_by_id: null });
      expect(row.document_id).toMatch(/^[a-z][a-z0-9]{23}$/);
      expect(row.access_key).toBe(createHashHmac(key));
      expect(decrypt(String(row.encrypted_key))).toBe(key);
      expect(Number(row.lifespan)).toBe(30 * 86_400_000);
      for (const column of ['created_at', 'updated_at', 'published_at', 'expires_at']) expect(STORED_DATETIME[dialect](row[column]), column).toBe(true);
      expect(millis(row.expires_at) - millis(row.created_at)).toBe(30 * 86_400_000);
      const actions = await side.query<Record<string, unknown>>(
        'SELECT p.action, p.document_id, p.created_at, l.api_token_permission_ord AS ord FROM strapi_api_token_permissions p JOIN strapi_api_token_permissions_token_lnk l ON l.api_token_permission_id = p.id WHERE l.api_token_id = ? ORDER BY l.api_token_permission_ord',
        [row.id],
      );
      expect(actions.map((a) => [a.action, Number(a.ord)])).toEqual([
        ['api::article.article.find', 1],
        ['api::chef.chef.find', 2],
      ]);
      expect(STORED_DATETIME[dialect](actions[0].created_at)).toBe(true);

      // Its actions, and nothing else.
      expect((await running.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(200);
      expect((await running.request('GET', '/api/chefs?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(200);
      expect((await running.request('GET', '/api/users', undefined, bearer(key))).status).toBe(403);
      expect((await tokens.list()).map((t) => t.name)).toEqual(['Read Only', 'Full Access', 'anchor-full-access', 'cairn-custom']);
      await expect(tokens.create({ name: 'Full Access', type: 'read-only' })).rejects.toThrow(/already exists/);

      expect(await tokens.revoke('cairn-custom')).toBe(true);
      expect(await side.query('SELECT id FROM strapi_api_tokens WHERE name = ?', ['cairn-custom'])).toEqual([]);
      expect(await side.query('SELECT id FROM strapi_api_token_permissions_token_lnk WHERE api_token_id = ?', [row.id])).toEqual([]);
      expect(Number((await side.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM strapi_api_token_permissions'))[0].n)).toBe(0);
      expect((await running.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(401);
      expect(await tokens.revoke('cairn-custom')).toBe(false);
    } finally {
      await running.close();
    }
  });

  it('`cairn permissions grant|revoke` (changeRole) on a role config/permissions does not name: Strapi\'s rows, read back by `list`', async () => {
    const running = await app();
    try {
      const before = await roleActions(side, 'authenticated');
      const granted = await changeRole(running.cairn, { role: 'authenticated', grant: ['plugin::users-permissions.user.find'], revoke: ['api::dish.dish.delete'] });
      expect(granted.file).toBeUndefined();
      const expected = [...before.filter((a) => a !== 'api::dish.dish.delete'), 'plugin::users-permissions.user.find'].sort();
      expect(await roleActions(side, 'authenticated')).toEqual(expected);
      expect(await listRoleActions(running.cairn, 'authenticated')).toEqual(expected);
      await expect(changeRole(running.cairn, { role: 'nobody', grant: ['api::dish.dish.find'] })).rejects.toThrow(/unknown role "nobody"/);
      await expect(changeRole(running.cairn, { role: 'public', grant: ['api::dish.dish.fly'] })).rejects.toThrow(/unknown action api::dish.dish.fly/);
    } finally {
      await running.close();
    }
  });

  it('change-password writes the new bcrypt hash and moves updated_at, in the dialect\'s form; the new password logs in', async () => {
    const running = await app();
    try {
      const login = await running.request('POST', '/api/auth/local', { identifier: SECRETS.user.username, password: SECRETS.user.password }, none);
      expect(login.status, login.raw).toBe(200);
      const [old] = await side.query<Record<string, unknown>>('SELECT password, updated_at FROM up_users WHERE id = ?', [SECRETS.user.id]);
      const body = { currentPassword: SECRETS.user.password, password: 'Another-passw0rd', passwordConfirmation: 'Another-passw0rd' };
      const changed = await running.request('POST', '/api/auth/change-password', body, bearer(login.body.jwt));
      expect(changed.status, changed.raw).toBe(200);
      const [row] = await side.query<Record<string, unknown>>('SELECT password, updated_at FROM up_users WHERE id = ?', [SECRETS.user.id]);
      expect(row.password).not.toEqual(old.password);
      expect(String(row.password)).toMatch(/^\$2[ab]\$10\$/);
      expect(STORED_DATETIME[dialect](row.updated_at)).toBe(true);
      expect(millis(row.updated_at)).toBeGreaterThan(millis(old.updated_at));
      expect((await running.request('POST', '/api/auth/local', { identifier: SECRETS.user.email, password: 'Another-passw0rd' }, none)).status).toBe(200);
      expect((await running.request('POST', '/api/auth/local', { identifier: SECRETS.user.email, password: SECRETS.user.password }, none)).status).toBe(400);
    } finally {
      await running.close();
    }
  });

  it('`cairn token create` on a Strapi database writes Strapi\'s row; the running server accepts its key', async () => {
    const dir = appFor(config);
    dirs.push(dir);
    const made = runCli(['token', 'create', '--dir', dir, '--name', 'from-cli', '--type', 'read-only', '--lifespan', '7']);
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const key = made.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{128,}$/);
    const [row] = await side.query<Record<string, unknown>>('SELECT * FROM strapi_api_tokens WHERE name = ?', ['from-cli']);
    expect(row).toMatchObject({ kind: 'content-api', type: 'read-only', access_key: createHashHmac(key) });
    expect(decrypt(String(row.encrypted_key))).toBe(key);
    // No cairn_* table was made for it.
    expect((await databaseSnapshot(side)).layout.tables.filter((t) => t.name.startsWith('cairn_'))).toEqual([]);
    const running = await app();
    try {
      expect((await running.request('GET', '/api/articles?pagination[pageSize]=1', undefined, bearer(key))).status).toBe(200);
      expect((await running.request('POST', '/api/categories', { data: { name: 'x' } }, bearer(key))).status).toBe(403);
    } finally {
      await running.close();
    }
    const listed = runCli(['token', 'list', '--dir', dir]);
    expect(listed.stdout).toContain('from-cli\tread-only');
  });
});

/** Strapi's access_key: the hex HMAC-SHA512 of the key with the salt. */
function createHashHmac(key: string): string {
  return createHmac('sha512', SECRETS.apiTokenSalt).update(key).digest('hex');
}

/** Strapi's admin decrypting `encrypted_key` (v1:iv:ciphertext:tag, AES-256-GCM under the SHA-256 of the encryption key). */
function decrypt(value: string): string {
  const [version, iv, text, tag] = value.split(':');
  expect(version).toBe('v1');
  const decipher = createDecipheriv('aes-256-gcm', createHash('sha256').update(SECRETS.encryptionKey).digest(), Buffer.from(iv, 'hex'));
  decipher.setAuthTag(Buffer.from(tag, 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(text, 'hex')), decipher.final()]).toString('utf8');
}

describe('the fixture secrets', () => {
  it('are the ones the fixture tokens were hashed with', async () => {
    const fixture = await loadStrapiFixture('sqlite');
    try {
      const db = await createDatabase(fixture.config);
      try {
        const rows = await db.query<{ name: string; access_key: string; encrypted_key: string }>('SELECT name, access_key, encrypted_key FROM strapi_api_tokens');
        for (const row of rows) {
          expect(createHashHmac(TOKENS.sqlite[row.name])).toBe(row.access_key);
          expect(decrypt(row.encrypted_key)).toBe(TOKENS.sqlite[row.name]);
        }
      } finally {
        await db.close();
      }
    } finally {
      await fixture.drop();
    }
  });
});
