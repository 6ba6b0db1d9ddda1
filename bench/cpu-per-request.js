// What bench/builds.js uses: the read scenarios (bench/rest.js's a-f, GraphQL's (e)), starting a
// build of Cairn on an app folder, seeding it, and the server's CPU time per request on each scenario.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sleep, treeCpuSeconds } from './lib.js';

export const SCENARIOS = {
  a: { path: '/api/articles' },
  b: { path: '/api/articles?populate=*' },
  c: { path: '/api/restaurants?populate[chef][populate][0]=restaurants&populate[categories]=true&populate[address][populate]=*&filters[stars][$gte]=3&sort=name:asc&pagination[pageSize]=100' },
  d: { path: '/api/restaurants?filters[chef][name][$startsWith]=A' },
  e: { path: '/graphql', body: JSON.stringify({ query: '{ articles(pagination: { pageSize: 100 }) { documentId title views rating publishDate author { documentId name } categories { documentId name } } }' }) },
  f: { path: '/api/articles/{id}' },
};
const CONCURRENCY = 4;

/** `checkout`'s bin/cairn.js serving `appDir` on `port`, once it answers. */
export async function startCairn(checkout, appDir, port, env) {
  const child = spawn(join(checkout, 'bin', 'cairn.js'), ['start', '--dir', appDir, '--port', String(port)], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/i18n/locales`)).status < 500) return child;
    } catch {}
    if (child.exitCode !== null) throw new Error(`${checkout}: the server exited`);
    await sleep(50);
  }
}

/** Seeds the running server with the conformance kit's seed (SCALE=1); returns the first article's documentId. */
export async function seed(root, appDir, port, env) {
  const kit = join(root, 'test', 'fixtures', 'conformance');
  const token = spawnSync(process.execPath, [join(root, 'bin/cairn.js'), 'token', 'create', '--dir', appDir, '--name', 'bench', '--type', 'full-access'], { env, encoding: 'utf8' }).stdout.trim();
  const done = spawnSync(process.execPath, [join(kit, 'seed.mjs')], { env: { ...env, BASE_URL: `http://127.0.0.1:${port}`, TOKEN: token, QUIET: '1' }, encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`seed failed: ${done.stderr}`);
  const { data: [first] } = await (await fetch(`http://127.0.0.1:${port}/api/articles?fields[0]=title&pagination[pageSize]=1`)).json();
  return first.documentId;
}

/** `count` requests, `CONCURRENCY` at a time; each must answer 200 (a failing scenario measures nothing). */
async function send(base, scenario, path, count) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) {
      const response = await fetch(`${base}${path}`, scenario.body ? { method: 'POST', body: scenario.body, headers: { 'content-type': 'application/json' } } : undefined);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/**
 * The server's CPU µs per request on each scenario: a warm-up of `warmup` requests, then batches of 100 until the
 * server has spent `cpuSeconds` (/proc counts CPU in 10 ms ticks: well over a second keeps the tick's error under 1%).
 * `helpers()`, when given, names more processes working for the server (PostgreSQL's backends serving its pool:
 * there the statements run outside the server's process tree); their CPU counts too.
 */
export async function cpuPerRequest(server, port, documentId, { warmup, cpuSeconds, helpers = () => [] }) {
  const base = `http://127.0.0.1:${port}`;
  const out = {};
  for (const [id, scenario] of Object.entries(SCENARIOS)) {
    const path = scenario.path.replace('{id}', documentId);
    await send(base, scenario, path, warmup);
    const pids = [server.pid, ...helpers()];
    const cpu = () => pids.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0);
    const from = cpu();
    let sent = 0;
    while (cpu() - from < cpuSeconds) {
      await send(base, scenario, path, 100);
      sent += 100;
    }
    out[id] = ((cpu() - from) / sent) * 1e6;
  }
  return out;
}
