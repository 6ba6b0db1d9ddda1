import { createPrivateKey, createPublicKey, randomBytes, type KeyObject } from 'node:crypto';
import type { Database } from '../database/types.js';
import { ConfigError } from '../errors/index.js';
import {
  deleteEndedSessions,
  deleteSession,
  deleteUserSessions,
  findSession,
  findUserSessions,
  insertSession,
  markSessionRotated,
  type StoredSession,
} from '../database/sessions.js';
import { loadJose, usesKeyPair, type JwtAlgorithm, type JwtOptions, type JwtService } from './jwt.js';

/** users-permissions' `sessions` options (seconds), with Strapi 5.54's defaults. */
export interface SessionLifespans {
  accessTokenLifespan: number;
  maxRefreshTokenLifespan: number;
  idleRefreshTokenLifespan: number;
  maxSessionLifespan: number;
  idleSessionLifespan: number;
}

export const DEFAULT_LIFESPANS: SessionLifespans = {
  accessTokenLifespan: 10 * 60,
  maxRefreshTokenLifespan: 30 * 24 * 60 * 60,
  idleRefreshTokenLifespan: 14 * 24 * 60 * 60,
  maxSessionLifespan: 24 * 60 * 60,
  idleSessionLifespan: 2 * 60 * 60,
};

/** The origin users-permissions' sessions are kept under (Strapi's admin keeps its own, `admin`, in the same table). */
export const USERS_PERMISSIONS_ORIGIN = 'users-permissions';

/** Strapi runs its cleanup of ended sessions once every this many new sessions. */
const CLEANUP_EVERY = 50;

export interface NewRefreshToken {
  token: string;
  sessionId: string;
}

/** An access token's claims, once verified. */
export interface AccessClaims {
  userId: string;
  sessionId: string;
}

/**
 * users-permissions' "refresh" mode, as Strapi 5.54's session manager keeps it (its core `session-manager`, origin
 * `users-permissions`): a login opens a session (a row of `strapi_sessions`) and answers a refresh token naming it
 * and a short-lived access token. Refreshing rotates the session: the row is marked `rotated` and a child row opens,
 * with the family's absolute end kept; a rotated, ended or deleted session's token is refused. Tokens are JWTs
 * signed with `jwtSecret` and the `jwt` options' algorithm, issuer and audience (checked on verification, as
 * Strapi's mode checks them), so Strapi and Cairn accept each other's tokens on one database.
 */
export class SessionManager {
  /** What tokens are signed and verified with: `jwtSecret`, or a key pair's two halves (Strapi's getJwtKey). */
  private readonly signKey: Uint8Array | KeyObject;
  private readonly verifyKey: Uint8Array | KeyObject;
  private sinceCleanup = 0;

  constructor(
    private readonly db: Database,
    secret: string,
    private readonly jwt: JwtOptions,
    private readonly lifespans: SessionLifespans,
  ) {
    if (!usesKeyPair(this.algorithm)) {
      this.signKey = this.verifyKey = new TextEncoder().encode(secret);
      return;
    }
    const { privateKey, publicKey } = jwt;
    const missing = [privateKey ? undefined : 'privateKey', publicKey ? undefined : 'publicKey'].filter(Boolean);
    if (missing.length) throw new ConfigError(`config/plugins: users-permissions.config.jwt.algorithm ${this.algorithm} needs jwt.${missing.join(' and jwt.')} (PEM)`);
    try {
      this.signKey = createPrivateKey(privateKey!);
      this.verifyKey = createPublicKey(publicKey!);
    } catch (error) {
      throw new ConfigError(`config/plugins: users-permissions.config.jwt.privateKey and publicKey must be PEM keys: ${(error as Error).message}`);
    }
  }

  private get algorithm(): JwtAlgorithm {
    return this.jwt.algorithm ?? 'HS256';
  }

