import bcrypt from 'bcryptjs';
import { randomUUID } from 'node:crypto';
import { findUserByEmailOrUsername, findUserId, findUserIdByResetToken, findUserIdWith, findUserPassword, findUserWithRole, resetUserPassword, setUserPassword, type UserWithRole } from '../database/users.js';
import { ApplicationError, BadRequestError, ForbiddenError, NotFoundError, RateLimitError, UnauthorizedError, ValidationError, type FieldError } from '../errors/index.js';
import { AttemptLimit } from './attempts.js';
import { checkRoleOnCreate, checkRoleOnUpdate } from './role-input.js';
import { checkCredentials, EMAIL, inputObject, passwordTooLong, stringField } from './credentials.js';
import type { AuthHost } from './host.js';
import type { JwtService } from './jwt.js';
import type { Permissions } from './roles.js';
import { sessionEntry, sessionMetadata, type SessionEntry } from './session-entries.js';
import type { SessionManager } from './sessions.js';

export const USER_UID = 'plugin::users-permissions.user';

export interface AuthOptions {
  jwt: JwtService;
  permissions: Permissions;
  registerEnabled: boolean;
  /** Extra user attributes `register` accepts besides username, email, password. */
  allowedFields: string[];
  /**
   * The attributes an app's extension adds to the user (`src/extensions/users-permissions/content-types/user`):
   * written by `POST /users` and `PUT /users/:id` as the plugin's own are, as Strapi's user controller writes the body.
   */
  extendedFields: string[];
  /** Those of them that are scalars a caller may read: `me` (a request's `ctx.state.user`) has them. */
  extendedScalars: string[];
  minPasswordLength: number;
  /** Attempts at login, register and change-password: per client address, at most `max` per `timeWindow` ms each (none: no limit). */
  rateLimit?: { max: number; timeWindow: number };
  /** users-permissions' "refresh" mode (`jwtManagement: 'refresh'`): its sessions; absent in the default mode. */
  sessions?: SessionManager;
}

/**
 * What register, login and change-password answer: a JWT and the user (without private fields); in the "refresh"
 * mode the JWT is a short-lived access token and a refresh token comes with it.
 */
export interface AuthAnswer {
  jwt: string;
  refreshToken?: string;
  user: Record<string, unknown>;
}

/** What a login's session records of the client ("refresh" mode). */
export interface LoginClient {
  userAgent?: string;
}

/** Where a logout finds the session it ends, besides its body. */
export interface LogoutContext {
  /** The session of the access token the request carries. */
  sessionId?: string;
  /** The refresh token of the request's cookie. */
  cookieToken?: string;
}

/** A hash bcrypt compares against when the user is unknown, so timing doesn't tell which identifiers exist. */
const NO_PASSWORD = '$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva';
const USER_KEYS = ['username', 'email', 'password', 'confirmed', 'blocked', 'role'];

/**
 * Users & permissions' local provider: register, login, change password, the logged-in user, and the users
 * administration. REST routes and GraphQL resolvers call it directly; the inputs are what clients sent (checked
 * here), the answers what they get. The transports check the caller and count attempts (`attempts`) first.
 */
export class AuthService {
  /** The attempts of each rate-limited action, counted per client address (REST and GraphQL together). */
  readonly attempts: { register: AttemptLimit; login: AttemptLimit; changePassword: AttemptLimit; resetPassword: AttemptLimit };

  /**
   * The plugin's auth actions an app's `strapi-server` replaced (`auth.register`, `auth.callback`...): its REST routes
   * run the app's; GraphQL's register and login, which Strapi runs through the same controller, refuse then.
   */
  readonly replacedByApp = new Set<string>();
  /** The attempts of other routes with the rate-limit middleware (an app's, through its strapi-server), by route. */
  private readonly otherAttempts = new Map<string, AttemptLimit>();

  constructor(
    private readonly host: Pick<AuthHost, 'db' | 'documents'>,
    private readonly options: AuthOptions,
  ) {
    this.attempts = { register: this.newLimit(), login: this.newLimit(), changePassword: this.newLimit(), resetPassword: this.newLimit() };
  }

