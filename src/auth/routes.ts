import bcrypt from 'bcryptjs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Cairn } from '../app/cairn.js';
import { authorize, findAction, type Caller } from './access-control.js';
import { ApplicationError, ForbiddenError, NotFoundError, ValidationError, type FieldError } from '../errors/index.js';
import { parseQueryString, parseReadParams, strictQuery } from '../query/index.js';
import type { JwtService } from './jwt.js';
import type { Permissions } from './roles.js';

export const USER_UID = 'plugin::users-permissions.user';
const ACTION = 'plugin::users-permissions.user';
const JSON_TYPE = 'application/json; charset=utf-8';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface AuthRouteOptions {
  jwt: JwtService;
  permissions: Permissions;
  registerEnabled: boolean;
  /** Extra user attributes `register` accepts besides username, email, password. */
  allowedFields: string[];
  minPasswordLength: number;
  /** Per-route rate limit of login/register/password routes: requests per window, per client address. */
  rateLimit: { max: number; timeWindow: number };
}

/** Auth bodies are scalar-typed: an operator object where a string belongs is a 400, never a query. */
function stringField(body: Record<string, unknown>, key: string, errors: FieldError[]): string {
  const value = body[key];
  if (typeof value !== 'string') {
    errors.push({ path: [key], message: `${key} must be a \`string\` type`, name: 'ValidationError', value: value ?? null });
    return '';
  }
  return value;
}