  /** Opens a session for `userId` and answers its refresh token. */
  async generateRefreshToken(userId: string, deviceId: string | undefined, options: { type?: string; metadata?: Record<string, unknown> } = {}): Promise<NewRefreshToken> {
    await this.maybeCleanup();
    const type = options.type ?? 'refresh';
    const { idle, max } = this.windows(type);
    const now = new Date();
    const session = await insertSession(
      this.db,
      {
        sessionId: newSessionId(),
        userId,
        deviceId: deviceId ?? null,
        origin: USERS_PERMISSIONS_ORIGIN,
        childId: null,
        type,
        status: 'active',
        metadata: options.metadata ?? null,
        expiresAt: new Date(now.getTime() + idle * 1000).toISOString(),
        absoluteExpiresAt: new Date(now.getTime() + max * 1000).toISOString(),
      },
      now,
    );
    return { token: await this.refreshTokenOf(session), sessionId: session.sessionId };
  }

  /**
   * The session a refresh token names, when the token is a refresh token signed here, and its session exists,
   * is active, belongs to the token's user and has not ended (idle or absolute); null otherwise.
   */
  async validateRefreshToken(token: string): Promise<StoredSession | null> {
    const claims = await this.verified(token, 'refresh');
    if (!claims) return null;
    const session = await findSession(this.db, claims.sessionId);
    if (!session || session.status !== 'active' || session.userId !== claims.userId) return null;
    const now = Date.now();
    if (Date.parse(session.expiresAt) <= now) return null;
    if (session.absoluteExpiresAt !== null && Date.parse(session.absoluteExpiresAt) <= now) return null;
    return session;
  }

  /**
   * A new refresh token for the session a valid one names: the session is marked rotated and its child opens,
   * keeping the family's absolute end and the session's device and metadata. A token is rotated once: a second
   * use (even one racing the first) is refused. Null when the token may not be rotated.
   */
  async rotateRefreshToken(token: string): Promise<{ token: string; session: StoredSession } | null> {
    const claims = await this.verified(token, 'refresh');
    if (!claims) return null;
    const current = await findSession(this.db, claims.sessionId);
    if (!current || current.status !== 'active') return null;
    const { idle } = this.windows(current.type);
    const now = new Date();
    // Strapi measures the idle window from the rotated row's creation, and the family's end from its absolute end.
    if (current.createdAt !== null && now.getTime() - Date.parse(current.createdAt) > idle * 1000) return null;
    const absolute = current.absoluteExpiresAt ?? now.toISOString();
    if (Date.parse(absolute) <= now.getTime()) return null;
    const childId = newSessionId();
    const child = await this.db.transaction(async (trx) => {
      if (!(await markSessionRotated(trx, current.sessionId, childId, now))) return null;
      return insertSession(
        trx,
        {
          sessionId: childId,
          userId: current.userId,
          deviceId: current.deviceId,
          origin: current.origin,
          childId: null,
          type: current.type,
          status: 'active',
          metadata: current.metadata,
          expiresAt: new Date(now.getTime() + idle * 1000).toISOString(),
          absoluteExpiresAt: absolute,
        },
        now,
      );
    });
    return child ? { token: await this.refreshTokenOf(child), session: child } : null;
  }

  /** The claims of a valid access token (signed here, of type `access`, not expired); null otherwise. */
  async validateAccessToken(token: string): Promise<AccessClaims | null> {
    return this.verified(token, 'access');
  }

