import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { startTestApp, startupError, writeApp, type TestApp } from '../helpers/app.js';
import { loadConfig } from '../../src/project/config.js';

// users-permissions' `jwt` options, as Strapi 5.54's default (legacy-support) mode hands them to jsonwebtoken: a
// project that sets HS384 and an issuer gets the same tokens from Cairn as from Strapi, and each accepts the other's.
const SECRET = 'jwt-options-secret';
const model = {
  contentTypes: {},
  config: {
    plugins: { 'users-permissions': { config: { jwtSecret: SECRET, jwt: { algorithm: 'HS384', issuer: 'up-issuer', audience: 'up-aud', expiresIn: 3600 }, ratelimit: { max: 1000 } } } },
  },
};
const none = { authorization: '' };

describe('users-permissions jwt options', () => {
  let app: TestApp;
  let userId: number;
  beforeAll(async () => {
    app = await startTestApp('sqlite', model);
    const res = await app.request('POST', '/api/auth/local/register', { username: 'algo', email: 'algo@example.com', password: 'Test1234' }, none);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    userId = res.body.user.id;
  });
  afterAll(async () => app?.close());

  it('tokens are signed with the configured algorithm, issuer, audience and expiry', async () => {
    const res = await app.request('POST', '/api/auth/local', { identifier: 'algo', password: 'Test1234' }, none);
    expect(decodeProtectedHeader(res.body.jwt).alg).toBe('HS384');
    const payload = decodeJwt(res.body.jwt);
    expect(payload).toMatchObject({ id: userId, iss: 'up-issuer', aud: 'up-aud' });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect((await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${res.body.jwt}` })).status).toBe(200);
  });

  it("a token Strapi signed with the same options is accepted; one of another algorithm is refused (401), as Strapi refuses it", async () => {
    // As Strapi's jsonwebtoken signs it: { id, iat, exp, aud, iss }.
    const sign = (alg: string) => new SignJWT({ id: userId }).setProtectedHeader({ alg, typ: 'JWT' }).setIssuedAt().setExpirationTime('30d').setIssuer('up-issuer').setAudience('up-aud').sign(key);
    const key = new TextEncoder().encode(SECRET);
    const strapis = await sign('HS384');
    expect((await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${strapis}` })).body.username).toBe('algo');
    const hs256 = await sign('HS256');
    expect((await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${hs256}` })).status).toBe(401);
  });
});

describe('users-permissions jwt options Cairn does not apply stop the start, named', () => {
  /** The start's error for these users-permissions options (undefined: the config loads). */
  const attempt = async (config: object) => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-jwt-'));
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify({ 'users-permissions': { config } }));
    try {
      return await loadConfig(dir, {}, { warn: () => undefined }).then(
        () => undefined,
        (error: Error) => error.message,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('an unknown JWT mode or algorithm, options jsonwebtoken has that Cairn does not apply', async () => {
    expect(await attempt({ jwtManagement: 'sessions' })).toMatch(/plugins\.users-permissions\.config\.jwtManagement must be legacy-support or refresh, not "sessions"$/);
    expect(await attempt({ sessions: { accessTokenLifespan: -1 } })).toMatch(/sessions\.accessTokenLifespan must be a whole number/);
    expect(await attempt({ sessions: { cookie: { sameSite: 'loose' } } })).toMatch(/sessions\.cookie\.sameSite must be "lax", "strict", "none", true or false, not "loose"$/);
    expect(await attempt({ jwt: { algorithm: 'XS256' } })).toMatch(/jwt\.algorithm must be HS256, HS384 or HS512 \(signed with jwtSecret\), or in the "refresh" mode RS, ES or PS 256\/384\/512 \(with privateKey and publicKey\), not "XS256"$/);
    expect(await attempt({ jwt: { privateKey: 42 } })).toMatch(/jwt\.privateKey must be a non-empty string, not 42$/);
    expect(await attempt({ jwt: { subject: 'x' } })).toMatch(/jwt\.subject is a jsonwebtoken option Cairn does not apply/);
    expect(await attempt({ jwtManagement: 'legacy-support', jwt: { algorithm: 'HS512', expiresIn: '7d' } })).toBeUndefined();
    expect(await attempt({ jwtManagement: 'refresh', sessions: { accessTokenLifespan: 0, httpOnly: true, cookie: { name: 'rt', sameSite: 'strict', secure: false, maxAge: 60000 } } })).toBeUndefined();
  });
});

describe("users-permissions: a key-pair algorithm (RS256), which Strapi 5.54's refresh mode signs with", () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const schemas = (config: object) => ({ contentTypes: {}, config: { plugins: { 'users-permissions': { config: { jwtSecret: SECRET, ...config } } } } });

  it('signs access and refresh tokens with privateKey; publicKey verifies them; a token of another key is a 401', async () => {
    const app = await startTestApp('sqlite', schemas({ jwtManagement: 'refresh', jwt: { algorithm: 'RS256', privateKey, publicKey, issuer: 'up-rs', audience: 'up-aud' } }));
    try {
      const res = await app.request('POST', '/api/auth/local/register', { username: 'rsa', email: 'rsa@example.com', password: 'Test1234' }, none);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const key = createPublicKey(publicKey);
      for (const token of [res.body.jwt, res.body.refreshToken]) {
        const { payload, protectedHeader } = await jwtVerify(token, key, { issuer: 'up-rs', audience: 'up-aud' });
        expect([protectedHeader.alg, typeof payload.sessionId]).toEqual(['RS256', 'string']);
      }
      expect((await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${res.body.jwt}` })).body.username).toBe('rsa');
      expect((await app.request('POST', '/api/auth/refresh', { refreshToken: res.body.refreshToken }, none)).status).toBe(200);
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const forged = await new SignJWT(decodeJwt(res.body.jwt)).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(other);
      expect((await app.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${forged}` })).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('without the refresh mode, or without both keys, the start stops, naming what is missing', async () => {
    expect(await startupError(writeApp(schemas({ jwt: { algorithm: 'RS256', privateKey, publicKey } })))).toContain(
      `users-permissions.config.jwt.algorithm RS256 signs with a key pair, which only the "refresh" mode uses (jwtManagement: 'refresh')`,
    );
    expect(await startupError(writeApp(schemas({ jwtManagement: 'refresh', jwt: { algorithm: 'ES256', privateKey } })))).toContain('users-permissions.config.jwt.algorithm ES256 needs jwt.publicKey (PEM)');
    expect(await startupError(writeApp(schemas({ jwtManagement: 'refresh', jwt: { algorithm: 'RS256', privateKey: 'nope', publicKey } })))).toContain('jwt.privateKey and publicKey must be PEM keys');
  });
});
