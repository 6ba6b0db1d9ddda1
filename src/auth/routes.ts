import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorize, findAction, type Caller } from './access-control.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors/index.js';
import { parseReadParams, strictParams } from '../query/index.js';
import { USER_UID, type AuthService, type RateLimitedAction } from './auth-service.js';
import type { AuthHost } from './host.js';
import { permissionsTree, type RoleAdmin } from './role-admin.js';
import { RefreshCookies } from './session-cookie.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The handlers of users-permissions' Content API routes that Cairn serves, as Strapi names them (`<controller>.<action>`). */
export type UsersPermissionsHandler =
  | 'auth.register'
  | 'auth.callback'
  | 'auth.changePassword'
  | 'auth.resetPassword'
  | 'auth.forgotPassword'
  | 'auth.emailConfirmation'
  | 'auth.sendEmailConfirmation'
  | 'auth.refresh'
  | 'auth.logout'
  | 'auth.getSessions'
  | 'auth.revokeSession'
  | 'user.me'
  | 'user.find'
  | 'user.findOne'
  | 'user.create'
  | 'user.update'
  | 'user.destroy'
  | 'role.findOne'
  | 'role.find'
  | 'role.createRole'
  | 'role.updateRole'
  | 'role.deleteRole'
  | 'permissions.getPermissions';

/**
 * One of those routes, as Strapi declares it: under `/api/users-permissions`, or under `/api` with
 * `config.prefix: ''`.
 */
export interface UsersPermissionsRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handler: UsersPermissionsHandler;
  config?: { prefix: ''; middlewares?: string[] };
}

/** Strapi's rate limit of the auth routes: its route middleware, by name. */
export const RATE_LIMIT_MIDDLEWARE = 'plugin::users-permissions.rateLimit';

const limited = { prefix: '' as const, middlewares: [RATE_LIMIT_MIDDLEWARE] };
/** users-permissions' Content API routes that Cairn serves, in Strapi's order and form. */
export const USERS_PERMISSIONS_ROUTES: readonly UsersPermissionsRoute[] = [
  { method: 'POST', path: '/auth/local', handler: 'auth.callback', config: limited },
  { method: 'POST', path: '/auth/local/register', handler: 'auth.register', config: limited },
  { method: 'POST', path: '/auth/forgot-password', handler: 'auth.forgotPassword', config: limited },
  { method: 'POST', path: '/auth/reset-password', handler: 'auth.resetPassword', config: limited },
  { method: 'GET', path: '/auth/email-confirmation', handler: 'auth.emailConfirmation', config: { prefix: '' } },
  { method: 'POST', path: '/auth/send-email-confirmation', handler: 'auth.sendEmailConfirmation', config: limited },
  { method: 'POST', path: '/auth/change-password', handler: 'auth.changePassword', config: limited },
  // The "refresh" mode's; in the default mode they answer 404 once the caller may call them (Strapi's controller).
  { method: 'POST', path: '/auth/refresh', handler: 'auth.refresh', config: { prefix: '' } },
  { method: 'POST', path: '/auth/logout', handler: 'auth.logout', config: { prefix: '' } },
  { method: 'GET', path: '/auth/sessions', handler: 'auth.getSessions', config: { prefix: '' } },
  { method: 'DELETE', path: '/auth/sessions/:sessionId', handler: 'auth.revokeSession', config: { prefix: '' } },
  { method: 'GET', path: '/users', handler: 'user.find', config: { prefix: '' } },
  { method: 'GET', path: '/users/me', handler: 'user.me', config: { prefix: '' } },
  { method: 'GET', path: '/users/:id', handler: 'user.findOne', config: { prefix: '' } },
  { method: 'POST', path: '/users', handler: 'user.create', config: { prefix: '' } },
  { method: 'PUT', path: '/users/:id', handler: 'user.update', config: { prefix: '' } },
  { method: 'DELETE', path: '/users/:id', handler: 'user.destroy', config: { prefix: '' } },
  { method: 'GET', path: '/roles/:id', handler: 'role.findOne' },
  { method: 'GET', path: '/roles', handler: 'role.find' },
  { method: 'POST', path: '/roles', handler: 'role.createRole' },
  { method: 'PUT', path: '/roles/:role', handler: 'role.updateRole' },
  { method: 'DELETE', path: '/roles/:role', handler: 'role.deleteRole' },
  { method: 'GET', path: '/permissions', handler: 'permissions.getPermissions' },
];

/** A route's URL: the plugin's prefix unless the route says `prefix: ''`. */
const urlOf = (route: UsersPermissionsRoute) => `/api${route.config?.prefix === '' ? '' : '/users-permissions'}${route.path}`;

/** The rate-limited attempts each rate-limited route counts (REST and GraphQL together). */
const ATTEMPTS: Partial<Record<UsersPermissionsHandler, RateLimitedAction>> = {
  'auth.register': 'register',
  'auth.callback': 'login',
  'auth.changePassword': 'changePassword',
  'auth.resetPassword': 'resetPassword',
  'auth.forgotPassword': 'forgotPassword',
  'auth.sendEmailConfirmation': 'sendEmailConfirmation',
};