function bodyOf(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function registerAuthRoutes(app: FastifyInstance, cairn: Cairn, options: AuthRouteOptions): void {
  const users = () => cairn.documents(USER_UID);
  const limited = { config: { rateLimit: options.rateLimit } };
  const answer = async (userId: number) => {
    const user = await userById(cairn, userId);
    return { jwt: await options.jwt.issue(userId), user };
  };

  app.post('/api/auth/local/register', limited, async (req, reply) => {
    strictQuery(req.url);
    if (!options.registerEnabled) throw new ForbiddenError('Register action is currently disabled');
    const body = bodyOf(req);
    const extra = Object.keys(body).filter((k) => !['username', 'email', 'password', ...options.allowedFields].includes(k));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    const { username, email, password } = await newCredentials(cairn, body, options.minPasswordLength);
    const roleId = await options.permissions.ensureRole('authenticated', 'Authenticated');
    const extras = Object.fromEntries(options.allowedFields.filter((k) => k in body).map((k) => [k, body[k]]));
    const documentId = await users().createDocument({
      data: { ...extras, username, email, password: await bcrypt.hash(password, 10), provider: 'local', confirmed: true, blocked: false, role: roleId },
    });
    const [row] = await cairn.db.query<{ id: number }>('SELECT id FROM up_users WHERE document_id = ?', [documentId]);
    return reply.type(JSON_TYPE).send(JSON.stringify(await answer(Number(row.id))));
  });

  app.post('/api/auth/local', limited, async (req, reply) => {
    strictQuery(req.url);
    const body = bodyOf(req);
    const errors: FieldError[] = [];
    const identifier = stringField(body, 'identifier', errors);
    const password = stringField(body, 'password', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const rows = await cairn.db.query<{ id: number; password: string | null; blocked: unknown }>(
      'SELECT id, password, blocked FROM up_users WHERE email = ? OR username = ? ORDER BY id LIMIT 1',
      [identifier.toLowerCase(), identifier],
    );
    const user = rows[0];
    // Compare even when the user is unknown, so timing doesn't tell which identifiers exist.
    const ok = await bcrypt.compare(password, user?.password ?? '$2a$10$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva');
    if (!user || !ok) throw new ValidationError('Invalid identifier or password');
    if (user.blocked === true || user.blocked === 1) throw new ApplicationError('Your account has been blocked by an administrator');
    return reply.type(JSON_TYPE).send(JSON.stringify(await answer(Number(user.id))));
  });

  app.post('/api/auth/change-password', limited, async (req, reply) => {
    const caller = await cairn.access.caller(req);
    if (caller.kind !== 'user') throw new ForbiddenError();
    strictQuery(req.url);
    const body = bodyOf(req);
    const errors: FieldError[] = [];
    const current = stringField(body, 'currentPassword', errors);
    const password = stringField(body, 'password', errors);
    const confirmation = stringField(body, 'passwordConfirmation', errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    if (password !== confirmation) throw new ValidationError('Passwords do not match');
    if (password.length < options.minPasswordLength) throw new ValidationError(`password must be at least ${options.minPasswordLength} characters`);
    const [row] = await cairn.db.query<{ password: string }>('SELECT password FROM up_users WHERE id = ?', [caller.userId]);
    if (!row || !(await bcrypt.compare(current, row.password ?? ''))) throw new ValidationError('The provided current password is invalid');
    if (await bcrypt.compare(password, row.password)) throw new ValidationError('Your new password must be different than your current password');
    await cairn.db.execute('UPDATE up_users SET password = ? WHERE id = ?', [await bcrypt.hash(password, 10), caller.userId]);
    return reply.type(JSON_TYPE).send(JSON.stringify(await answer(caller.userId!)));
  });

  app.get('/api/users/me', async (req, reply) => {
    const caller = await cairn.access.caller(req);
    if (caller.kind !== 'user') throw new ForbiddenError();
    return reply.type(JSON_TYPE).send(await readUser(cairn, req, caller, caller.userId!));
  });

  app.get('/api/users', async (req, reply) => {
    const caller = await authorize(cairn.access, req, `${ACTION}.find`);
    const spec = parseReadParams(cairn.model, cairn.model.contentTypes.get(USER_UID)!, queryOf(req), {
      ...cairn.config.api.rest,
      locales: cairn.locales.map((l) => l.code),
      defaultLocale: cairn.defaultLocale,
      canFind: (uid) => caller.can(findAction(uid)),
    });
    const page = await users().findPage(spec);
    return reply.type(JSON_TYPE).send(`[${page.rows.join(',')}]`);
  });

  app.get('/api/users/:id', async (req, reply) => {
    const caller = await authorize(cairn.access, req, `${ACTION}.findOne`);
    return reply.type(JSON_TYPE).send(await readUser(cairn, req, caller, numericId(req)));
  });

  app.post('/api/users', async (req, reply) => {
    await authorize(cairn.access, req, `${ACTION}.create`);
    strictQuery(req.url);
    const body = bodyOf(req);
    const { username, email, password } = await newCredentials(cairn, body, options.minPasswordLength);
    const { role, confirmed, blocked } = body;
    const roleId = typeof role === 'string' ? role : await options.permissions.ensureRole('authenticated', 'Authenticated');
    const documentId = await users().createDocument({
      data: { username, email, password: await bcrypt.hash(password, 10), provider: 'local', confirmed: confirmed ?? true, blocked: blocked ?? false, role: roleId },
    });
    const [row] = await cairn.db.query<{ id: number }>('SELECT id FROM up_users WHERE document_id = ?', [documentId]);
    return reply.status(201).type(JSON_TYPE).send(JSON.stringify(await userById(cairn, Number(row.id))));
  });

  app.put('/api/users/:id', async (req, reply) => {
    await authorize(cairn.access, req, `${ACTION}.update`);
    strictQuery(req.url);
    const user = await userById(cairn, numericId(req));
    const body = bodyOf(req);
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(body)) {
      if (!['username', 'email', 'password', 'confirmed', 'blocked', 'role'].includes(key)) throw new ValidationError(`Invalid key ${key}`);
      if (key === 'password') {
        if (typeof value !== 'string' || value.length < options.minPasswordLength) throw new ValidationError(`password must be at least ${options.minPasswordLength} characters`);
        data.password = await bcrypt.hash(value, 10);
      } else if (key === 'email') {
        if (typeof value !== 'string' || !EMAIL.test(value)) throw new ValidationError('email must be a valid email');
        data.email = value.toLowerCase();
      } else data[key] = value;
    }
    await users().updateDocument({ documentId: user.documentId as string, data });
    return reply.type(JSON_TYPE).send(JSON.stringify(await userById(cairn, user.id as number)));
  });

  app.delete('/api/users/:id', async (req, reply) => {
    await authorize(cairn.access, req, `${ACTION}.destroy`);
    strictQuery(req.url);
    const user = await userById(cairn, numericId(req));
    await users().delete({ documentId: user.documentId as string });
    return reply.type(JSON_TYPE).send(JSON.stringify(user));
  });
}

/** username, email (lower-cased) and password of a new user: checked, and not taken by another user. */
async function newCredentials(cairn: Cairn, body: Record<string, unknown>, minPasswordLength: number) {
  const errors: FieldError[] = [];
  const username = stringField(body, 'username', errors);
  const email = stringField(body, 'email', errors).toLowerCase();
  const password = stringField(body, 'password', errors);
  if (!errors.length) checkCredentials(username, email, password, minPasswordLength, errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  const taken = await cairn.db.query('SELECT id FROM up_users WHERE email = ? OR username = ? LIMIT 1', [email, username]);
  if (taken.length) throw new ApplicationError('Email or Username are already taken');
  return { username, email, password };
}

function checkCredentials(username: string, email: string, password: string, minPassword: number, errors: FieldError[]) {
  if (username.length < 3) errors.push({ path: ['username'], message: 'username must be at least 3 characters', name: 'ValidationError', value: username });
  if (!EMAIL.test(email)) errors.push({ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email });
  if (password.length < minPassword) errors.push({ path: ['password'], message: `password must be at least ${minPassword} characters`, name: 'ValidationError', value: password });
  // bcrypt reads 72 bytes: a longer password would be silently truncated.
  if (Buffer.byteLength(password) > 72) errors.push({ path: ['password'], message: 'password must be at most 72 bytes', name: 'ValidationError', value: null });
}

function queryOf(req: FastifyRequest): Record<string, unknown> {
  const url = req.raw.url ?? '';
  return url.includes('?') ? parseQueryString(url.slice(url.indexOf('?') + 1)) : {};
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
async function readUser(cairn: Cairn, req: FastifyRequest, caller: Caller, id: number): Promise<string> {
  const query = strictQuery(req.url, ['fields', 'populate']);
  const user = await userById(cairn, id);
  if (!Object.keys(query).length) return JSON.stringify(user);
  const spec = parseReadParams(cairn.model, cairn.model.contentTypes.get(USER_UID)!, query, {
    ...cairn.config.api.rest,
    locales: cairn.locales.map((l) => l.code),
    defaultLocale: cairn.defaultLocale,
    canFind: (uid) => caller.can(findAction(uid)),
  });
  const text = await cairn.documents(USER_UID).findOneJson(spec, user.documentId as string);
  if (text === null) throw new NotFoundError();
  return text;
}

async function userById(cairn: Cairn, id: number): Promise<Record<string, unknown>> {
  const result = await cairn.documents(USER_UID).findMany({ filters: { id: { $eq: id } }, pagination: { page: 1, pageSize: 1 } });
  if (!result.results.length) throw new NotFoundError();
  return result.results[0];
}
