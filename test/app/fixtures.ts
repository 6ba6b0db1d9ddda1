import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const created: string[] = [];

/** Writes files (path relative to a new temp folder -> text) and returns the folder (removeFolders() deletes them). */
export function folder(files: Record<string, string>, prefix = 'cairn-config-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Runs `fn` with environment variables set, restoring them afterwards. */
export async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/**
 * An app folder with one content-type readable by the public role, and two extra routes: `/slow` (answers after
 * 400 ms: a request in flight at shutdown) and `/pid` (which process answered: cluster tests).
 */
export function noteApp(server: Record<string, unknown> = {}): string {
  const schema = { kind: 'collectionType', collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, attributes: { title: { type: 'string' } } };
  return folder(
    {
      'package.json': '{ "type": "commonjs" }',
      'src/api/note/content-types/note/schema.json': JSON.stringify(schema),
      'config/permissions.json': JSON.stringify({ roles: { public: { permissions: ['api::note.note.find'] } } }),
      'config/server.json': JSON.stringify(server),
      // Routes in register(): it runs in every process, where bootstrap() runs once per start (not in cluster workers).
      'src/index.js': `module.exports = { register({ cairn }) {
        cairn.fastify.get('/slow', async () => { await new Promise((r) => setTimeout(r, 400)); return { done: true }; });
        cairn.fastify.get('/pid', async () => ({ pid: process.pid }));
      } };`,
    },
    'cairn-app-',
  );
}

/** Deletes every folder `folder()` made in this test file (call it in afterAll). */
export function removeFolders(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