/** What a users-permissions action reads of a request, whatever carries it (a Fastify request, a Koa `ctx`). */
export interface UsersPermissionsRequest {
  /** The query string, parsed. */
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  /** Who calls: the logged-in user's id when it is one; populate leaves out the types it may not find. */
  caller: Caller;
  /** The request's headers (the "refresh" mode reads the User-Agent, the refresh cookie and its opt-in header). */
  headers: Record<string, string | string[] | undefined>;
  /** Whether the client's connection is encrypted (HTTPS, or a trusted proxy's X-Forwarded-Proto). */
  encrypted: boolean;
}

/** An action's answer: its status, its JSON text, the cookies it sets, or where it redirects (a 302). */
export interface UsersPermissionsAnswer {
  status: number;
  json: string;
  setCookie?: string[];
  redirect?: string;
}

export type UsersPermissionsActions = Record<UsersPermissionsHandler, (request: UsersPermissionsRequest) => Promise<UsersPermissionsAnswer>>;

/**
 * The actions of users-permissions' routes, after the route's own checks (credentials, permission, rate limit):
 * what Cairn's routes answer, and what an app's `strapi-server` extension reaches as the plugin's original
 * controller actions (server-code/plugin-extensions.ts), through the `actions` service.
 */
export function usersPermissionsActions(
  host: Pick<AuthHost, 'model' | 'readSettings' | 'documents'>,
  auth: AuthService,
  roles: RoleAdmin,
  cookies: RefreshCookies = new RefreshCookies({ config: {}, production: false }),
): UsersPermissionsActions {
  const json = (value: unknown, status = 200, setCookie?: string[]): UsersPermissionsAnswer => ({ status, json: JSON.stringify(value), ...(setCookie ? { setCookie } : {}) });
  const userOf = (request: UsersPermissionsRequest, message?: string): number => {
    if (request.caller.kind !== 'user' || request.caller.userId === undefined) throw new UnauthorizedError(message);
    return request.caller.userId;
  };
  const client = (r: UsersPermissionsRequest) => ({ userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : undefined });
  /** Whether the "refresh" mode keeps this request's refresh token in a cookie (checked before anything is written). */
  const inCookie = (r: UsersPermissionsRequest): boolean => auth.refreshMode && cookies.wanted(r.headers, r.encrypted);
  return {
    'auth.register': async (r) => json(await auth.register(body(r, []), client(r))),
    'auth.callback': async (r) => {
      const cookie = inCookie(r);
      const { refreshToken, ...answer } = await auth.login(body(r, []), client(r));
      if (cookie && refreshToken) return json(answer, 200, cookies.set(r.headers, r.encrypted, refreshToken));
      return json(refreshToken ? { jwt: answer.jwt, refreshToken, user: answer.user } : answer);
    },
    'auth.changePassword': async (r) => json(await auth.changePassword(userOf(r), body(r, []))),
    'auth.resetPassword': async (r) => json(await auth.resetPassword(body(r, []))),
    'auth.forgotPassword': async (r) => json(await auth.forgotPassword(body(r, []))),
    'auth.sendEmailConfirmation': async (r) => json(await auth.sendEmailConfirmation(body(r, []))),
    'auth.emailConfirmation': async (r) => {
      strictParams(r.query, ['confirmation']);
      return { status: 302, json: 'null', redirect: await auth.confirmEmail(r.query) };
    },
    'auth.refresh': async (r) => {
      auth.requireRefreshMode();
      const cookie = inCookie(r);
      const tokens = await auth.refresh(body(r, []), cookies.token(r.headers));
      return cookie ? json({ jwt: tokens.jwt }, 200, cookies.set(r.headers, r.encrypted, tokens.refreshToken)) : json(tokens);
    },
    'auth.logout': async (r) => {
      auth.requireRefreshMode();
      const userId = userOf(r, 'Missing authentication');
      const cookie = inCookie(r);
      const answer = await auth.logout(userId, body(r, []), { sessionId: r.caller.sessionId, cookieToken: cookies.token(r.headers) });
      return json(answer, 200, cookie ? cookies.cleared(r.headers, r.encrypted) : undefined);
    },
    'auth.getSessions': async (r) => {
      auth.requireRefreshMode();
      strictParams(r.query, []);
      return json(await auth.listSessions(userOf(r, 'Missing authentication'), r.caller.sessionId));
    },
    'auth.revokeSession': async (r) => {
      auth.requireRefreshMode();
      return json(await auth.revokeSession(userOf(r, 'Missing authentication'), String(r.params.sessionId)));
    },
    'user.me': async (r) => ({ status: 200, json: await readUser(host, auth, r, userOf(r)) }),
    'user.find': async (r) => {
      const spec = parseReadParams(host.model, host.model.contentTypes.get(USER_UID)!, r.query, readOptions(host, r.caller));
      const page = await host.documents(USER_UID).findPage(spec);
      return { status: 200, json: `[${page.rows.join(',')}]` };
    },
    'user.findOne': async (r) => ({ status: 200, json: await readUser(host, auth, r, numericId(r.params)) }),
    'user.create': async (r) => json(await auth.createUser(body(r, [])), 201),
    'user.update': async (r) => {
      const data = body(r, []);
      return json(await auth.updateUser(numericId(r.params), data));
    },
    'user.destroy': async (r) => {
      body(r, []);
      return json(await auth.deleteUser(numericId(r.params)));
    },
    'role.find': async (r) => {
      strictParams(r.query, []);
      return json({ roles: await roles.find() });
    },
    'role.findOne': async (r) => {
      strictParams(r.query, []);
      return json({ role: await roles.findOne(r.params.id) });
    },
    'role.createRole': async (r) => {
      await roles.create(body(r, []));
      return json({ ok: true });
    },
    'role.updateRole': async (r) => {
      await roles.update(r.params.role, body(r, []));
      return json({ ok: true });
    },
    'role.deleteRole': async (r) => {
      body(r, []);
      await roles.delete(r.params.role);
      return json({ ok: true });
    },
    'permissions.getPermissions': async (r) => {
      strictParams(r.query, []);
      return json({ permissions: permissionsTree(host.model) });
    },
  };
}

