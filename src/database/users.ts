import type { Database } from './types.js';
import { strapiDatetime } from './strapi-layout/rows.js';

/**
 * The users of users & permissions (`up_users`, its role through `up_users_role_lnk` to `up_roles`), as auth reads
 * and writes them beside the document service: credentials and the user with its role, in one statement each.
 * The link joins row ids (`user_id`, `role_id`, `user_ord`).
 */

const USER_WITH_ROLE = 'LEFT JOIN up_users_role_lnk l ON l.user_id = u.id LEFT JOIN up_roles r ON r.id = l.role_id';

/** A user with its role: what a logged-in caller's checks and `me` need (no secrets). */
export type UserWithRole = {
  id: number;
  documentId: string;
  username: string;
  email: string | null;
  provider: string | null;
  confirmed: boolean;
  blocked: boolean;
  role: { id: number; name: string; description: string | null; type: string | null } | null;
};

/** A user's login credentials. */
export interface UserCredentials {
  id: number;
  /** The bcrypt hash; null for a user of another provider. */
  password: string | null;
  blocked: boolean;
  confirmed: boolean;
}

/** A stored boolean as each driver returns it (true, 1, '1'). */
const isTrue = (value: unknown) => value === true || value === 1 || value === '1';

/** The user `id` with its role (null: no such user). */
export async function findUserWithRole(db: Database, id: number): Promise<UserWithRole | null> {
  const [row] = await db.query<Record<string, unknown>>(
    `SELECT u.id, u.document_id AS "documentId", u.username, u.email, u.provider, u.confirmed, u.blocked, r.id AS role_id, r.name AS role_name, r.description AS role_description, r.type AS role_type FROM up_users u ${USER_WITH_ROLE} WHERE u.id = ? ORDER BY r.id LIMIT 1`,
    [id],
  );
  if (!row) return null;
  return {
    id: Number(row.id),
    documentId: row.documentId as string,
    username: row.username as string,
    email: (row.email as string | null) ?? null,
    provider: (row.provider as string | null) ?? null,
    confirmed: isTrue(row.confirmed),
    blocked: isTrue(row.blocked),
    role:
      row.role_id === null || row.role_id === undefined
        ? null
        : { id: Number(row.role_id), name: row.role_name as string, description: (row.role_description as string | null) ?? null, type: (row.role_type as string | null) ?? null },
  };
}

/** The first user (by id) whose email or username is the one given: who logs in, or who holds them already. */
export async function findUserByEmailOrUsername(db: Database, email: string, username: string): Promise<UserCredentials | null> {
  const [row] = await db.query<{ id: number; password: string | null; blocked: unknown; confirmed: unknown }>(
    'SELECT id, password, blocked, confirmed FROM up_users WHERE email = ? OR username = ? ORDER BY id LIMIT 1',
    [email, username],
  );
  return row ? { id: Number(row.id), password: row.password ?? null, blocked: isTrue(row.blocked), confirmed: isTrue(row.confirmed) } : null;
}

/** The first user (by id) with this email (stored lower-case): whom a reset or confirmation email goes to. */
export async function findUserByEmail(db: Database, email: string): Promise<{ id: number; email: string; blocked: boolean; confirmed: boolean } | null> {
  const [row] = await db.query<{ id: number; email: string; blocked: unknown; confirmed: unknown }>('SELECT id, email, blocked, confirmed FROM up_users WHERE email = ? ORDER BY id LIMIT 1', [email]);
  return row ? { id: Number(row.id), email: row.email, blocked: isTrue(row.blocked), confirmed: isTrue(row.confirmed) } : null;
}

/** Stores a reset-password or email-confirmation token of the user's (the one an email is about to carry). */
export async function setUserToken(db: Database, id: number, token: 'reset_password_token' | 'confirmation_token', value: string): Promise<void> {
  await db.execute(`UPDATE up_users SET ${token} = ?, updated_at = ? WHERE id = ?`, [value, strapiDatetime(db.dialect, new Date()), id]);
}

/**
 * Confirms the email of the first user holding the confirmation token `token`: `confirmed` true and the token
 * cleared, in one statement that matches the token again, so a token works once. The user's id; null: none has it.
 */
export async function confirmUserEmail(db: Database, token: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM up_users WHERE confirmation_token = ? ORDER BY id LIMIT 1', [token]);
  if (!row) return null;
  // A literal: SQLite and MySQL store booleans as 1 and 0, PostgreSQL as booleans.
  const yes = db.dialect === 'postgres' ? 'TRUE' : '1';
  const { affectedRows } = await db.execute(`UPDATE up_users SET confirmed = ${yes}, confirmation_token = NULL, updated_at = ? WHERE id = ? AND confirmation_token = ?`, [
    strapiDatetime(db.dialect, new Date()),
    row.id,
    token,
  ]);
  return affectedRows > 0 ? Number(row.id) : null;
}

/**
 * Whether a user holds this email or username as either one (an email taken as a username counts, and the other way
 * round), as Strapi 5.54's register checks it: among the users of `provider` when one is given, else among all.
 */
export async function identityTaken(db: Database, email: string, username: string, provider?: string): Promise<boolean> {
  const [row] = await db.query<{ id: number }>(
    `SELECT id FROM up_users WHERE (email = ? OR username = ? OR username = ? OR email = ?)${provider === undefined ? '' : ' AND provider = ?'} LIMIT 1`,
    [email, email, username, username, ...(provider === undefined ? [] : [provider])],
  );
  return row !== undefined;
}

/** The id of the first user whose `email` or `username` is `value` (null: none). */
export async function findUserIdWith(db: Database, column: 'email' | 'username', value: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>(`SELECT id FROM up_users WHERE ${column} = ? ORDER BY id LIMIT 1`, [value]);
  return row ? Number(row.id) : null;
}

/** The id of the user with this documentId (users have one entry: no locales, no drafts). */
export async function findUserId(db: Database, documentId: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM up_users WHERE document_id = ?', [documentId]);
  return row ? Number(row.id) : null;
}

/** The user's password hash (undefined: no such user). */
export async function findUserPassword(db: Database, id: number): Promise<string | null | undefined> {
  const [row] = await db.query<{ password: string | null }>('SELECT password FROM up_users WHERE id = ?', [id]);
  return row ? (row.password ?? null) : undefined;
}

/** A new password hash; the row's `updated_at` moves too, as when Strapi updates a user. */
export async function setUserPassword(db: Database, id: number, hash: string): Promise<void> {
  await db.execute('UPDATE up_users SET password = ?, updated_at = ? WHERE id = ?', [hash, strapiDatetime(db.dialect, new Date()), id]);
}

/** The id of the first user whose reset-password token is `code` (null: none). */
export async function findUserIdByResetToken(db: Database, code: string): Promise<number | null> {
  const [row] = await db.query<{ id: number }>('SELECT id FROM up_users WHERE reset_password_token = ? ORDER BY id LIMIT 1', [code]);
  return row ? Number(row.id) : null;
}

/**
 * A password reset: the new hash, and the token used cleared, in one statement that matches the token again, so a
 * code works once even when two resets race (false: it was used meanwhile).
 */
export async function resetUserPassword(db: Database, id: number, code: string, hash: string): Promise<boolean> {
  const { affectedRows } = await db.execute('UPDATE up_users SET password = ?, reset_password_token = NULL, updated_at = ? WHERE id = ? AND reset_password_token = ?', [
    hash,
    strapiDatetime(db.dialect, new Date()),
    id,
    code,
  ]);
  return affectedRows > 0;
}
