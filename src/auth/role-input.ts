import { ValidationError, type FieldError } from '../errors/index.js';

/**
 * The `role` of a user written through the users administration (`POST /users`, `PUT /users/:id`), checked as
 * Strapi 5.54's users-permissions checks it (`controllers/validation/user.js`, yup): a role's id or documentId, or
 * relation operations whose entries each name a role by `id` or `documentId`. A user keeps a role: a create must
 * connect one, an update may not disconnect its role without connecting another, and `null` is refused. Messages,
 * paths and values are Strapi's; several errors are one ValidationError, as yup gathers them.
 */
export function checkRoleOnCreate(role: unknown): void {
  const errors: FieldError[] = [];
  if (isObject(role)) {
    if (role.connect === undefined) errors.push({ path: ['role', 'connect'], message: 'role.connect is a required field', name: 'ValidationError' });
    else {
      entryErrors(role, 'connect', errors);
      if (Array.isArray(role.connect) && role.connect.length < 1) errors.push(error(['role', 'connect'], 'Users must have a role', role.connect));
    }
  } else idErrors(role, errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
}

export function checkRoleOnUpdate(role: unknown): void {
  const errors: FieldError[] = [];
  if (role === null || (typeof role === 'object' && !isObject(role))) errors.push(error(['role'], typeError('role', 'object', role), role));
  else if (isObject(role)) {
    entryErrors(role, 'connect', errors);
    entryErrors(role, 'disconnect', errors);
    const connect = Array.isArray(role.connect) ? role.connect : [];
    if (Array.isArray(role.disconnect) && role.disconnect.length > 0 && connect.length === 0) errors.push(error(['role', 'disconnect'], 'Cannot remove role', role.disconnect));
  } else idErrors(role, errors);
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
}

/** The entries of `role[list]`: each an object naming a role by `id` or `documentId`. */
function entryErrors(role: Record<string, unknown>, list: 'connect' | 'disconnect', errors: FieldError[]): void {
  const entries = role[list];
  if (entries === undefined) return;
  if (!Array.isArray(entries)) {
    errors.push(error(['role', list], typeError(`role.${list}`, 'array', entries), entries));
    return;
  }
  entries.forEach((entry, i) => {
    const path = ['role', list, String(i)];
    if (!isObject(entry)) errors.push(error(path, typeError(`role.${list}[${i}]`, 'object', entry), entry));
    else if (entry.id == null && entry.documentId == null) errors.push(error(path, 'Relation entry must include an id or documentId', entry));
    else for (const key of ['id', 'documentId'] as const) if (entry[key] != null && !isStrapiId(entry[key])) errors.push(error([...path, key], typeError(`role.${list}[${i}].${key}`, 'strapiID', entry[key]), entry[key]));
  });
}

function idErrors(role: unknown, errors: FieldError[]): void {
  if (!isStrapiId(role)) errors.push(error(['role'], typeError('role', 'strapiID', role), role));
}

/** yup's `strapiID`: a string or an integer. */
const isStrapiId = (value: unknown): boolean => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const error = (path: string[], message: string, value: unknown): FieldError => ({ path, message, name: 'ValidationError', value });

/** yup's type error: `role must be a \`object\` type, but the final value was: \`null\`.` */
const typeError = (path: string, type: string, value: unknown): string => `${path} must be a \`${type}\` type, but the final value was: \`${JSON.stringify(value)}\`.`;
