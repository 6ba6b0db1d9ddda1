import { sqlDialect } from './sql/dialect.js';
import { insertRow, isoDatetime, newRowColumns, strapiDatetime } from './strapi-layout/rows.js';
import type { Database } from './types.js';

/**
 * Login sessions in Strapi's `strapi_sessions` (its `admin::session` type), which Strapi 5.54's session manager
 * keeps for the admin (origin `admin`) and for users-permissions' "refresh" mode (origin `users-permissions`).
 * A refresh token names one row by `session_id`; rotating it marks the row `rotated`, naming its successor in
 * `child_id`. Rows are written as Strapi's Query Engine writes them, so either server reads the other's.
 */
export interface StoredSession {
  sessionId: string;
  /** The user's id, as text (Strapi's column is a string: it serves admin users and content-API users alike). */
  userId: string;
  deviceId: string | null;
  origin: string;
  childId: string | null;
  /** `refresh` (a long-lived family) or `session` (Strapi's admin sessions without "remember me"). */
  type: string;
  /** `active` or `rotated`. */
  status: string;
  metadata: Record<string, unknown> | null;
  /** ISO 8601. */
  expiresAt: string;
  absoluteExpiresAt: string | null;
  createdAt: string | null;
}

export type NewSession = Omit<StoredSession, 'createdAt'>;

const COLUMNS = 'session_id, user_id, device_id, origin, child_id, type, status, metadata, expires_at, absolute_expires_at, created_at';

/** Inserts a session row at `at` (its created_at, which the token's `iat` is taken from); answers it as stored. */
export async function insertSession(db: Database, session: NewSession, at: Date): Promise<StoredSession> {
  const dialect = sqlDialect(db.dialect);
  await insertRow(db, 'strapi_sessions', {
    ...newRowColumns(db.dialect, at),
    session_id: session.sessionId,
    user_id: session.userId,
    device_id: session.deviceId,
    origin: session.origin,
    child_id: session.childId,
    type: session.type,
    status: session.status,
    metadata: dialect.bindValue(session.metadata, 'json'),
    expires_at: strapiDatetime(db.dialect, new Date(session.expiresAt)),
    absolute_expires_at: session.absoluteExpiresAt === null ? null : strapiDatetime(db.dialect, new Date(session.absoluteExpiresAt)),
  });
  return { ...session, createdAt: at.toISOString() };
}

export async function findSession(db: Database, sessionId: string): Promise<StoredSession | null> {
  const [row] = await db.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM strapi_sessions WHERE session_id = ? ORDER BY id LIMIT 1`, [sessionId]);
  return row ? sessionOf(row) : null;
}

/** A user's sessions of one origin with `status`, newest first (Strapi's `createdAt: 'DESC'`). */
export async function findUserSessions(db: Database, userId: string, origin: string, status: string): Promise<StoredSession[]> {
  const rows = await db.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM strapi_sessions WHERE user_id = ? AND origin = ? AND status = ? ORDER BY created_at DESC, id DESC`, [
    userId,
    origin,
    status,
  ]);
  return rows.map(sessionOf);
}

/**
 * Marks `sessionId` rotated to `childId`, if it is still active: false when another request rotated it first (the
 * caller then answers that one's child, as Strapi does for a token refreshed twice).
 */
export async function markSessionRotated(db: Database, sessionId: string, childId: string, at: Date): Promise<boolean> {
  const { affectedRows } = await db.execute("UPDATE strapi_sessions SET status = 'rotated', child_id = ?, updated_at = ? WHERE session_id = ? AND status = 'active' AND child_id IS NULL", [
    childId,
    strapiDatetime(db.dialect, at),
    sessionId,
  ]);
  return affectedRows > 0;
}

export async function deleteSession(db: Database, sessionId: string): Promise<void> {
  await db.execute('DELETE FROM strapi_sessions WHERE session_id = ?', [sessionId]);
}

/** Deletes a user's sessions of one origin: all of them, or those of one device. */
export async function deleteUserSessions(db: Database, userId: string, origin: string, deviceId?: string): Promise<void> {
  const params = [userId, origin, ...(deviceId === undefined ? [] : [deviceId])];
  await db.execute(`DELETE FROM strapi_sessions WHERE user_id = ? AND origin = ?${deviceId === undefined ? '' : ' AND device_id = ?'}`, params);
}

/** Deletes every session (of any origin, as Strapi's cleanup) whose family ended before `now`. */
export async function deleteEndedSessions(db: Database, now: Date): Promise<void> {
  await db.execute('DELETE FROM strapi_sessions WHERE absolute_expires_at < ?', [strapiDatetime(db.dialect, now)]);
}

function sessionOf(row: Record<string, unknown>): StoredSession {
  const metadata = typeof row.metadata === 'string' ? (JSON.parse(row.metadata) as unknown) : row.metadata;
  return {
    sessionId: String(row.session_id),
    userId: String(row.user_id),
    deviceId: (row.device_id as string | null) ?? null,
    origin: String(row.origin),
    childId: (row.child_id as string | null) ?? null,
    type: String(row.type ?? 'refresh'),
    status: String(row.status),
    metadata: metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : null,
    expiresAt: isoDatetime(row.expires_at) ?? new Date(0).toISOString(),
    absoluteExpiresAt: isoDatetime(row.absolute_expires_at),
    createdAt: isoDatetime(row.created_at),
  };
}
