import { GraphQLBoolean, GraphQLID, GraphQLInputObjectType, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccessControl } from '../auth/access-control.js';
import type { AuthService, LoginClient, RateLimitedAction } from '../auth/auth-service.js';
import { attemptKey } from '../auth/attempts.js';
import type { RefreshCookies } from '../auth/session-cookie.js';
import { ApplicationError, ForbiddenError, RateLimitError, ValidationError } from '../errors/index.js';
import { needs } from './field-auth.js';

type RootFields = GraphQLFieldConfigMap<unknown, { request: FastifyRequest; reply?: FastifyReply }>;

/** What register, login and me need of the app: who calls, and users & permissions' auth service. */
export interface UsersPermissionsHost {
  readonly access: AccessControl;
  plugin(name: string): { service<T = unknown>(service: string): T };
}

/** The users & permissions plugin's auth service, which the REST routes call too. */
export function authService(host: Pick<UsersPermissionsHost, 'plugin'>): AuthService {
  return host.plugin('users-permissions').service<AuthService>('auth');
}

/**
 * register, login, changePassword, forgotPassword, resetPassword, emailConfirmation and me, answered by the auth service the REST auth routes call: the same validation, errors
 * and answers, and the same rate limit by the caller's address (an attempt here counts as one on REST).
 */
