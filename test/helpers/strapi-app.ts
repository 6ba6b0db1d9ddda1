import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createCairn, type Cairn } from '../../src/app/cairn.js';
import { createLogger } from '../../src/app/logger.js';
import type { DialectName } from '../../src/database/types.js';
import { loadStrapiFixture, STRAPI_FIXTURE_DIR } from './strapi-fixture.js';

export const CONFORMANCE_APP = join(import.meta.dirname, '..', 'fixtures', 'conformance', 'app');

/** The secrets the fixture databases were made with (the reference app's config) and the user it registered. */
export const STRAPI_SECRETS = JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'secrets.json'), 'utf8')) as {
  apiTokenSalt: string;
  jwtSecret: string;
  encryptionKey: string;
  user: { id: number; username: string; email: string; password: string };
};

/** The API tokens Strapi issued in each fixture database, in clear, by name. */
export const STRAPI_TOKENS = JSON.parse(readFileSync(join(STRAPI_FIXTURE_DIR, 'tokens.json'), 'utf8')) as Record<DialectName, Record<string, string>>;

/** The config a Strapi project holding the fixture database would have: its salt, encryption key and JWT secret. */
export const STRAPI_FIXTURE_CONFIG = {
  admin: { apiToken: { salt: STRAPI_SECRETS.apiTokenSalt }, secrets: { encryptionKey: STRAPI_SECRETS.encryptionKey } },
  plugins: { 'users-permissions': { config: { jwtSecret: STRAPI_SECRETS.jwtSecret } } },
};

export interface StrapiFixtureApp {
  cairn: Cairn;
  /** A request with the full-access token Strapi issued (`anchor-full-access`), or with `authorization` given ('' for none). */
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, authorization?: string): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Cairn, as `cairn start` assembles it, on a copy of the database that real Strapi made for `dialect`, with the
 * conformance app's model and the secrets Strapi used: its roles, permissions and tokens are Strapi's, and its
 * `public/uploads` the files Strapi stored.
 */
export async function openStrapiFixtureApp(dialect: DialectName): Promise<StrapiFixtureApp> {
  const fixture = await loadStrapiFixture(dialect);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-strapi-app-'));
  try {
    cpSync(CONFORMANCE_APP, dir, { recursive: true });
    cpSync(join(STRAPI_FIXTURE_DIR, 'uploads', dialect), join(dir, 'public', 'uploads'), { recursive: true });
    const log = createLogger({ write: () => undefined });
    // In production, as Strapi ran when it answered the goldens (GraphQL introspection off, among others).
    const environment = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    let cairn: Cairn;
    try {
      cairn = await createCairn({ dir, config: { ...STRAPI_FIXTURE_CONFIG, database: fixture.config } as never, log });
    } finally {
      process.env.NODE_ENV = environment;
    }
    const token = `Bearer ${STRAPI_TOKENS[dialect]['anchor-full-access']}`;
    const request: StrapiFixtureApp['request'] = (method, url, body, authorization = token) =>
      cairn.fastify.inject({
        method,
        url,
        headers: {
          ...(authorization ? { authorization } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
    return {
      cairn,
      request,
      get: (url) => request('GET', url),
      async close() {
        await cairn.close();
        await fixture.drop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await fixture.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
