import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchApp } from '../../src/cli/watch.js';
import { folder } from '../app/fixtures.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

/** Watches an app folder the way `cairn develop` does and records each reported batch. */
async function watched(perFolder: boolean) {
  const dir = folder({ 'config/server.json': '{}', 'src/api/a/content-types/a/schema.json': '{}', 'other/x.txt': '' });
  const batches: string[][] = [];
  const watcher = watchApp({ root: dir, trees: [join(dir, 'config'), join(dir, 'src')], files: [join(dir, '.env')], debounceMs: 100, perFolder }, (paths) => batches.push(paths.sort()));
  closers.push(() => {
    watcher.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await pause(100); // let the watchers settle
  return { dir, batches };
}

for (const perFolder of [false, true]) {
  describe(perFolder ? 'one watcher per folder (platforms without recursive fs.watch)' : 'recursive fs.watch', () => {
    it('reports changes under config/ and src/, debounced into one batch', async () => {
      const { dir, batches } = await watched(perFolder);
      writeFileSync(join(dir, 'config/server.json'), '{ "port": 1 }');
      writeFileSync(join(dir, 'src/api/a/content-types/a/schema.json'), '{ "kind": "x" }');
      await pause(400);
      expect(batches).toHaveLength(1);
      expect(batches[0]).toEqual(expect.arrayContaining(['config/server.json', 'src/api/a/content-types/a/schema.json']));
    });

    it('sees new folders and files in them', async () => {
      const { dir, batches } = await watched(perFolder);
      mkdirSync(join(dir, 'src/api/b/content-types/b'), { recursive: true });
      await pause(300);
      writeFileSync(join(dir, 'src/api/b/content-types/b/schema.json'), '{}');
      await pause(400);
      expect(batches.flat()).toContain('src/api/b/content-types/b/schema.json');
    });

    it('sees .env created later and saved by rename; ignores other folders and editor swap files', async () => {
      const { dir, batches } = await watched(perFolder);
      writeFileSync(join(dir, 'other/x.txt'), 'changed');
      writeFileSync(join(dir, 'config/.server.json.swp'), 'swap');
      writeFileSync(join(dir, 'config/server.json~'), 'backup');
      await pause(400);
      expect(batches).toEqual([]);
      writeFileSync(join(dir, '.env'), 'A=1');
      await pause(400);
      expect(batches.flat()).toContain('.env');
      writeFileSync(join(dir, '.env.tmp-save'), 'A=2');
      renameSync(join(dir, '.env.tmp-save'), join(dir, '.env'));
      await pause(400);
      expect(batches.length).toBeGreaterThanOrEqual(2);
      expect(batches.at(-1)).toContain('.env');
    });
  });
}
