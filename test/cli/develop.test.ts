import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { noteApp } from '../app/fixtures.js';
import { ensureBuilt, freePort, spawnCairn } from './build.js';

beforeAll(ensureBuilt);
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it('develop restarts the app when a model or config changes, waits out a broken change, and stops on SIGTERM', async () => {
  const port = await freePort();
  const dir = noteApp({ port });
  dirs.push(dir);
  const proc = spawnCairn(['develop', '--dir', dir]);
  try {
    await proc.waitFor('REST API');
    expect((await fetch(`http://127.0.0.1:${port}/api/tags`)).status).toBe(404);

    // A new content-type (readable by the public role): the restarted app serves it.
    const schema = { kind: 'collectionType', collectionName: 'tags', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' }, attributes: { name: { type: 'string' } } };
    mkdirSync(join(dir, 'src/api/tag/content-types/tag'), { recursive: true });
    writeFileSync(join(dir, 'src/api/tag/content-types/tag/schema.json'), JSON.stringify(schema));
    writeFileSync(join(dir, 'config/permissions.json'), JSON.stringify({ roles: { public: { permissions: ['api::note.note.find', 'api::tag.tag.find'] } } }));
    await proc.waitFor(/changed: .*restarting[\s\S]*Cairn is ready/);
    expect(proc.output).toMatch(/changed: .*(src\/api\/tag\/content-types\/tag\/schema\.json|config\/permissions\.json)/);
    expect(proc.output).not.toMatch(/changed: src\/api\/tag,/); // folders alone are not changes
    expect(await statusSoon(`http://127.0.0.1:${port}/api/tags`, 200)).toBe(200);

    // A broken config stops the app with its one-line error; develop keeps watching and recovers on the fix.
    const before = proc.output.length;
    writeFileSync(join(dir, 'config/server.json'), `{ "port": ${port}, }`);
    await proc.waitFor(/config\/server\.json: .*JSON[\s\S]*waiting for a change/);
    expect(proc.output.slice(before)).not.toMatch(/\n\s+at /); // no stack trace
    writeFileSync(join(dir, 'config/server.json'), JSON.stringify({ port }));
    await proc.waitFor(/waiting for a change[\s\S]*Cairn is ready/);
    expect(await statusSoon(`http://127.0.0.1:${port}/api/notes`, 200)).toBe(200);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/api/notes`)).rejects.toThrow(); // the app went with it
  } finally {
    proc.kill();
  }
}, 60_000);

it('Ctrl-C in a terminal (SIGINT to the whole process group) still lets in-flight requests finish', async () => {
  const port = await freePort();
  const dir = noteApp({ port });
  dirs.push(dir);
  const proc = spawnCairn(['develop', '--dir', dir], {}, { detached: true });
  try {
    await proc.waitFor('REST API');
    const slow = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.json());
    await new Promise((r) => setTimeout(r, 100));
    process.kill(-proc.child.pid!, 'SIGINT'); // develop and its app both get it; develop also sends SIGTERM
    expect(await slow).toEqual({ done: true });
    expect(await proc.exited).toBe(0);
  } finally {
    proc.kill();
  }
}, 30_000);

/** The status `url` answers once it answers `wanted` (or the last one after 10 s): edits may come in two batches. */
async function statusSoon(url: string, wanted: number): Promise<number | undefined> {
  let status: number | undefined;
  for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((r) => setTimeout(r, 50))) {
    status = await fetch(url).then((r) => r.status, () => undefined);
    if (status === wanted) break;
  }
  return status;
}