/** The request's body, once its query holds none but the `allowed` parameters. */
function body(request: UsersPermissionsRequest, allowed: string[]): unknown {
  strictParams(request.query, allowed);
  return request.body;
}

/**
 * Users & permissions' REST routes: the auth actions (register, login, change-password), `/users/me` and the users
 * administration. HTTP only: who calls, the query string, the status; the rest is the actions'. A route the app's
 * `strapi-server` extension changed or removed (`servedByApp`, `<METHOD> <path>`) is left to the app's server code.
 */
export function registerAuthRoutes(app: FastifyInstance, host: AuthHost, auth: AuthService, actions: UsersPermissionsActions, servedByApp: ReadonlySet<string> = new Set()): void {
  for (const route of USERS_PERMISSIONS_ROUTES) {
    if (servedByApp.has(`${route.method} ${route.path}`)) continue;
    const attempts = ATTEMPTS[route.handler];
    const action = actions[route.handler];
    app.route({
      method: route.method,
      url: urlOf(route),
      // Counted once the body is read (its email names the bucket, see attemptKey), before the action runs.
      ...(attempts ? { preHandler: (req: FastifyRequest, reply: FastifyReply) => auth.attempt(attempts, req.ip, (name, value) => void reply.header(name, value), req.body) } : {}),
      handler: async (req, reply) => {
        const caller = await callerOf(host, req, route.handler);
        const answer = await action({
          query: host.queryString.ofRequest(req),
          params: (req.params ?? {}) as Record<string, string>,
          body: req.body,
          caller,
          headers: req.headers,
          encrypted: req.protocol === 'https',
        });
        if (answer.setCookie) reply.header('set-cookie', answer.setCookie);
        if (answer.redirect !== undefined) return reply.redirect(answer.redirect, 302);
        return reply.status(answer.status).type(JSON_TYPE).send(answer.json);
      },
    });
  }
}

/**
 * Who calls a route, checked as Cairn's routes check it: register, login, the password and email-confirmation routes are open, change-password and `me`
 * need a logged-in user (403 otherwise), the users administration the role's (or token's) permission.
 */
async function callerOf(host: AuthHost, req: FastifyRequest, handler: UsersPermissionsHandler): Promise<Caller> {
  switch (handler) {
    case 'auth.register':
    case 'auth.callback':
    case 'auth.resetPassword':
    case 'auth.forgotPassword':
    case 'auth.emailConfirmation':
    case 'auth.sendEmailConfirmation':
      return host.access.caller(req);
    case 'auth.changePassword':
    case 'user.me': {
      const caller = await host.access.caller(req);
      if (caller.kind !== 'user') throw new ForbiddenError();
      return caller;
    }
    default:
      return authorize(host.access, req, `plugin::users-permissions.${handler}`);
  }
}

function readOptions(host: Pick<AuthHost, 'readSettings'>, caller: Caller) {
  return {
    ...host.readSettings,
    canFind: (uid: string) => caller.can(findAction(uid)),
  };
}

function numericId(params: Record<string, string>): number {
  const id = params.id;
  if (typeof id !== 'string' || !/^\d+$/.test(id)) throw new NotFoundError();
  return Number(id);
}

/**
 * One user as GET /users/me and /users/:id answer it: with `fields` and `populate` as on the Content API (populate
 * leaves out types the caller may not find); any other parameter is a 400.
 */
async function readUser(host: Pick<AuthHost, 'model' | 'readSettings' | 'documents'>, auth: AuthService, request: UsersPermissionsRequest, id: number): Promise<string> {
  const query = strictParams(request.query, ['fields', 'populate']);
  const user = await auth.user(id);
  if (!Object.keys(query).length) return JSON.stringify(user);
  const spec = parseReadParams(host.model, host.model.contentTypes.get(USER_UID)!, query, readOptions(host, request.caller));
  const text = await host.documents(USER_UID).findOneJson(spec, user.documentId as string);
  if (text === null) throw new NotFoundError();
  return text;
}