  /** An access token for a session: `accessTokenLifespan` seconds long. */
  async accessTokenOf(session: Pick<StoredSession, 'userId' | 'sessionId'>): Promise<string> {
    const { SignJWT } = await loadJose();
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ userId: String(session.userId), sessionId: session.sessionId, type: 'access', iat: now, exp: now + this.lifespans.accessTokenLifespan });
    return this.signed(jwt);
  }

  /** Deletes a user's sessions: all of them, or those of one device. */
  async invalidate(userId: string, deviceId?: string): Promise<void> {
    await deleteUserSessions(this.db, userId, USERS_PERMISSIONS_ORIGIN, deviceId);
  }

  /** A user's active sessions, newest first. */
  async list(userId: string): Promise<StoredSession[]> {
    return findUserSessions(this.db, userId, USERS_PERMISSIONS_ORIGIN, 'active');
  }

  /** Deletes one session of the user's; false when the user has no such session (of this origin). */
  async revoke(userId: string, sessionId: string): Promise<boolean> {
    const session = await findSession(this.db, sessionId);
    if (session?.userId !== userId || session.origin !== USERS_PERMISSIONS_ORIGIN) return false;
    await deleteSession(this.db, sessionId);
    return true;
  }

  private windows(type: string): { idle: number; max: number } {
    return type === 'refresh'
      ? { idle: this.lifespans.idleRefreshTokenLifespan, max: this.lifespans.maxRefreshTokenLifespan }
      : { idle: this.lifespans.idleSessionLifespan, max: this.lifespans.maxSessionLifespan };
  }

  private async maybeCleanup(): Promise<void> {
    if (++this.sinceCleanup < CLEANUP_EVERY) return;
    this.sinceCleanup = 0;
    await deleteEndedSessions(this.db, new Date());
  }

  /**
   * A session's refresh token, expiring with its idle window. Strapi's claims: it signs an `iat` with jsonwebtoken's
   * `noTimestamp`, which drops it, so its refresh tokens have none.
   */
  private async refreshTokenOf(session: StoredSession): Promise<string> {
    const { SignJWT } = await loadJose();
    const exp = Math.floor(Date.parse(session.expiresAt) / 1000);
    return this.signed(new SignJWT({ userId: session.userId, sessionId: session.sessionId, type: 'refresh', exp }));
  }

  private async signed(jwt: import('jose').SignJWT): Promise<string> {
    jwt.setProtectedHeader({ alg: this.algorithm, typ: 'JWT' });
    if (this.jwt.issuer !== undefined) jwt.setIssuer(this.jwt.issuer);
    if (this.jwt.audience !== undefined) jwt.setAudience(this.jwt.audience);
    return jwt.sign(this.signKey);
  }

  /** A token's user and session, when it is a valid token of `type`; null for anything else. */
  private async verified(token: string, type: 'access' | 'refresh'): Promise<AccessClaims | null> {
    const { jwtVerify, errors } = await loadJose();
    try {
      const { payload } = await jwtVerify(token, this.verifyKey, {
        algorithms: [this.algorithm],
        ...(this.jwt.issuer !== undefined ? { issuer: this.jwt.issuer } : {}),
        ...(this.jwt.audience !== undefined ? { audience: this.jwt.audience } : {}),
      });
      if (payload.type !== type || typeof payload.sessionId !== 'string' || (typeof payload.userId !== 'string' && typeof payload.userId !== 'number')) return null;
      return { userId: String(payload.userId), sessionId: payload.sessionId };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}

/** Strapi's session ids: 16 random bytes in hex. */
function newSessionId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The JWT service of the "refresh" mode (Strapi's jwt service in that mode): `issue` opens a session without a
 * device and answers its access token (what app code and GraphQL's login get); `verify` accepts access tokens only.
 */
export function sessionJwtService(sessions: SessionManager): JwtService {
  return {
    async issue(userId) {
      const refresh = await sessions.generateRefreshToken(String(userId), undefined, { type: 'refresh' });
      return sessions.accessTokenOf({ userId: String(userId), sessionId: refresh.sessionId });
    },
    async verify(token) {
      const claims = await sessions.validateAccessToken(token);
      if (!claims) return null;
      const userId = Number(claims.userId);
      return Number.isSafeInteger(userId) && userId > 0 ? { userId, sessionId: claims.sessionId } : null;
    },
  };
}
