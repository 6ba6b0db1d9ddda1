import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { describeEachDialect } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { ApiTokens } from '../../src/auth/index.js';


const model = {
  contentTypes: {
    post: {
      kind: 'collectionType',
      collectionName: 'posts',
      info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
      options: { draftAndPublish: false },
      attributes: {
        title: { type: 'string' },
        writer: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
      },
    },
    secret: {
      kind: 'collectionType',
      collectionName: 'secrets',
      info: { singularName: 'secret', pluralName: 'secrets', displayName: 'Secret' },
      options: { draftAndPublish: false },
      attributes: { code: { type: 'string' } },
    },
  },
  config: {
    plugins: { 'users-permissions': { config: { jwtSecret: 'test-secret', ratelimit: { max: 1000 } } } },
    admin: { apiToken: { salt: 'test-salt' } },
    permissions: {
      roles: {
        public: { description: 'anyone', permissions: ['api::post.post.find', 'api::post.post.findOne', 'plugin::users-permissions.user.find'] },
        authenticated: { description: 'users', permissions: ['api::post.post.find', 'api::post.post.create', 'api::secret.secret.find'] },
      },
    },
  },
};

describeEachDialect('users & permissions, JWT, API tokens', (dialect) => {
  let app: TestApp;
  const none = { authorization: '' };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  let jwt: string;
  let userId: number;
  beforeAll(async () => {
    app = await startTestApp(dialect, model);
    const res = await app.request('POST', '/api/auth/local/register', { username: 'alice', email: 'Alice@Example.com', password: 'correct horse' }, none);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    jwt = res.body.jwt;
    userId = res.body.user.id;
    await app.request('POST', '/api/posts', { data: { title: 'hello', writer: res.body.user.documentId } });
    await app.request('POST', '/api/secrets', { data: { code: 's3cr3t' } });
  });
  afterAll(async () => app?.close());

  describe('register, login, me', () => {
    it('register answers { jwt, user } without private fields; the email is stored lower-case', async () => {
      const res = await app.request('POST', '/api/auth/local/register', { username: 'bob', email: 'BOB@example.com', password: 'secret1!' }, none);
      expect(res.status).toBe(200);
      expect(res.body.jwt.split('.')).toHaveLength(3);
      expect(res.body.user).toMatchObject({ username: 'bob', email: 'bob@example.com', provider: 'local', confirmed: true, blocked: false });
      for (const key of ['password', 'resetPasswordToken', 'confirmationToken']) expect(res.body.user).not.toHaveProperty(key);
    });

    it('register refuses duplicates, bad input, privileged fields and operator objects', async () => {
      const dup = await app.request('POST', '/api/auth/local/register', { username: 'alice', email: 'x@example.com', password: 'whatever1' }, none);
      expect(dup.status).toBe(400);
      expect(dup.body.error.name).toBe('ApplicationError');
      const bad = await app.request('POST', '/api/auth/local/register', { username: 'x', email: 'bad', password: '1' }, none);
      expect(bad.status).toBe(400);
      expect(bad.body.error.name).toBe('ValidationError');
      for (const extra of [{ role: 1 }, { confirmed: false }, { blocked: false }]) {
        const res = await app.request('POST', '/api/auth/local/register', { username: 'eve', email: 'eve@example.com', password: 'password1', ...extra }, none);
        expect(res.status).toBe(400);
      }
      const operator = await app.request('POST', '/api/auth/local', { identifier: { $ne: '' }, password: 'x' }, none);
      expect(operator.status).toBe(400);
    });

    it('login by email (any case) or username; a wrong password is a 400', async () => {
      for (const identifier of ['alice@example.com', 'ALICE@example.com', 'alice']) {
        const res = await app.request('POST', '/api/auth/local', { identifier, password: 'correct horse' }, none);
        expect(res.status).toBe(200);
        expect(res.body.user.id).toBe(userId);
      }
      const wrong = await app.request('POST', '/api/auth/local', { identifier: 'alice', password: 'nope' }, none);
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toBe('Invalid identifier or password');
    });

    it('/api/users/me needs a user JWT', async () => {
      expect((await app.request('GET', '/api/users/me', undefined, bearer(jwt))).body.username).toBe('alice');
      expect((await app.request('GET', '/api/users/me', undefined, none)).status).toBe(403);
    });

    it('change-password needs the current password, then the new one logs in', async () => {
      const res = await app.request('POST', '/api/auth/change-password', { currentPassword: 'wrong', password: 'new password', passwordConfirmation: 'new password' }, bearer(jwt));
      expect(res.status).toBe(400);
      const ok = await app.request('POST', '/api/auth/change-password', { currentPassword: 'correct horse', password: 'new password', passwordConfirmation: 'new password' }, bearer(jwt));
      expect(ok.status).toBe(200);
      expect((await app.request('POST', '/api/auth/local', { identifier: 'alice', password: 'new password' }, none)).status).toBe(200);
      await app.request('POST', '/api/auth/change-password', { currentPassword: 'new password', password: 'correct horse', passwordConfirmation: 'correct horse' }, bearer(jwt));
    });

    it('a new password over 72 bytes (bcrypt would cut it) is refused with Strapi 5.54\'s message, before the current one is checked', async () => {
      const long = 'é'.repeat(36) + 'x'; // 73 bytes, 37 characters
      for (const currentPassword of ['correct horse', 'wrong']) {
        const res = await app.request('POST', '/api/auth/change-password', { currentPassword, password: long, passwordConfirmation: long }, bearer(jwt));
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Password must be less than 73 bytes');
      }
      const register = await app.request('POST', '/api/auth/local/register', { username: 'longpw', email: 'longpw@example.com', password: long }, none);
      expect(register.status).toBe(400);
      expect(register.body.error.message).toBe('Password must be less than 73 bytes');
      expect((await app.request('POST', '/api/auth/local', { identifier: 'alice', password: 'correct horse' }, none)).status).toBe(200);
    });
  });

  describe('enforcement', () => {
    it('the public role gets what it is granted, and a 403 for anything else', async () => {
      expect((await app.request('GET', '/api/posts', undefined, none)).status).toBe(200);
      const write = await app.request('POST', '/api/posts', { data: { title: 'x' } }, none);
      expect(write.status).toBe(403);
      expect(write.body.error).toMatchObject({ name: 'ForbiddenError', message: 'Forbidden' });
      expect((await app.request('GET', '/api/secrets', undefined, none)).status).toBe(403);
    });

    it('the authenticated role: its own permissions', async () => {
      expect((await app.request('GET', '/api/secrets', undefined, bearer(jwt))).status).toBe(200);
      expect((await app.request('POST', '/api/posts', { data: { title: 'by alice' } }, bearer(jwt))).status).toBe(201);
      expect((await app.request('DELETE', '/api/posts/x', undefined, bearer(jwt))).status).toBe(403);
    });

    it('invalid, tampered, expired, alg:none and unknown-user JWTs are 401s, on reads too', async () => {
      const key = new TextEncoder().encode('test-secret');
      const [h, p] = jwt.split('.');
      const none64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const candidates = [
        'not-a-valid-token',
        `${h}.${p}.${'A'.repeat(43)}`,
        `${none64({ alg: 'none', typ: 'JWT' })}.${p}.`,
        await new SignJWT({ id: userId }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(key),
        await new SignJWT({ id: 999999 }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key),
        await new SignJWT({ id: userId }).setProtectedHeader({ alg: 'HS512' }).setExpirationTime('1h').sign(new TextEncoder().encode('test-secret'.repeat(8))),
        await new SignJWT({ id: userId }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('other-secret')),
      ];
      for (const token of candidates) {
        const res = await app.request('GET', '/api/posts', undefined, bearer(token));
        expect(res.status, token).toBe(401);
        expect(res.body.error).toMatchObject({ name: 'UnauthorizedError', message: 'Missing or invalid credentials' });
      }
      expect((await app.request('GET', '/api/posts', undefined, { authorization: 'Basic abc' })).status).toBe(401);
    });

    it('a blocked user is refused at login and with a JWT issued before', async () => {
      const res = await app.request('POST', '/api/auth/local/register', { username: 'mallory', email: 'm@example.com', password: 'password1' }, none);
      await app.cairn.db.execute('UPDATE up_users SET blocked = ? WHERE id = ?', [dialect === 'postgres' ? true : 1, res.body.user.id]);
      expect((await app.request('GET', '/api/posts', undefined, bearer(res.body.jwt))).status).toBe(401);
      const login = await app.request('POST', '/api/auth/local', { identifier: 'mallory', password: 'password1' }, none);
      expect(login.status).toBe(400);
    });

    it('filters and sorts through a relation to a type the caller may not find are refused, whatever the guess', async () => {
      for (const guess of ['alice', 'nobody']) {
        const res = await app.request('GET', `/api/posts?filters[writer][username][$eq]=${guess}`, undefined, bearer(jwt));
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Invalid key writer');
      }
      expect((await app.request('GET', '/api/posts?sort=writer.username:asc', undefined, bearer(jwt))).status).toBe(400);
      // The public role here may find users: the same filter works for it.
      expect((await app.request('GET', '/api/posts?filters[writer][username][$eq]=alice', undefined, none)).body.data).toHaveLength(1);
    });

    it('populate of a content-type the caller may not find is omitted, not an error', async () => {
      const res = await app.request('GET', '/api/posts?populate=writer', undefined, bearer(jwt));
      expect(res.status).toBe(200);
      expect(res.body.data[0]).not.toHaveProperty('writer');
      const publicRes = await app.request('GET', '/api/posts?populate=writer', undefined, none);
      expect(publicRes.body.data[0].writer.username).toBe('alice');
    });
  });

  describe('API tokens', () => {
    const tokens = () => app.cairn.plugin('users-permissions').service<ApiTokens>('tokens');

    it('read-only reads everything and writes nothing; custom gets its actions; revoked and expired keys are 401s', async () => {
      const { key: readOnly } = await tokens().create({ name: 'ro', type: 'read-only' });
      expect((await app.request('GET', '/api/secrets', undefined, bearer(readOnly))).status).toBe(200);
      expect((await app.request('POST', '/api/posts', { data: { title: 'x' } }, bearer(readOnly))).status).toBe(403);
      const { key: custom } = await tokens().create({ name: 'custom', type: 'custom', permissions: ['api::secret.secret.find'] });
      expect((await app.request('GET', '/api/secrets', undefined, bearer(custom))).status).toBe(200);
      expect((await app.request('GET', '/api/posts', undefined, bearer(custom))).status).toBe(403);
      await tokens().revoke('custom');
      expect((await app.request('GET', '/api/secrets', undefined, bearer(custom))).status).toBe(401);
      const { key: expired, token } = await tokens().create({ name: 'short', type: 'full-access', lifespanDays: 1 });
      await app.cairn.db.execute('UPDATE strapi_api_tokens SET expires_at = created_at WHERE id = ?', [token.id]);
      expect((await app.request('GET', '/api/posts', undefined, bearer(expired))).status).toBe(401);
    });

    it('only a keyed hash is stored; lastUsedAt is recorded', async () => {
      const { key } = await tokens().create({ name: 'stored', type: 'read-only' });
      const rows = await app.cairn.db.query<{ access_key: string }>('SELECT access_key FROM strapi_api_tokens WHERE name = ?', ['stored']);
      expect(rows[0].access_key).not.toContain(key);
      expect(rows[0].access_key).toHaveLength(128);
      await app.request('GET', '/api/posts', undefined, bearer(key));
      expect((await tokens().list()).find((t) => t.name === 'stored')!.lastUsedAt).not.toBeNull();
    });
  });

  describe('private user attributes never leak', () => {
    // Each guess is made twice, once true and once false: the answers must not differ.
    const privateAttributes = ['password', 'resetPasswordToken', 'confirmationToken'];
    const operators = ['$eq', '$ne', '$lt', '$gt', '$startsWith', '$contains', '$containsi', '$null', '$notNull', '$in'];
    const shapes = (attribute: string, op: string, value: string) => [
      `/api/users?filters[${attribute}][${op}]=${value}`,
      `/api/users?filters[$or][0][${attribute}][${op}]=${value}&filters[$or][1][id][$eq]=0`,
      `/api/users?filters[$not][${attribute}][${op}]=${value}`,
      `/api/posts?filters[writer][${attribute}][${op}]=${value}`,
      `/api/posts?populate[writer][filters][${attribute}][${op}]=${value}`,
    ];
    for (const attribute of privateAttributes) {
      for (const op of operators) {
        it(`filters on ${attribute} with ${op} reveal nothing`, async () => {
          const trueGuess = op === '$null' || op === '$notNull' ? 'true' : '$2';
          const falseGuess = op === '$null' || op === '$notNull' ? 'false' : 'zzz';
          for (const [a, b] of shapes(attribute, op, trueGuess).map((url, i) => [url, shapes(attribute, op, falseGuess)[i]])) {
            const [ra, rb] = [await app.request('GET', a, undefined, none), await app.request('GET', b, undefined, none)];
            expect(ra.status).toBe(400);
            expect(ra.body).toEqual(rb.body);
          }
        });
      }
      it(`${attribute} can't be sorted, selected or populated`, async () => {
        for (const url of [`/api/users?sort=${attribute}:asc`, `/api/users?fields[0]=${attribute}`, `/api/users?populate=${attribute}`, `/api/posts?sort=writer.${attribute}:asc`, `/api/posts?populate[writer][fields][0]=${attribute}`]) {
          expect((await app.request('GET', url, undefined, none)).status, url).toBe(400);
        }
        const users = await app.request('GET', '/api/users', undefined, none);
        expect(users.status).toBe(200);
        for (const user of users.body) expect(user).not.toHaveProperty(attribute);
      });
    }
  });

  it('login is rate limited per client address, whatever identifier the body gives', async () => {
    const limited = await startTestApp(dialect, {
      ...model,
      config: { ...model.config, plugins: { 'users-permissions': { config: { jwtSecret: 'x', ratelimit: { max: 3 } } } } },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await limited.request('POST', '/api/auth/local', { identifier: `rotating${i}@example.com`, password: 'x' }, none)).status);
      }
      expect(statuses.slice(0, 3)).toEqual([400, 400, 400]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      const res = await limited.request('POST', '/api/auth/local', { identifier: 'z', password: 'x' }, none);
      expect(res.body.error.name).toBe('RateLimitError');
    } finally {
      await limited.close();
    }
  });

  it("reset-password (REST and GraphQL) sets the password of the user holding the code, once, with Strapi 5.54's checks", async () => {
    const users = app.cairn.strapi.db.query('plugin::users-permissions.user');
    await app.request('POST', '/api/auth/local/register', { username: 'resetter', email: 'resetter@example.com', password: 'first pass' }, none);
    const setCode = (code: string) => users.update({ where: { username: 'resetter' }, data: { resetPasswordToken: code } });
    await setCode('code-1');
    const reset = (body: object) => app.request('POST', '/api/auth/reset-password', body, none);
    const refused = async (body: object) => {
      const res = await reset(body);
      return [res.status, res.body.error.message];
    };
    expect(await refused({ code: 'code-1', password: 'second pass', passwordConfirmation: 'other' })).toEqual([400, 'Passwords do not match']);
    expect(await refused({ code: 'nope', password: 'second pass', passwordConfirmation: 'second pass' })).toEqual([400, 'Incorrect code provided']);
    expect(await refused({ code: '', password: 'second pass', passwordConfirmation: 'second pass' })).toEqual([400, 'Incorrect code provided']);
    expect(await refused({ code: { $ne: 'x' }, password: 'second pass', passwordConfirmation: 'second pass' })).toEqual([400, 'code must be a `string` type']);
    expect(await refused({ code: 'code-1', password: 'x'.repeat(73), passwordConfirmation: 'x'.repeat(73) })).toEqual([400, 'Password must be less than 73 bytes']);
    const ok = await reset({ code: 'code-1', password: 'second pass', passwordConfirmation: 'second pass' });
    expect([ok.status, Object.keys(ok.body), ok.body.user.username]).toEqual([200, ['jwt', 'user'], 'resetter']);
    expect((await users.findOne({ where: { username: 'resetter' }, select: ['resetPasswordToken'] }))?.resetPasswordToken).toBeNull();
    expect(await refused({ code: 'code-1', password: 'third pass', passwordConfirmation: 'third pass' })).toEqual([400, 'Incorrect code provided']);
    expect((await app.request('POST', '/api/auth/local', { identifier: 'resetter', password: 'second pass' }, none)).status).toBe(200);
    await setCode('code-2');
    const gql = await app.request('POST', '/graphql', { query: 'mutation { resetPassword(code: "code-2", password: "third pass", passwordConfirmation: "third pass") { jwt user { username } } }' }, none);
    expect(gql.body.data.resetPassword.user).toEqual({ username: 'resetter' });
    expect((await app.request('POST', '/api/auth/local', { identifier: 'resetter', password: 'third pass' }, none)).status).toBe(200);
  });

  it("ratelimit as Strapi's koa2-ratelimit takes it: interval as { min: 5 }, and enabled: false for none", async () => {
    const limited = await startTestApp(dialect, {
      ...model,
      config: { ...model.config, plugins: { 'users-permissions': { config: { jwtSecret: 'x', ratelimit: { max: 2, interval: { min: 5 } } } } } },
    });
    const open = await startTestApp(dialect, {
      ...model,
      config: { ...model.config, plugins: { 'users-permissions': { config: { jwtSecret: 'x', ratelimit: { enabled: false, max: 1 } } } } },
    });
    try {
      const login = async (app: TestApp) => {
        const response = await app.cairn.fastify.inject({ method: 'POST', url: '/api/auth/local', payload: { identifier: 'nobody@example.com', password: 'x' } });
        return { status: response.statusCode, headers: response.headers };
      };
      const first = await login(limited);
      // Five minutes: the window the reset counts down from.
      expect([first.status, first.headers['x-ratelimit-limit'], first.headers['x-ratelimit-reset']]).toEqual([400, '2', '300']);
      expect([(await login(limited)).status, (await login(limited)).status]).toEqual([400, 429]);
      const answers = [await login(open), await login(open), await login(open)];
      expect(answers.map((a) => [a.status, a.headers['x-ratelimit-limit']])).toEqual([
        [400, undefined],
        [400, undefined],
        [400, undefined],
      ]);
    } finally {
      await limited.close();
      await open.close();
    }
  });

  it('GraphQL register, login and me: the auth service answers them with the REST routes\' errors and { jwt, user }', async () => {
    const gql = async (query: string, headers: Record<string, string> = none) => (await app.request('POST', '/graphql', { query }, headers)).body;
    const invalid = await gql('mutation { register(input: { username: "u", email: "bad", password: "x" }) { jwt } }');
    expect(invalid.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      error: {
        name: 'ValidationError',
        message: '3 errors occurred',
        details: {
          errors: [
            { path: ['username'], message: 'username must be at least 3 characters', name: 'ValidationError', value: 'u' },
            { path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: 'bad' },
            { path: ['password'], message: 'password must be at least 6 characters', name: 'ValidationError', value: 'x' },
          ],
        },
      },
    });
    const registered = await gql('mutation { register(input: { username: "carol", email: "Carol@Example.com", password: "secret12" }) { jwt user { id documentId username email confirmed blocked role { name } } } }');
    expect(registered.data.register.user).toEqual({ id: expect.any(String), documentId: expect.any(String), username: 'carol', email: 'carol@example.com', confirmed: true, blocked: false, role: null });
    const taken = await gql('mutation { register(input: { username: "carol", email: "other@example.com", password: "secret12" }) { jwt } }');
    expect(taken.errors[0].extensions.error).toEqual({ name: 'ApplicationError', message: 'Email or Username are already taken', details: {} });
    const github = await gql('mutation { login(input: { identifier: "carol", password: "secret12", provider: "github" }) { jwt } }');
    expect(github.errors[0].extensions.error).toMatchObject({ name: 'ValidationError', message: 'Only the local provider is supported' });
    const wrong = await gql('mutation { login(input: { identifier: "carol", password: "wrong!" }) { jwt } }');
    expect(wrong.errors[0].extensions.error).toMatchObject({ name: 'ValidationError', message: 'Invalid identifier or password' });
    const login = await gql('mutation { login(input: { identifier: "CAROL@example.com", password: "secret12" }) { jwt user { username } } }');
    expect(login.data.login.user).toEqual({ username: 'carol' });
    // Given as a variable, the input without `provider` takes its default ("local") too.
    const byVariable = await app.request('POST', '/graphql', { query: 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { user { username } } }', variables: { input: { identifier: 'carol', password: 'secret12' } } }, none);
    expect(byVariable.body).toEqual({ data: { login: { user: { username: 'carol' } } } });
    const nullProvider = await app.request('POST', '/graphql', { query: 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }', variables: { input: { identifier: 'carol', password: 'secret12', provider: null } } }, none);
    expect(nullProvider.status).toBe(400);
    const rest = await app.request('GET', '/api/users/me', undefined, bearer(login.data.login.jwt));
    expect(rest.body.username).toBe('carol');
    const me = await gql('{ me { id username email confirmed blocked role { name description type } } }', bearer(login.data.login.jwt));
    expect(me.data.me).toEqual({
      id: String(rest.body.id),
      username: 'carol',
      email: 'carol@example.com',
      confirmed: true,
      blocked: false,
      role: { name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated' },
    });
    const token = await gql('{ me { id } }', {});
    expect(token.errors[0].extensions.error).toMatchObject({ name: 'ApplicationError', message: 'Authentication requested' });
    expect((await gql('{ me { id } }')).errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('GraphQL policies and custom resolvers see state.user: the user with its role, without secrets, alike on every database', async () => {
    const withState = await startTestApp(dialect, {
      ...model,
      index: `module.exports = { register({ strapi }) { strapi.plugin('graphql').service('extension').use({ typeDefs: 'extend type Query { state: String }', resolvers: { Query: { state: (_p, _a, context) => JSON.stringify(context.state.user) } }, resolversConfig: { 'Query.state': { auth: false } } }); } };`,
    });
    try {
      const registered = await withState.request('POST', '/api/auth/local/register', { username: 'dave', email: 'dave@example.com', password: 'secret12' }, none);
      const res = await withState.request('POST', '/graphql', { query: '{ state }' }, bearer(registered.body.jwt));
      expect(JSON.parse(res.body.data.state)).toEqual({
        id: registered.body.user.id,
        documentId: registered.body.user.documentId,
        username: 'dave',
        email: 'dave@example.com',
        provider: 'local',
        confirmed: true,
        blocked: false,
        role: { id: expect.any(Number), name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated' },
      });
      expect(JSON.parse((await withState.request('POST', '/graphql', { query: '{ state }' }, none)).body.data.state)).toBeNull();
    } finally {
      await withState.close();
    }
  });

  it('GraphQL login and register count in the same limits as REST, per client address; REST tells the limit in headers', async () => {
    const limited = await startTestApp(dialect, {
      ...model,
      config: { ...model.config, plugins: { 'users-permissions': { config: { jwtSecret: 'x', ratelimit: { max: 3 } } } } },
    });
    const from = async (remoteAddress: string, url: string, body: object) => {
      const response = await limited.cairn.fastify.inject({ method: 'POST', url, payload: body, remoteAddress });
      return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body) };
    };
    const gqlLogin = (address: string) => from(address, '/graphql', { query: 'mutation { login(input: { identifier: "nobody@example.com", password: "x" }) { jwt } }' });
    const code = (res: { body: { errors?: Array<{ extensions: { code: string } }> } }) => res.body.errors?.[0].extensions.code;
    try {
      const rest = await from('10.0.0.1', '/api/auth/local', { identifier: 'nobody@example.com', password: 'x' });
      expect(rest.status).toBe(400);
      expect([rest.headers['x-ratelimit-limit'], rest.headers['x-ratelimit-remaining'], rest.headers['x-ratelimit-reset']]).toEqual(['3', '2', '60']);
      expect(code(await gqlLogin('10.0.0.1'))).toBe('BAD_USER_INPUT');
      expect(code(await gqlLogin('10.0.0.1'))).toBe('BAD_USER_INPUT');
      const refused = await gqlLogin('10.0.0.1');
      expect(refused.body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMITED', error: { name: 'RateLimitError' } });
      const restRefused = await from('10.0.0.1', '/api/auth/local', { identifier: 'nobody@example.com', password: 'x' });
      expect(restRefused.status).toBe(429);
      expect(restRefused.headers['x-ratelimit-remaining']).toBe('0');
      expect(Number(restRefused.headers['retry-after'])).toBeGreaterThan(0);
      // Another address has its own attempts.
      expect(code(await gqlLogin('10.0.0.2'))).toBe('BAD_USER_INPUT');

      const register = (i: number) => from('10.0.0.3', '/graphql', { query: `mutation { register(input: { username: "u${i}", email: "bad", password: "x" }) { jwt } }` });
      for (let i = 0; i < 3; i++) expect(code(await register(i))).toBe('BAD_USER_INPUT');
      expect(code(await register(3))).toBe('RATE_LIMITED');
      expect((await from('10.0.0.3', '/api/auth/local/register', { username: 'u4', email: 'bad', password: 'x' })).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it("forgot-password and register count per address and email, as Strapi's keys; login per address whatever email the body has", async () => {
    const limited = await startTestApp(dialect, {
      ...model,
      config: { ...model.config, plugins: { 'users-permissions': { config: { jwtSecret: 'x', ratelimit: { max: 1 } } } } },
    });
    const status = async (url: string, body: object, remoteAddress = '10.0.1.1') => {
      const response = await limited.cairn.fastify.inject({ method: 'POST', url, payload: body, remoteAddress });
      return url === '/graphql' ? (JSON.parse(response.body).errors?.[0]?.extensions.code ?? response.statusCode) : response.statusCode;
    };
    const forgot = (email: string) => status('/api/auth/forgot-password', { email });
    const gqlForgot = (email: string) => status('/graphql', { query: `mutation { forgotPassword(email: "${email}") { ok } }` });
    try {
      // Unknown addresses answer ok without an email sent: each email has its own attempt, in any case.
      expect(await forgot('a@example.com')).toBe(200);
      expect(await forgot('b@example.com')).toBe(200);
      expect(await forgot('A@Example.com')).toBe(429);
      // GraphQL's forgotPassword counts in REST's bucket.
      expect(await gqlForgot('a@example.com')).toBe('RATE_LIMITED');
      expect(await gqlForgot('c@example.com')).toBe(200);
      expect(await forgot('c@example.com')).toBe(429);
      expect(await status('/api/auth/local/register', { username: 'dora', email: 'dora@example.com', password: 'Passw0rd!' })).toBe(200);
      expect(await status('/api/auth/local/register', { username: 'eve', email: 'eve@example.com', password: 'Passw0rd!' })).toBe(200);
      // Login names the account by `identifier`: an `email` in its body opens no new bucket.
      expect(await status('/api/auth/local', { identifier: 'nobody@example.com', password: 'x' })).toBe(400);
      expect(await status('/api/auth/local', { identifier: 'nobody@example.com', password: 'x', email: 'other@example.com' })).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
