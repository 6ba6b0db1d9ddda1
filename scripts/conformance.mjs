#!/usr/bin/env node
// Runs the conformance kit (test/fixtures/conformance) against Cairn: a copy of the conformance app (the original is read-only), a fresh
// database, the seed, the recorded queries, and compare.mjs. Prints compare's report; exits with its status.
// Env: DATABASE_CLIENT (sqlite | postgres | mysql, default sqlite), QUERIES/GOLDEN_DIR/DEVIATIONS (GraphQL v4 suite),
//      GRAPHQL_V4_COMPAT (the kit app's v4CompatibilityMode: Strapi 5's compatibility mode), GRAPHQL_SHAPE=v4 (Cairn's
//      `shape: 'v4'`, the seed's Strapi v4 schema, written into the copy's config), PORT (default 14337), KEEP=1 to keep the temp folder,
//      EXCLUDE (regex on query names: left out of the run and of the comparison),
//      CAIRN_DEVIATIONS (a folder with deviations.json and overrides/: Cairn's own deliberate differences, merged
//      over the kit's).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const kit = join(root, 'test', 'fixtures', 'conformance');
const work = mkdtempSync(join(tmpdir(), 'cairn-conformance-'));
const appDir = join(work, 'app');
cpSync(join(kit, 'app'), appDir, { recursive: true });
if (process.env.GRAPHQL_SHAPE) {
  // The kit's config is Strapi's; Cairn's own option goes into the copy's config/env/production layer (merged over it).
  mkdirSync(join(appDir, 'config', 'env', 'production'), { recursive: true });
  writeFileSync(join(appDir, 'config', 'env', 'production', 'plugins.js'), `module.exports = { graphql: { config: { shape: ${JSON.stringify(process.env.GRAPHQL_SHAPE)} } } };\n`);
}
// Port 0 by default: the system picks a free one (parallel runs never collide); the URL is read from Cairn's output.
const port = process.env.PORT ?? '0';
let base = '';
const env = { ...process.env, NODE_ENV: 'production', PORT: port };
const bin = join(root, 'bin', 'cairn.js');

let dbName;
if (env.DATABASE_CLIENT === 'postgres' || env.DATABASE_CLIENT === 'mysql') {
  // A database of its own, dropped at the end.
  dbName = `cairn_conf_${Date.now()}`;
  env.DATABASE_NAME = dbName;
  if (env.DATABASE_CLIENT === 'postgres') spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-c', `CREATE DATABASE ${dbName}`], { stdio: 'ignore' });
  else spawnSync('mariadb', ['-h', '127.0.0.1', '-uroot', '-e', `CREATE DATABASE ${dbName} CHARACTER SET utf8mb4`], { stdio: 'ignore' });
}

function run(script, extraEnv) {
  const result = spawnSync(process.execPath, [join(kit, script)], { env: { ...env, ...extraEnv }, encoding: 'utf8', maxBuffer: 64 << 20 });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

const server = spawn(process.execPath, [bin, 'start', '--dir', appDir, '--port', port], { env, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
server.stdout.on('data', (d) => (log += d));
server.stderr.on('data', (d) => (log += d));
let status = 1;
try {
  for (let i = 0; ; i++) {
    if (server.exitCode !== null) throw new Error(`Cairn exited: ${log}`);
    const ready = /Cairn is ready: (http:\/\/[^\s()]+)/.exec(log);
    if (ready) {
      base = ready[1].replace(/\/$/, '');
      break;
    }
    if (i > 1200) throw new Error(`Cairn did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // The kit seeds and records with a full-access token made by the CLI, as its README says.
  const token = spawnSync(process.execPath, [bin, 'token', 'create', '--dir', appDir, '--name', 'conformance', '--type', 'full-access'], { env, encoding: 'utf8' });
  if (token.status !== 0) throw new Error(`cairn token create failed (${token.status}):\n${token.stdout}${token.stderr}`);
  const TOKEN = token.stdout.trim();
  if (!/^[0-9a-f]{128}$/.test(TOKEN)) throw new Error(`cairn token create printed something else than a key:\n${token.stdout}`);
  const t0 = Date.now();
  const seed = run('seed.mjs', { BASE_URL: base, TOKEN, QUIET: '1' });
  if (seed.status !== 0) throw new Error(`seed failed:\n${seed.out.slice(-3000)}`);
  console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const out = join(work, 'out');
  const queriesFile = process.env.QUERIES ?? join(kit, 'queries.json');
  const exclude = process.env.EXCLUDE ? new RegExp(process.env.EXCLUDE) : null;
  const queries = JSON.parse(readFileSync(queriesFile, 'utf8')).filter((q) => !exclude || !exclude.test(q.name));
  writeFileSync(join(work, 'queries.json'), JSON.stringify(queries));
  writeFileSync(join(work, 'names.txt'), queries.map((q) => q.name).join('\n'));
  const record = run('record.mjs', { BASE_URL: base, TOKEN, OUT_DIR: out, QUERIES: join(work, 'queries.json') });
  if (record.status !== 0) throw new Error(`record failed:\n${record.out.slice(-3000)}`);
  const compare = run('compare.mjs', {
    GOLDEN_DIR: process.env.GOLDEN_DIR ?? join(kit, 'goldens'),
    ACTUAL_DIR: out,
    DEVIATIONS: mergedDeviations(process.env.DEVIATIONS ?? join(kit, 'deviations.json'), process.env.CAIRN_DEVIATIONS),
    NAMES: join(work, 'names.txt'),
    VERBOSE: '1',
  });
  process.stdout.write(compare.out);
  status = compare.status ?? 1;
} catch (error) {
  console.error(error.message);
  status = 2;
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (dbName && env.DATABASE_CLIENT === 'postgres') spawnSync('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-c', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`], { stdio: 'ignore' });
  if (dbName && env.DATABASE_CLIENT === 'mysql') spawnSync('mariadb', ['-h', '127.0.0.1', '-uroot', '-e', `DROP DATABASE IF EXISTS ${dbName}`], { stdio: 'ignore' });
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}
process.exit(status);

/**
 * The kit's deviations with Cairn's own on top (each with its reason; the README's compatibility table lists
 * them), written with both overrides/ folders into the work folder, where compare.mjs looks for overrides.
 */
function mergedDeviations(kitFile, cairnDir) {
  if (!cairnDir) return kitFile;
  const merged = { ...JSON.parse(readFileSync(kitFile, 'utf8')), ...JSON.parse(readFileSync(join(cairnDir, 'deviations.json'), 'utf8')) };
  for (const dir of [join(kitFile, '..', 'overrides'), join(cairnDir, 'overrides')]) {
    if (existsSync(dir)) cpSync(dir, join(work, 'overrides'), { recursive: true });
  }
  writeFileSync(join(work, 'deviations.json'), JSON.stringify(merged));
  return join(work, 'deviations.json');
}