  private newLimit(): AttemptLimit {
    const { max, timeWindow } = this.options.rateLimit ?? { max: Infinity, timeWindow: 1 };
    return new AttemptLimit(max, timeWindow);
  }

  /**
   * Counts an attempt at a rate-limited action from a client `address`: `register`, `login`, `changePassword`, or
   * any other name (a route of the app's with users-permissions' rate-limit middleware: its own count). Tells the
   * client its limit through `setHeader`, as @fastify/rate-limit does (`x-ratelimit-*`, `retry-after` with the
   * 429); past the limit, a RateLimitError.
   */
  async attempt(action: string, address: string, setHeader: (name: string, value: number) => void): Promise<void> {
    if (!this.options.rateLimit) return;
    let limit = Object.hasOwn(this.attempts, action) ? this.attempts[action as keyof AuthService['attempts']] : this.otherAttempts.get(action);
    if (!limit) this.otherAttempts.set(action, (limit = this.newLimit()));
    const attempt = await limit.count(address);
    setHeader('x-ratelimit-limit', attempt.limit);
    setHeader('x-ratelimit-remaining', attempt.remaining);
    setHeader('x-ratelimit-reset', attempt.resetSeconds);
    if (!attempt.exceeded) return;
    setHeader('retry-after', attempt.resetSeconds);
    throw new RateLimitError();
  }

  private get users() {
    return this.host.documents(USER_UID);
  }

  /** A new user of the local provider, with the authenticated role (403 when registering is disabled). */
  async register(input: unknown, client: LoginClient = {}): Promise<AuthAnswer> {
    if (!this.options.registerEnabled) throw new ForbiddenError('Register action is currently disabled');
    const body = inputObject(input);
    const extra = Object.keys(body).filter((k) => !['username', 'email', 'password', ...this.options.allowedFields].includes(k));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    const { username, email, password } = await this.newCredentials(body);
    const roleId = await this.options.permissions.ensureRole('authenticated', 'Authenticated');
    const extras = Object.fromEntries(this.options.allowedFields.filter((k) => k in body).map((k) => [k, body[k]]));
    const documentId = await this.users.createDocument({
      data: { ...extras, username, email, password, provider: 'local', confirmed: true, blocked: false, role: roleId },
    });
    // Strapi's register names a device for the session it opens, a new one unless the body gives one.
    return this.answer(await this.userId(documentId), { deviceId: deviceIdOf(body) ?? randomUUID(), metadata: sessionMetadata(client.userAgent) });
  }

