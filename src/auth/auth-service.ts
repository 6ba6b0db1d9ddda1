import bcrypt from 'bcryptjs';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  confirmUserEmail,
  findUserByEmail,
  findUserByEmailOrUsername,
  findUserId,
  findUserIdByResetToken,
  findUserIdWith,
  findUserPassword,
  findUserWithRole,
  identityTaken,
  resetUserPassword,
  setUserPassword,
  setUserToken,
  type UserWithRole,
} from '../database/users.js';
import { fillTemplate, type EmailOptions, type EmailService } from '../email/index.js';
import { localProviderEnabled, readAdvancedSettings, readEmailTemplate, type EmailTemplate } from './store-settings.js';
import { ApplicationError, BadRequestError, NotFoundError, RateLimitError, UnauthorizedError, ValidationError, type FieldError } from '../errors/index.js';
import { AttemptLimit, attemptKey } from './attempts.js';
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
  /** The email plugin's service, asked at each send (an app may replace its `send`). */
  email: () => EmailService;
  /** What email links are made of: the server's and the admin panel's absolute URLs, and the REST prefix. */
  links: { server: string; admin: string; apiPrefix: string };
  /** Where an email that could not be sent is reported, with the provider's error. */
  log: Pick<Logger, 'error'>;
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

/** The actions users-permissions rate-limits, each counted on its own (REST and GraphQL together). */
export const RATE_LIMITED = ['register', 'login', 'changePassword', 'resetPassword', 'forgotPassword', 'sendEmailConfirmation'] as const;
export type RateLimitedAction = (typeof RATE_LIMITED)[number];

/**
 * Users & permissions' local provider: register, login, change password, the logged-in user, and the users
 * administration. REST routes and GraphQL resolvers call it directly; the inputs are what clients sent (checked
 * here), the answers what they get. The transports check the caller and count attempts (`attempts`) first.
 */
