import type { Database } from '../types.js';
import { documentLockKey } from '../document-locks.js';
import { insertRow, newRowColumns } from './rows.js';

/**
 * Strapi's media library files what its Content API uploads into one folder, "API Uploads" (`@strapi/upload`
 * `api-upload-folder.js`): its id is kept in the core store (`plugin_upload_api-folder`), and the folder is made on
 * the first upload when that id names none: a root folder named "API Uploads" (or "API Uploads (1)"... when the name
 * is taken), `path_id` the largest + 1, `path` `/<path_id>`. Each file gets a `files_folder_lnk` row (last in the
 * folder) and the folder's path in `files.folder_path`, which is how Strapi's admin lists a folder's files.
 */
export interface UploadFolder {
  id: number;
  path: string;
}

const STORE_KEY = 'plugin_upload_api-folder';
const BASE_NAME = 'API Uploads';

/** The API uploads folder, made when missing; concurrent first uploads make one (a lock held to the end). */
export async function apiUploadFolder(db: Database, now = new Date()): Promise<UploadFolder> {
  return db.transaction(async (trx) => {
    await trx.lock([documentLockKey('plugin::upload.folder', 'api-folder')]);
    const [k, v] = [trx.quote('key'), trx.quote('value')];
    const [stored] = await trx.query<{ value: unknown }>(`SELECT ${v} AS value FROM strapi_core_store_settings WHERE ${k} = ?`, [STORE_KEY]);
    const storedId = folderIdOf(stored?.value);
    if (storedId !== undefined) {
      const [folder] = await trx.query<{ id: number | string; path: string | null }>('SELECT id, path FROM upload_folders WHERE id = ?', [storedId]);
      if (folder) return { id: Number(folder.id), path: String(folder.path ?? '') };
    }
    const roots = await trx.query<{ name: string | null }>(
      'SELECT f.name FROM upload_folders f WHERE NOT EXISTS (SELECT 1 FROM upload_folders_parent_lnk p WHERE p.folder_id = f.id)',
    );
    const taken = new Set(roots.map((r) => r.name));
    let name = BASE_NAME;
    for (let i = 1; taken.has(name); i++) name = `${BASE_NAME} (${i})`;
    const [max] = await trx.query<{ m: number | string | null }>('SELECT MAX(path_id) AS m FROM upload_folders');
    const pathId = Number(max?.m ?? 0) + 1;
    const path = `/${pathId}`;
    const id = await insertRow(trx, 'upload_folders', { ...newRowColumns(trx.dialect, now), name, path_id: pathId, path });
    const value = JSON.stringify({ id });
    if (stored) await trx.execute(`UPDATE strapi_core_store_settings SET ${v} = ? WHERE ${k} = ?`, [value, STORE_KEY]);
    else await trx.execute(`INSERT INTO strapi_core_store_settings (${k}, ${v}, type, environment, tag) VALUES (?, ?, 'object', NULL, NULL)`, [STORE_KEY, value]);
    return { id, path };
  });
}

/** Files the file of `fileDocumentId` last in `folder` (its `files_folder_lnk` row; the caller set its folder_path). */
export async function fileIntoFolder(db: Database, fileDocumentId: string, folder: UploadFolder): Promise<void> {
  // The folder id is an integer read from the database: written as a literal, as PostgreSQL cannot type a parameter
  // in a SELECT list.
  const folderId = Math.trunc(Number(folder.id));
  await db.execute(
    'INSERT INTO files_folder_lnk (file_id, folder_id, file_ord) ' +
      `SELECT f.id, ${folderId}, COALESCE((SELECT MAX(l.file_ord) FROM files_folder_lnk l WHERE l.folder_id = ?), 0) + 1 FROM files f WHERE f.document_id = ?`,
    [folderId, fileDocumentId],
  );
}

/** The core store keeps `{"id": n}` as JSON text (drivers may hand it back parsed). */
function folderIdOf(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  try {
    const parsed = (typeof value === 'string' ? JSON.parse(value) : value) as { id?: unknown };
    const id = Number(parsed?.id);
    return Number.isInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}
