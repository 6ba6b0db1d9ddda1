import { ValidationError, type FieldError } from '../errors/index.js';

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The input of an auth action (a request body, a GraphQL input): a JSON object, or a 400. */
export function inputObject(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new ValidationError('The request body must be a JSON object');
  return input as Record<string, unknown>;
}

/** Auth inputs are scalar-typed: an operator object where a string belongs is a 400, never a query. */
export function stringField(input: Record<string, unknown>, key: string, errors: FieldError[]): string {
  const value = input[key];
  if (typeof value !== 'string') {
    errors.push({ path: [key], message: `${key} must be a \`string\` type`, name: 'ValidationError', value: value ?? null });
    return '';
  }
  return value;
}

/** The rules of a new user's username, email and password, as field errors. */
export function checkCredentials(username: string, email: string, password: string, minPassword: number, errors: FieldError[]): void {
  if (username.length < 3) errors.push({ path: ['username'], message: 'username must be at least 3 characters', name: 'ValidationError', value: username });
  if (!EMAIL.test(email)) errors.push({ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email });
  if (password.length < minPassword) errors.push({ path: ['password'], message: `password must be at least ${minPassword} characters`, name: 'ValidationError', value: password });
  const tooLong = passwordTooLong(password);
  if (tooLong) errors.push(tooLong);
}

/**
 * bcrypt reads 72 bytes: a longer password would be silently truncated. Strapi 5.54's users-permissions refuses it on
 * register, reset and change, with this message.
 */
export function passwordTooLong(password: string): FieldError | undefined {
  if (Buffer.byteLength(password) <= 72) return undefined;
  return { path: ['password'], message: 'Password must be less than 73 bytes', name: 'ValidationError', value: null };
}
