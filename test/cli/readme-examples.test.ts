import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bin, ensureBuilt, freePort, root, spawnCairn } from './build.js';

beforeAll(ensureBuilt);
const hasCurl = spawnSync('curl', ['--version']).status === 0;
if (!hasCurl) console.warn('skipping the README REST examples: curl is not installed');

let workspace: string;
let server: ReturnType<typeof spawnCairn> | undefined;
afterAll(() => {
  server?.kill();
  if (workspace) rmSync(workspace, { recursive: true, force: true });
});

/** The README's REST API example block, as commands (continuation lines joined) with the statuses their comments promise. */
function restExamples(): Array<{ command: string; status?: number }> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## REST API\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1];
  const commands: Array<{ command: string; status?: number }> = [];
  let promised: number[] = [];
  for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
    if (line.startsWith('#')) promised = [...line.matchAll(/\((\d{3})\)/g)].map((m) => Number(m[1]));
    else if (line.trim()) commands.push({ command: line, status: line.startsWith('curl') ? (promised.shift() ?? 200) : undefined });
  }
  return commands;
}

it.skipIf(!hasCurl)('the README REST examples work as written against the example app (writes carry the token it shows how to make)', async () => {
  // A copy of the example at examples/restaurants of a scratch folder: the commands' --dir is relative to the repository root.
  workspace = mkdtempSync(join(tmpdir(), 'cairn-readme-'));
  const example = join(root, 'examples', 'restaurants');
  const app = join(workspace, 'examples', 'restaurants');
  cpSync(example, app, { recursive: true, filter: (source) => !/^(\.tmp|node_modules|public)(\/|$)/.test(relative(example, source)) });
  const port = await freePort();
  // cli-progress (the seed's progress bar) resolves from Cairn's node_modules through NODE_PATH, as in the repository.
  const env = { NODE_PATH: join(root, 'node_modules') };
  server = spawnCairn(['start', '--dir', app, '--port', String(port)], env);
  await server.waitFor('REST API', 60_000);

  const shell = (command: string, vars: Record<string, string> = {}) =>
    spawnSync('sh', ['-c', command.replaceAll('npx cairn', `"${process.execPath}" "${bin}"`).replaceAll('localhost:1337', `127.0.0.1:${port}`)], {
      cwd: workspace,
      encoding: 'utf8',
      env: { ...process.env, ...env, ...vars },
      timeout: 60_000,
    });
  const examples = restExamples();
  expect(examples.map((e) => e.status)).toEqual([undefined, 201, 200, 200, 200, 200, 204]);
  const vars: Record<string, string> = {};
  const restaurant = JSON.parse(shell(`curl -s 'localhost:1337/api/restaurants?fields[0]=name' -g`).stdout).data[0].documentId as string;
  let chef = '';
  for (const { command, status } of examples) {
    if (status === undefined) {
      // TOKEN=$(...): run it, keep the variable.
      const [name] = command.split('=', 1);
      const made = shell(`${command} && printf %s "$${name}"`);
      expect(made.status, made.stderr).toBe(0);
      vars[name] = made.stdout;
      continue;
    }
    const concrete = command.replace('/api/restaurants/<documentId>', `/api/restaurants/${restaurant}`).replace('/api/chefs/<documentId>', `/api/chefs/${chef}`);
    const result = shell(`${concrete} -sS -w '\\n%{http_code}'`, vars);
    const lines = result.stdout.split('\n');
    expect(Number(lines.pop()), `${command}\n${result.stdout}${result.stderr}`).toBe(status);
    if (status === 201) chef = JSON.parse(lines.join('\n')).data.documentId;
  }
  expect(chef).not.toBe('');
}, 120_000);