  /** `identifier` (email, any case, or username) and password; in the "refresh" mode a `deviceId` names the session's device. */
  async login(input: unknown, client: LoginClient = {}): Promise<AuthAnswer> {
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const identifier = stringField(body, 'identifier', errors);
    const password = stringField(body, 'password', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const user = await findUserByEmailOrUsername(this.host.db, identifier.toLowerCase(), identifier);
    // Compare even when the user is unknown, so timing doesn't tell which identifiers exist.
    const ok = await bcrypt.compare(password, user?.password ?? NO_PASSWORD);
    if (!user || !ok) throw new ValidationError('Invalid identifier or password');
    if (user.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    return this.answer(user.id, { deviceId: deviceIdOf(body), metadata: sessionMetadata(client.userAgent) });
  }

  /** The logged-in user `userId` changes its password, giving the current one. */
  async changePassword(userId: number, input: unknown): Promise<AuthAnswer> {
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const current = stringField(body, 'currentPassword', errors);
    const password = stringField(body, 'password', errors);
    const confirmation = stringField(body, 'passwordConfirmation', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    // Strapi checks the new password's length first (its body schema), then the confirmation, then the current one.
    const tooLong = passwordTooLong(password);
    if (tooLong) throw ValidationError.fromFieldErrors([tooLong]);
    if (password !== confirmation) throw new ValidationError('Passwords do not match');
    if (password.length < this.options.minPasswordLength) throw new ValidationError(`password must be at least ${this.options.minPasswordLength} characters`);
    const hash = await findUserPassword(this.host.db, userId);
    if (hash === undefined || !(await bcrypt.compare(current, hash ?? ''))) throw new ValidationError('The provided current password is invalid');
    if (await bcrypt.compare(password, hash ?? '')) throw new ValidationError('Your new password must be different than your current password');
    await setUserPassword(this.host.db, userId, await bcrypt.hash(password, 10));
    // The "refresh" mode ends every session of the user's and opens one, on a new device (Strapi's rule).
    await this.options.sessions?.invalidate(String(userId));
    return this.answer(userId, { deviceId: randomUUID() });
  }

  /**
   * `POST /auth/reset-password`: the user holding the reset token `code` (set by Strapi's forgot-password, or by app
   * code) gets a new password, the token is used up, and the answer is a login's, as Strapi 5.54's resetPassword:
   * its checks in its order (the fields, the length in bytes, the confirmation, then the code).
   */
  async resetPassword(input: unknown): Promise<AuthAnswer> {
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const password = stringField(body, 'password', errors);
    const confirmation = stringField(body, 'passwordConfirmation', errors);
    const code = stringField(body, 'code', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const tooLong = passwordTooLong(password);
    if (tooLong) throw ValidationError.fromFieldErrors([tooLong]);
    if (password !== confirmation) throw new ValidationError('Passwords do not match');
    const userId = code === '' ? null : await findUserIdByResetToken(this.host.db, code);
    if (userId === null || !(await resetUserPassword(this.host.db, userId, code, await bcrypt.hash(password, 10)))) {
      throw new ValidationError('Incorrect code provided');
    }
    // The "refresh" mode ends every session of the user's and opens one, on a new device, as after a change.
    await this.options.sessions?.invalidate(String(userId));
    return this.answer(userId, { deviceId: randomUUID() });
  }

  /** Whether users-permissions runs Strapi's "refresh" mode (`jwtManagement: 'refresh'`). */
  get refreshMode(): boolean {
    return this.options.sessions !== undefined;
  }

  /** The "refresh" mode's routes answer 404 in the default mode (once the caller may call them), as Strapi's. */
  requireRefreshMode(): void {
    if (!this.options.sessions) throw new NotFoundError();
  }

  private get sessions(): SessionManager {
    this.requireRefreshMode();
    return this.options.sessions!;
  }

  /** `POST /auth/refresh`: a valid refresh token (the cookie's, else the body's) for a new pair of tokens. */
  async refresh(input: unknown, cookieToken?: string): Promise<{ jwt: string; refreshToken: string }> {
    const sessions = this.sessions;
    const given = input !== null && typeof input === 'object' ? (input as Record<string, unknown>).refreshToken : undefined;
    const token = cookieToken || given;
    if (typeof token !== 'string' || token === '') throw new BadRequestError('Missing refresh token');
    const rotated = await sessions.rotateRefreshToken(token);
    if (!rotated) throw new UnauthorizedError('Invalid refresh token');
    return { jwt: await sessions.accessTokenOf(rotated.session), refreshToken: rotated.token };
  }

  /**
   * `POST /auth/logout` of the user `userId`: `scope: 'all'` ends all its sessions, a `deviceId` those of one device;
   * otherwise the session of the refresh token given (cookie, else body), else the access token's, else all of them.
   * Access tokens stay valid until they expire, as in Strapi.
   */
  async logout(userId: number, input: unknown, context: LogoutContext): Promise<{ ok: true }> {
    const sessions = this.sessions;
    const body = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
    const user = String(userId);
    const deviceId = deviceIdOf(body);
    if (body.scope === 'all') await sessions.invalidate(user);
    else if (deviceId !== undefined) await sessions.invalidate(user, deviceId);
    else {
      let sessionId = context.sessionId;
      const token = context.cookieToken || (typeof body.refreshToken === 'string' ? body.refreshToken : undefined);
      if (token) sessionId = (await sessions.validateRefreshToken(token))?.sessionId ?? sessionId;
      if (sessionId) await sessions.revoke(user, sessionId);
      else await sessions.invalidate(user);
    }
    return { ok: true };
  }

  /** `GET /auth/sessions`: the user's active sessions, the request's own first, then the most recently used. */
  async listSessions(userId: number, currentSessionId?: string): Promise<{ data: SessionEntry[] }> {
    const entries = (await this.sessions.list(String(userId))).map((session) => sessionEntry(session, currentSessionId));
    entries.sort((a, b) => (a.current !== b.current ? (a.current ? -1 : 1) : (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? '')));
    return { data: entries };
  }

  /** `DELETE /auth/sessions/:sessionId`: ends one session of the user's (404 when it has no such session). */
  async revokeSession(userId: number, sessionId: string): Promise<{ data: Record<string, never> }> {
    if (!(await this.sessions.revoke(String(userId), sessionId))) throw new NotFoundError('Session not found');
    return { data: {} };
  }

  /**
   * The user with its role (null: no such user): GraphQL's `me`, and the `state.user` of policies; with the scalars
   * an app's extension adds to the user, as Strapi's `ctx.state.user` has every column of the user's row.
   */
  async me(userId: number): Promise<(UserWithRole & Record<string, unknown>) | null> {
    const user = await findUserWithRole(this.host.db, userId);
    if (!user || !this.options.extendedScalars.length) return user;
    const { results } = await this.users.findMany({ filters: { id: { $eq: userId } }, fields: this.options.extendedScalars, pagination: { page: 1, pageSize: 1 } });
    const { id: _id, documentId: _documentId, ...extended } = results[0] ?? {};
    return { ...extended, ...user };
  }

  /** One user as the users routes answer it, without private fields (404, with `message`: none). */
  async user(id: number, message?: string): Promise<Record<string, unknown>> {
    const result = await this.users.findMany({ filters: { id: { $eq: id } }, pagination: { page: 1, pageSize: 1 } });
    if (!result.results.length) throw new NotFoundError(message);
    return result.results[0];
  }

  /**
   * A user made by an administrator (`POST /users`), as Strapi 5's users controller makes it: `role` is required (a
   * role's id, its documentId, or `{ connect: [...] }`), `confirmed` is false and `blocked` false unless given; the
   * answer has the user's role.
   */
  async createUser(input: unknown): Promise<Record<string, unknown>> {
    const body = inputObject(input);
    this.checkUserKeys(body);
    const { username, email, password } = await this.newCredentials(body, 'admin');
    const { role, confirmed, blocked } = body;
    if (role === undefined || role === null || role === '') throw ValidationError.fromFieldErrors([{ path: ['role'], message: 'role is a required field', name: 'ValidationError' }]);
    checkRoleOnCreate(role);
    const extras = Object.fromEntries(this.options.extendedFields.filter((k) => k in body).map((k) => [k, body[k]]));
    const documentId = await this.users.createDocument({
      data: { ...extras, username, email, password, provider: 'local', confirmed: confirmed ?? false, blocked: blocked ?? false, role },
    });
    return this.userWithRole(await this.userId(documentId));
  }

  /** `PUT /users/:id`: the keys given, checked as on create; the answer has the user's role. */
  async updateUser(id: number, input: unknown): Promise<Record<string, unknown>> {
    // Strapi's users controller names what is missing on an update.
    const user = await this.user(id, 'User not found');
    const body = inputObject(input);
    const data: Record<string, unknown> = {};
    this.checkUserKeys(body);
    if ('role' in body) checkRoleOnUpdate(body.role);
    for (const [key, value] of Object.entries(body)) {
      if (key === 'password') {
        if (typeof value !== 'string' || value.length < this.options.minPasswordLength) throw new ValidationError(`password must be at least ${this.options.minPasswordLength} characters`);
        data.password = value;
      } else if (key === 'email') {
        if (typeof value !== 'string' || !EMAIL.test(value)) throw new ValidationError('email must be a valid email');
        data.email = value.toLowerCase();
      } else data[key] = value;
    }
    // Strapi 5.54's users controller: a username or an email (lower-cased; its advanced setting unique_email, true by
    // default, as on create here) that another user has is refused, named.
    if (typeof data.username === 'string' && (await this.takenByAnother('username', data.username, id))) throw new ApplicationError('Username already taken');
    if (typeof data.email === 'string' && (await this.takenByAnother('email', data.email, id))) throw new ApplicationError('Email already taken');
    await this.users.updateDocument({ documentId: user.documentId as string, data });
    return this.userWithRole(user.id as number);
  }

  /**
   * The users administration writes the user's own keys and the app's extended fields; any other key would be dropped
   * (Strapi's Query Engine writes known attributes only): refused, named, as on the Content API.
   */
  private checkUserKeys(body: Record<string, unknown>): void {
    for (const key of Object.keys(body)) {
      if (!USER_KEYS.includes(key) && !this.options.extendedFields.includes(key)) throw new ValidationError(`Invalid key ${key}`);
    }
  }

  private async takenByAnother(column: 'username' | 'email', value: string, id: number): Promise<boolean> {
    const owner = await findUserIdWith(this.host.db, column, value);
    return owner !== null && owner !== id;
  }

  /** A user as the users administration answers a write: with its role. */
  private async userWithRole(id: number): Promise<Record<string, unknown>> {
    const result = await this.users.findMany({ filters: { id: { $eq: id } }, populate: ['role'], pagination: { page: 1, pageSize: 1 } });
    if (!result.results.length) throw new NotFoundError();
    return result.results[0];
  }

  /** Deletes the user; answers it as it was. */
  async deleteUser(id: number): Promise<Record<string, unknown>> {
    const user = await this.user(id);
    // Strapi's user service deletes through its Query Engine: no entry.delete on strapi.eventHub.
    await this.users.quiet().delete({ documentId: user.documentId as string });
    return user;
  }

  /** The user's answer with its tokens: in the "refresh" mode, a new session on `session`'s device. */
  private async answer(userId: number, session: { deviceId?: string; metadata?: Record<string, unknown> }): Promise<AuthAnswer> {
    const user = await this.user(userId);
    const sessions = this.options.sessions;
    if (!sessions) return { jwt: await this.options.jwt.issue(userId), user };
    const refresh = await sessions.generateRefreshToken(String(userId), session.deviceId, { type: 'refresh', ...(session.metadata ? { metadata: session.metadata } : {}) });
    return { jwt: await sessions.accessTokenOf({ userId: String(userId), sessionId: refresh.sessionId }), refreshToken: refresh.token, user };
  }

  private async userId(documentId: string): Promise<number> {
    const id = await findUserId(this.host.db, documentId);
    if (id === null) throw new NotFoundError();
    return id;
  }

  /**
   * username, email (lower-cased) and password of a new user: checked, and not taken by another user (Strapi's
   * messages: register's one for both, the users administration's per field).
   */
  private async newCredentials(body: Record<string, unknown>, by: 'register' | 'admin' = 'register') {
    const errors: FieldError[] = [];
    const username = stringField(body, 'username', errors);
    const email = stringField(body, 'email', errors).toLowerCase();
    const password = stringField(body, 'password', errors);
    if (!errors.length) checkCredentials(username, email, password, this.options.minPasswordLength, errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    if (by === 'register') {
      if (await findUserByEmailOrUsername(this.host.db, email, username)) throw new ApplicationError('Email or Username are already taken');
    } else {
      if ((await findUserIdWith(this.host.db, 'email', email)) !== null) throw new ApplicationError('Email already taken');
      if ((await findUserIdWith(this.host.db, 'username', username)) !== null) throw new ApplicationError('This attribute must be unique');
    }
    return { username, email, password };
  }
}

/** A body's `deviceId`: a non-empty string, or none. */
function deviceIdOf(body: Record<string, unknown>): string | undefined {
  return typeof body.deviceId === 'string' && body.deviceId !== '' ? body.deviceId : undefined;
}
