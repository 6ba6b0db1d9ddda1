import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../errors/index.js';
import { SECRET_ALGORITHMS, type JwtAlgorithm } from '../project/jwt-algorithms.js';

export interface JwtService {
  issue(userId: number): Promise<string>;
  /**
   * The user id of a valid token, and in the "refresh" mode the session it belongs to; null for anything else (bad
   * signature, other algorithm, expired...).
   */
  verify(token: string): Promise<{ userId: number; sessionId?: string } | null>;
}

/** jose (~25 ms of module loading) is loaded by the first request that carries or asks for a JWT, not at start. */
let jose: Promise<typeof import('jose')> | undefined;
export const loadJose = () => (jose ??= import('jose'));

export type { JwtAlgorithm };

/** users-permissions' `jwt` options that Cairn reads (Strapi hands them all to jsonwebtoken's `sign`). */
export interface JwtOptions {
  expiresIn?: string | number;
  algorithm?: JwtAlgorithm;
  issuer?: string;
  audience?: string | string[];
  /** PEM keys of a key-pair algorithm (the "refresh" mode's session manager signs with one, verifies with the other). */
  privateKey?: string;
  publicKey?: string;
}

/** Whether `algorithm` signs with a key pair rather than `jwtSecret`. */
export const usesKeyPair = (algorithm: JwtAlgorithm): boolean => !(SECRET_ALGORITHMS as readonly string[]).includes(algorithm);

/**
 * Tokens as Strapi 5.54's users-permissions issues them in its default (legacy) mode: `{ id }` signed with
 * `jwtSecret` and the `jwt` options (algorithm, HS256 by default; issuer; audience; expiry), verified with that one
 * algorithm pinned, so `alg: none` or an RS/HS confusion is rejected (as Strapi, issuer and audience are not checked
 * on verification). The secret is required in production; in development one is generated once and kept in `.tmp/`.
 */
export function createJwtService(options: { secret?: string; jwt?: JwtOptions; environment: string; dir: string }): JwtService {
  const key = new TextEncoder().encode(jwtSecret(options));
  const { expiresIn = '30d', algorithm = 'HS256', issuer, audience } = options.jwt ?? {};
  // Strapi's default mode hands the secret to jsonwebtoken whatever the algorithm: with a key pair's, every login fails.
  if (usesKeyPair(algorithm)) {
    throw new ConfigError(
      `config/plugins: users-permissions.config.jwt.algorithm ${algorithm} signs with a key pair, which only the "refresh" mode uses (jwtManagement: 'refresh'); Strapi's default mode signs with jwtSecret (HS256, HS384 or HS512)`,
    );
  }
  return {
    async issue(userId) {
      const { SignJWT } = await loadJose();
      const token = new SignJWT({ id: userId }).setProtectedHeader({ alg: algorithm, typ: 'JWT' }).setIssuedAt();
      // jsonwebtoken reads a number as seconds from now, a string as a duration (jose reads both forms alike).
      token.setExpirationTime(typeof expiresIn === 'number' ? Math.floor(Date.now() / 1000) + expiresIn : expiresIn);
      if (issuer !== undefined) token.setIssuer(issuer);
      if (audience !== undefined) token.setAudience(audience);
      return token.sign(key);
    },
    async verify(token) {
      const { jwtVerify, errors } = await loadJose();
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm] });
        return typeof payload.id === 'number' && Number.isInteger(payload.id) ? { userId: payload.id } : null;
      } catch (error) {
        // Any fault of the token (signature, algorithm, expiry, shape) is the caller's: a 401. Anything else is a bug.
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/**
 * users-permissions' `jwtSecret`, required in production; in development one is generated once and kept in
 * `.tmp/`, shared by the processes of the app.
 */
export function jwtSecret(options: { secret?: string; environment: string; dir: string }): string {
  let secret = options.secret;
  if (!secret) {
    if (options.environment === 'production') {
      throw new ConfigError('config/plugins: users-permissions.config.jwtSecret is required in production (set JWT_SECRET)');
    }
    const file = join(options.dir, '.tmp', 'jwt-secret');
    if (!existsSync(file)) {
      // Written aside, then linked into place: processes starting together agree on the one that got there first.
      const draft = `${file}.${process.pid}`;
      mkdirSync(join(options.dir, '.tmp'), { recursive: true });
      writeFileSync(draft, randomBytes(32).toString('base64'), { mode: 0o600 });
      try {
        linkSync(draft, file);
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      } finally {
        rmSync(draft, { force: true });
      }
    }
    secret = readFileSync(file, 'utf8').trim();
  }
  return secret;
}
