import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authorize, findAction, type Caller } from './access-control.js';
import { ForbiddenError, NotFoundError, RateLimitError } from '../errors/index.js';
import { parseReadParams } from '../query/index.js';
import { USER_UID, type AuthService } from './auth-service.js';
import type { AttemptLimit } from './attempts.js';
import type { AuthHost } from './host.js';

const ACTION = 'plugin::users-permissions.user';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Users & permissions' REST routes: the auth actions (register, login, change-password), `/users/me` and the users
 * administration. HTTP only: who calls, the query string, the status; the rest is the auth service's.
 */
export function registerAuthRoutes(app: FastifyInstance, host: AuthHost, auth: AuthService): void {
  const send = (reply: FastifyReply, value: unknown) => reply.type(JSON_TYPE).send(JSON.stringify(value));

  app.post('/api/auth/local/register', { onRequest: limited(auth.attempts.register) }, async (req, reply) => {
    host.queryString.strictOf(req);
    return send(reply, await auth.register(req.body));
  });

  app.post('/api/auth/local', { onRequest: limited(auth.attempts.login) }, async (req, reply) => {
    host.queryString.strictOf(req);
    return send(reply, await auth.login(req.body));
  });

  app.post('/api/auth/change-password', { onRequest: limited(auth.attempts.changePassword) }, async (req, reply) => {
    const caller = await host.access.caller(req);
    if (caller.kind !== 'user') throw new ForbiddenError();
    host.queryString.strictOf(req);
    return send(reply, await auth.changePassword(caller.userId!, req.body));
  });

  app.get('/api/users/me', async (req, reply) => {
    const caller = await host.access.caller(req);
    if (caller.kind !== 'user') throw new ForbiddenError();
    return reply.type(JSON_TYPE).send(await readUser(host, auth, req, caller, caller.userId!));
  });

  app.get('/api/users', async (req, reply) => {
    const caller = await authorize(host.access, req, `${ACTION}.find`);
    const spec = parseReadParams(host.model, host.model.contentTypes.get(USER_UID)!, host.queryString.ofRequest(req), readOptions(host, caller));
    const page = await host.documents(USER_UID).findPage(spec);
    return reply.type(JSON_TYPE).send(`[${page.rows.join(',')}]`);
  });

  app.get('/api/users/:id', async (req, reply) => {
    const caller = await authorize(host.access, req, `${ACTION}.findOne`);
    return reply.type(JSON_TYPE).send(await readUser(host, auth, req, caller, numericId(req)));
  });

  app.post('/api/users', async (req, reply) => {
    await authorize(host.access, req, `${ACTION}.create`);
    host.queryString.strictOf(req);
    return send(reply.status(201), await auth.createUser(req.body));
  });

  app.put('/api/users/:id', async (req, reply) => {
    await authorize(host.access, req, `${ACTION}.update`);
    host.queryString.strictOf(req);
    return send(reply, await auth.updateUser(numericId(req), req.body));
  });

  app.delete('/api/users/:id', async (req, reply) => {
    await authorize(host.access, req, `${ACTION}.destroy`);
    host.queryString.strictOf(req);
    return send(reply, await auth.deleteUser(numericId(req)));
  });
}

/**
 * Counts the request's attempt, per client address, before its body is read; tells the client its limit as
 * @fastify/rate-limit does (`x-ratelimit-*`, and `retry-after` with the 429).
 */
function limited(attempts: AttemptLimit) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const attempt = await attempts.count(req.ip);
    reply.header('x-ratelimit-limit', attempt.limit);
    reply.header('x-ratelimit-remaining', attempt.remaining);
    reply.header('x-ratelimit-reset', attempt.resetSeconds);
    if (!attempt.exceeded) return;
    reply.header('retry-after', attempt.resetSeconds);
    throw new RateLimitError();
  };
}

function readOptions(host: AuthHost, caller: Caller) {
  return {
    ...host.readSettings,
    canFind: (uid: string) => caller.can(findAction(uid)),
  };
}

function numericId(req: FastifyRequest): number {
  const id = (req.params as { id: string }).id;
  if (!/^\d+$/.test(id)) throw new NotFoundError();
  return Number(id);
}

/**
 * One user as GET /users/me and /users/:id answer it: with `fields` and `populate` as on the Content API (populate
 * leaves out types the caller may not find); any other parameter is a 400.
 */
async function readUser(host: AuthHost, auth: AuthService, req: FastifyRequest, caller: Caller, id: number): Promise<string> {
  const query = host.queryString.strictOf(req, ['fields', 'populate']);
  const user = await auth.user(id);
  if (!Object.keys(query).length) return JSON.stringify(user);
  const spec = parseReadParams(host.model, host.model.contentTypes.get(USER_UID)!, query, readOptions(host, caller));
  const text = await host.documents(USER_UID).findOneJson(spec, user.documentId as string);
  if (text === null) throw new NotFoundError();
  return text;
}