export function addUsersPermissions(host: UsersPermissionsHost, query: RootFields, mutation: RootFields): void {
  const role = new GraphQLObjectType({
    name: 'UsersPermissionsMeRole',
    fields: { id: { type: new GraphQLNonNull(GraphQLID) }, name: { type: new GraphQLNonNull(GraphQLString) }, description: { type: GraphQLString }, type: { type: GraphQLString } },
  });
  const me = new GraphQLObjectType({
    name: 'UsersPermissionsMe',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID) },
      documentId: { type: new GraphQLNonNull(GraphQLID) },
      username: { type: new GraphQLNonNull(GraphQLString) },
      email: { type: GraphQLString },
      confirmed: { type: GraphQLBoolean },
      blocked: { type: GraphQLBoolean },
      role: { type: role },
    },
  });
  const payload = new GraphQLObjectType({ name: 'UsersPermissionsLoginPayload', fields: { jwt: { type: GraphQLString }, user: { type: new GraphQLNonNull(me) } } });
  const registerInput = new GraphQLInputObjectType({
    name: 'UsersPermissionsRegisterInput',
    fields: { username: { type: new GraphQLNonNull(GraphQLString) }, email: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) } },
  });
  const loginInput = new GraphQLInputObjectType({
    name: 'UsersPermissionsLoginInput',
    fields: { identifier: { type: new GraphQLNonNull(GraphQLString) }, password: { type: new GraphQLNonNull(GraphQLString) }, provider: { type: new GraphQLNonNull(GraphQLString), defaultValue: 'local' } },
  });
  /** Counts the caller's attempt at an action, in REST's bucket (the same key: attemptKey); past the limit, a RateLimitError. */
  const attempt = async (auth: ReturnType<typeof authService>, action: RateLimitedAction, request: FastifyRequest, body?: object) => {
    if ((await auth.attempts[action].count(attemptKey(action, request.ip, body))).exceeded) throw new RateLimitError();
  };
  mutation.register = {
    type: new GraphQLNonNull(payload),
    args: { input: { type: new GraphQLNonNull(registerInput) } },
    extensions: needs({ public: true }),
    resolve: async (_r, args, context) => {
      const auth = authService(host);
      refuseReplaced(auth, 'auth.register', 'register');
      await attempt(auth, 'register', context.request, args.input);
      return auth.register({ ...args.input }, clientOf(context.request));
    },
  };
  mutation.login = {
    type: new GraphQLNonNull(payload),
    args: { input: { type: new GraphQLNonNull(loginInput) } },
    extensions: needs({ public: true }),
    resolve: async (_r, args, context) => {
      if (args.input.provider !== 'local') throw new ValidationError('Only the local provider is supported');
      const auth = authService(host);
      refuseReplaced(auth, 'auth.callback', 'login');
      await attempt(auth, 'login', context.request);
      // Strapi's mutation runs its login action: in the "refresh" mode, a request that asks for the refresh cookie gets it.
      const cookies = host.plugin('users-permissions').service<RefreshCookies>('cookies');
      const encrypted = context.request.protocol === 'https';
      const inCookie = auth.refreshMode && context.reply !== undefined && cookies.wanted(context.request.headers, encrypted);
      const { refreshToken, ...answer } = await auth.login({ identifier: args.input.identifier, password: args.input.password }, clientOf(context.request));
      if (inCookie && refreshToken) context.reply!.header('set-cookie', cookies.set(context.request.headers, encrypted, refreshToken));
      return answer;
    },
  };
  mutation.changePassword = {
    type: payload,
    description: 'Change user password. Confirm with the current password.',
    args: {
      currentPassword: { type: new GraphQLNonNull(GraphQLString) },
      password: { type: new GraphQLNonNull(GraphQLString) },
      passwordConfirmation: { type: new GraphQLNonNull(GraphQLString) },
    },
    extensions: needs({ action: 'plugin::users-permissions.auth.changePassword' }),
    resolve: async (_r, args, context) => {
      const auth = authService(host);
      refuseReplaced(auth, 'auth.changePassword', 'changePassword');
      await attempt(auth, 'changePassword', context.request);
      const caller = await host.access.caller(context.request);
      // Strapi's action, for a caller its role lets through without a user (an API token).
      if (caller.kind !== 'user') throw new ApplicationError('You must be authenticated to reset your password');
      // As Strapi's mutation: the payload has the new (access) token and the user; a refresh token has no field.
      const { refreshToken: _refresh, ...answer } = await auth.changePassword(caller.userId!, { ...args });
      return answer;
    },
  };
  const passwordPayload = new GraphQLObjectType({ name: 'UsersPermissionsPasswordPayload', fields: { ok: { type: new GraphQLNonNull(GraphQLBoolean) } } });
  mutation.forgotPassword = {
    type: passwordPayload,
    description: 'Request a reset password token',
    args: { email: { type: new GraphQLNonNull(GraphQLString) } },
    extensions: needs({ public: true }),
    resolve: async (_r, args, context) => {
      const auth = authService(host);
      refuseReplaced(auth, 'auth.forgotPassword', 'forgotPassword');
      await attempt(auth, 'forgotPassword', context.request, args);
      return auth.forgotPassword({ ...args });
    },
  };
  mutation.resetPassword = {
    type: payload,
    description: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
    args: {
      password: { type: new GraphQLNonNull(GraphQLString) },
      passwordConfirmation: { type: new GraphQLNonNull(GraphQLString) },
      code: { type: new GraphQLNonNull(GraphQLString) },
    },
    extensions: needs({ public: true }),
    resolve: async (_r, args, context) => {
      const auth = authService(host);
      refuseReplaced(auth, 'auth.resetPassword', 'resetPassword');
      await attempt(auth, 'resetPassword', context.request);
      // As Strapi's mutation: the payload has the new (access) token and the user; a refresh token has no field.
      const { refreshToken: _refresh, ...answer } = await auth.resetPassword({ ...args });
      return answer;
    },
  };
  mutation.emailConfirmation = {
    type: payload,
    description: 'Confirm an email users email address',
    args: { confirmation: { type: new GraphQLNonNull(GraphQLString) } },
    extensions: needs({ public: true }),
    resolve: async (_r, args) => {
      const auth = authService(host);
      refuseReplaced(auth, 'auth.emailConfirmation', 'emailConfirmation');
      return auth.confirmEmailForToken({ ...args });
    },
  };
  query.me = {
    type: me,
    extensions: needs({ authenticated: true }),
    resolve: async (_r, _a, context) => {
      const caller = await host.access.caller(context.request);
      // No credentials: forbidden, as the reference answers; an API token is a credential without a user.
      if (caller.kind === 'public') throw new ForbiddenError();
      if (caller.kind !== 'user') throw new ApplicationError('Authentication requested');
      return authService(host).me(caller.userId!);
    },
  };
}

/** What the "refresh" mode's session records of the client (Strapi's mutations run its controller on the request). */
function clientOf(request: FastifyRequest): LoginClient {
  const agent = request.headers['user-agent'];
  return { userAgent: typeof agent === 'string' ? agent : undefined };
}

/**
 * Strapi's `register` and `login` mutations run the plugin's auth controller: where the app's strapi-server replaced
 * the action, Cairn, which runs the app's action on REST only, refuses rather than answer without it.
 */
const REST_ROUTES = {
  login: 'POST /api/auth/local',
  register: 'POST /api/auth/local/register',
  changePassword: 'POST /api/auth/change-password',
  forgotPassword: 'POST /api/auth/forgot-password',
  resetPassword: 'POST /api/auth/reset-password',
  emailConfirmation: 'GET /api/auth/email-confirmation',
};

function refuseReplaced(auth: AuthService, handler: string, mutation: keyof typeof REST_ROUTES): void {
  if (auth.replacedByApp.has(handler)) {
    throw new ApplicationError(`${mutation} is not available through GraphQL: the app's strapi-server replaces ${handler}, which Cairn runs on its REST route only (${REST_ROUTES[mutation]})`);
  }
}