export class AuthService {
  /** The attempts of each rate-limited action, counted per client address (REST and GraphQL together). */
  readonly attempts: Record<RateLimitedAction, AttemptLimit>;

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
    this.attempts = Object.fromEntries(RATE_LIMITED.map((action) => [action, this.newLimit()])) as Record<RateLimitedAction, AttemptLimit>;
  }

  /** A limit per the config; without one (`ratelimit.enabled: false`), a limit of Infinity: the one form of "off". */
  private newLimit(): AttemptLimit {
    const { max, timeWindow } = this.options.rateLimit ?? { max: Infinity, timeWindow: 1 };
    return new AttemptLimit(max, timeWindow);
  }

  /**
   * Counts an attempt at a rate-limited action from a client `address` (and the `body`'s email, see attemptKey):
   * `register`, `login`, `changePassword`, or any other name (a route of the app's with users-permissions' rate-limit
   * middleware: its own count). Tells the
   * client its limit through `setHeader`, as @fastify/rate-limit does (`x-ratelimit-*`, `retry-after` with the
   * 429); past the limit, a RateLimitError.
   */
  async attempt(action: string, address: string, setHeader: (name: string, value: number) => void, body?: unknown): Promise<void> {
    let limit = Object.hasOwn(this.attempts, action) ? this.attempts[action as keyof AuthService['attempts']] : this.otherAttempts.get(action);
    if (!limit) this.otherAttempts.set(action, (limit = this.newLimit()));
    // No limit (ratelimit.enabled: false): nothing counted, no headers, as Strapi's middleware then does nothing.
    if (limit.max === Infinity) return;
    const attempt = await limit.count(attemptKey(action, address, body));
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

  /**
   * A new user of the local provider, as Strapi 5.54's register makes it from the plugin's advanced settings (kept
   * in the core store, edited in Strapi's admin): refused when `allow_register` is off (or `register.enabled` false
   * in config), given the `default_role`; with `email_confirmation` on, it is unconfirmed, gets the confirmation
   * email, and the answer is the user alone (no token).
   */
  async register(input: unknown, client: LoginClient = {}): Promise<AuthAnswer | { user: Record<string, unknown> }> {
    const settings = await readAdvancedSettings(this.host.db);
    if (!this.options.registerEnabled || !settings.allow_register) throw new ApplicationError('Register action is currently disabled');
    const body = inputObject(input);
    const extra = Object.keys(body).filter((k) => !['username', 'email', 'password', ...this.options.allowedFields].includes(k));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    const { username, email, password } = await this.newCredentials(body, { uniqueEmail: settings.unique_email });
    const roleId = await this.defaultRole(settings.default_role);
    const extras = Object.fromEntries(this.options.allowedFields.filter((k) => k in body).map((k) => [k, body[k]]));
    const documentId = await this.users.createDocument({
      data: { ...extras, username, email, password, provider: 'local', confirmed: !settings.email_confirmation, blocked: false, role: roleId },
    });
    const userId = await this.userId(documentId);
    if (settings.email_confirmation) {
      const user = await this.user(userId);
      await this.sendConfirmationEmail(userId, email, user, 'Error sending confirmation email');
      return { user };
    }
    // Strapi's register names a device for the session it opens, a new one unless the body gives one.
    return this.answer(userId, { deviceId: deviceIdOf(body) ?? randomUUID(), metadata: sessionMetadata(client.userAgent) });
  }

  /** The role of type `type` (the settings' `default_role`), its documentId or id; the authenticated role is made if missing. */
  private async defaultRole(type: string): Promise<string | number> {
    if (type === 'authenticated') return this.options.permissions.ensureRole('authenticated', 'Authenticated');
    const id = await this.options.permissions.roleId(type);
    if (id === null) throw new ApplicationError('Impossible to find the default role');
    return id;
  }

  /**
   * `POST /auth/forgot-password`: emails the user with this address a reset code (the `reset_password` template of
   * the plugin's email settings, its `<%= URL %>` the advanced settings' `email_reset_password`), stored first, as
   * Strapi stores it, so an administrator can make the link if the email fails. An unknown or blocked address gets
   * the same answer, so the route does not tell which addresses have an account.
   */
  async forgotPassword(input: unknown): Promise<{ ok: true }> {
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const email = emailField(body, errors);
    // Strapi's body schema is `noUnknown`.
    const unknown = Object.keys(body).filter((key) => key !== 'email');
    if (unknown.length) errors.push({ path: [], message: `this field has unspecified keys: ${unknown.join(', ')}`, name: 'ValidationError', value: body });
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const found = await findUserByEmail(this.host.db, email.toLowerCase());
    if (!found || found.blocked) return { ok: true };
    const [advanced, template] = await Promise.all([readAdvancedSettings(this.host.db), readEmailTemplate(this.host.db, 'reset_password')]);
    const user = await this.user(found.id);
    const token = randomBytes(64).toString('hex');
    const { server, admin } = this.options.links;
    const message = fillTemplate(template.message, { URL: advanced.email_reset_password, SERVER_URL: server, ADMIN_URL: admin, USER: user, TOKEN: token });
    const subject = fillTemplate(template.object, { USER: user });
    await setUserToken(this.host.db, found.id, 'reset_password_token', token);
    // Strapi 5.54's forgot-password sets a sender when the template has a name or an address (the confirmation email
    // wants both): `undefined <...>` when one is missing, as Strapi sends it.
    const from = template.from.email || template.from.name ? `${template.from.name} <${template.from.email}>` : undefined;
    await this.sendEmail({ to: found.email, from, replyTo: template.response_email, subject, text: message, html: message }, 'Error sending reset password email');
    return { ok: true };
  }

  /**
   * `POST /auth/send-email-confirmation`: a new confirmation email (and token: the one sent before stops working) to
   * an unconfirmed user; an unknown address gets the same answer as a known one.
   */
  async sendEmailConfirmation(input: unknown): Promise<{ email: string; sent: true }> {
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const email = emailField(body, errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const found = await findUserByEmail(this.host.db, email.toLowerCase());
    if (!found) return { email, sent: true };
    if (found.confirmed) throw new ApplicationError('Already confirmed');
    if (found.blocked) throw new ApplicationError('User blocked');
    await this.sendConfirmationEmail(found.id, found.email, await this.user(found.id), 'Error sending confirmation email');
    return { email: found.email, sent: true };
  }

  /**
   * `GET /auth/email-confirmation?confirmation=<token>`: the user holding the token is confirmed and the token used
   * up; the answer is where to redirect, the advanced settings' `email_confirmation_redirection` (`/` when unset).
   */
  async confirmEmail(query: unknown): Promise<string> {
    await this.confirmedUser(query);
    return (await readAdvancedSettings(this.host.db)).email_confirmation_redirection || '/';
  }

  /** GraphQL's `emailConfirmation`: the confirmed user and a token for it, as Strapi's controller answers it there. */
  async confirmEmailForToken(input: unknown): Promise<AuthAnswer> {
    const userId = await this.confirmedUser(input);
    return { jwt: await this.options.jwt.issue(userId), user: await this.user(userId) };
  }

  /** The user the `confirmation` token of `input` confirms (the token is used up), or Strapi's 400s. */
  private async confirmedUser(input: unknown): Promise<number> {
    const params = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
    const errors: FieldError[] = [];
    const token = requiredString(params, 'confirmation', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const userId = await confirmUserEmail(this.host.db, token);
    if (userId === null) throw new ValidationError('Invalid token');
    return userId;
  }

  /**
   * The `email_confirmation` template sent to a user with a new confirmation token, as Strapi 5.54's user service
   * sends it: `<%= URL %>` is `<server>/api/auth/email-confirmation`, `<%= CODE %>` the token.
   */
  private async sendConfirmationEmail(userId: number, to: string, user: Record<string, unknown>, failure: string): Promise<void> {
    const template: EmailTemplate = await readEmailTemplate(this.host.db, 'email_confirmation');
    const token = randomBytes(20).toString('hex');
    await setUserToken(this.host.db, userId, 'confirmation_token', token);
    const { server, admin, apiPrefix } = this.options.links;
    const url = [server.replace(/\/+$/, ''), apiPrefix.replace(/^\/+|\/+$/g, ''), 'auth/email-confirmation'].filter(Boolean).join('/');
    const message = fillTemplate(template.message, { URL: url, SERVER_URL: server, ADMIN_URL: admin, USER: user, CODE: token });
    const subject = fillTemplate(template.object, { USER: user });
    const from = template.from.email && template.from.name ? `${template.from.name} <${template.from.email}>` : undefined;
    await this.sendEmail({ to, from, replyTo: template.response_email, subject, text: message, html: message }, failure);
  }

  /**
   * Sends through the email plugin's service. A provider's failure is logged with its cause and answered as a 400
   * naming the email, as Strapi 5.54's register answers it (its forgot-password answers a bare 500).
   */
  private async sendEmail(email: EmailOptions, failure: string): Promise<void> {
    try {
      await this.options.email().send(email);
    } catch (error) {
      this.options.log.error({ err: error, to: email.to }, `users-permissions: ${failure}`);
      throw new ApplicationError(failure);
    }
  }

  /** `identifier` (email, any case, or username) and password; in the "refresh" mode a `deviceId` names the session's device. */
  async login(input: unknown, client: LoginClient = {}): Promise<AuthAnswer> {
    // The "Email" provider of the plugin's settings (Strapi's admin can turn it off).
    if (!(await localProviderEnabled(this.host.db))) throw new ApplicationError('This provider is disabled');
    const body = inputObject(input);
    const errors: FieldError[] = [];
    const identifier = stringField(body, 'identifier', errors);
    const password = stringField(body, 'password', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const user = await findUserByEmailOrUsername(this.host.db, identifier.toLowerCase(), identifier);
    // Compare even when the user is unknown, so timing doesn't tell which identifiers exist.
    const ok = await bcrypt.compare(password, user?.password ?? NO_PASSWORD);
    if (!user || !ok) throw new ValidationError('Invalid identifier or password');
    if (!user.confirmed && (await readAdvancedSettings(this.host.db)).email_confirmation) throw new ApplicationError('Your account email is not confirmed');
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
  private async newCredentials(body: Record<string, unknown>, by: 'admin' | { uniqueEmail: boolean }) {
    const errors: FieldError[] = [];
    const username = stringField(body, 'username', errors);
    const email = stringField(body, 'email', errors).toLowerCase();
    const password = stringField(body, 'password', errors);
    if (!errors.length) checkCredentials(username, email, password, this.options.minPasswordLength, errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    if (by !== 'admin') {
      // Strapi 5.54's register: the local provider's users, or every user when the advanced setting unique_email is on.
      if (await identityTaken(this.host.db, email, username, by.uniqueEmail ? undefined : 'local')) throw new ApplicationError('Email or Username are already taken');
    } else {
      if ((await findUserIdWith(this.host.db, 'email', email)) !== null) throw new ApplicationError('Email already taken');
      if ((await findUserIdWith(this.host.db, 'username', username)) !== null) throw new ApplicationError('This attribute must be unique');
    }
    return { username, email, password };
  }
}

/** A required string of a body, as Strapi's yup schemas check it (`<key> is a required field`); '' after an error. */
function requiredString(body: Record<string, unknown>, key: string, errors: FieldError[]): string {
  const value = body[key];
  if (value === undefined || value === null || value === '') {
    errors.push({ path: [key], message: `${key} is a required field`, name: 'ValidationError', value: value ?? null });
    return '';
  }
  return stringField(body, key, errors);
}

/** The `email` of a body, as Strapi's yup schemas check it: required, a string, an email address. */
function emailField(body: Record<string, unknown>, errors: FieldError[]): string {
  const count = errors.length;
  const email = requiredString(body, 'email', errors);
  if (errors.length === count && !EMAIL.test(email)) errors.push({ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email });
  return email;
}

/** A body's `deviceId`: a non-empty string, or none. */
function deviceIdOf(body: Record<string, unknown>): string | undefined {
  return typeof body.deviceId === 'string' && body.deviceId !== '' ? body.deviceId : undefined;
}
