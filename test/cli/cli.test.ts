import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { writeApp } from '../helpers/app.js';

const root = join(import.meta.dirname, '..', '..');
const bin = join(root, 'bin', 'cairn.js');

beforeAll(() => {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
});

it('--help lists the commands; --version prints the version', () => {
  const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  for (const command of ['start', 'develop', 'token', 'permissions']) expect(help.stdout).toContain(command);
  expect(spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' }).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
});

it('a bad app folder or a bad model exits 1 with one clear line', () => {
  const missing = spawnSync(process.execPath, [bin, 'start', '--dir', '/nonexistent/app'], { encoding: 'utf8' });
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(/^cairn: .*does not exist\n$/);
  const dir = writeApp({ contentTypes: { bad: { kind: 'collectionType', info: { singularName: 'bad', pluralName: 'bads', displayName: 'Bad' }, attributes: { x: { type: 'nope' } } } } });
  const bad = spawnSync(process.execPath, [bin, 'start', '--dir', dir], { encoding: 'utf8' });
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('attribute "x"');
  expect(bad.stderr).toContain('unknown attribute type "nope"');
});

it('start serves the app; SIGTERM lets an in-flight request finish, then exits 0', async () => {
  const dir = writeApp({
    contentTypes: { note: { kind: 'collectionType', collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' }, attributes: { title: { type: 'string' } } } },
    config: { permissions: { roles: { public: { permissions: ['api::note.note.find'] } } }, server: { port: 14811 } },
    // A slow request: the bootstrap adds a route that answers after 500 ms.
    index: `module.exports = { bootstrap({ cairn }) { cairn.fastify.get('/slow', async () => { await new Promise((r) => setTimeout(r, 500)); return { done: true }; }); } };`,
  });
  const child = spawn(process.execPath, [bin, 'start', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  for (let i = 0; i < 200 && !out.includes('ready'); i++) await new Promise((r) => setTimeout(r, 50));
  expect(out).toContain('Cairn is ready: http://127.0.0.1:14811');
  expect((await fetch('http://127.0.0.1:14811/api/notes')).status).toBe(200);
  const slow = fetch('http://127.0.0.1:14811/slow').then((r) => r.json());
  await new Promise((r) => setTimeout(r, 100));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  expect(await slow).toEqual({ done: true });
  expect(await exited).toBe(0);
}, 30_000);
