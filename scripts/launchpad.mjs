#!/usr/bin/env node
// The LaunchPad comparison (issue 19): Strapi's official demo, LaunchPad (public repository strapi/LaunchPad), served
// by real Strapi and by Cairn from the same project folder and database; the requests its Next.js front end sends
// must get the same answers. LaunchPad's code stays out of this repository: the script runs from a checkout.
//
//   npm run test:launchpad -- <path to a LaunchPad checkout> [--keep] [--no-build] [--seed <export.tar.gz> | --synthetic-seed]
//
// Steps (each timed): Cairn is built (dist/; --no-build skips it); LaunchPad's strapi/ dependencies are installed once
// into $CAIRN_LAUNCHPAD_CACHE (default ~/.cache/cairn-launchpad)/<hash of its package.json and the Node.js ABI>;
// strapi/ is copied into a temp folder (the checkout is never written to) with node_modules linking to that cache
// and a SQLite database in it; `strapi import` loads the checkout's seed (strapi/data/export_*.tar.gz, or --seed);
// strapi-setup.cjs, run by node in the copy, loads LaunchPad's Strapi (its src/ unchanged) to grant the Public role
// find/findOne on its content types and issue a full-access API token (and, with --synthetic-seed or when the
// checkout's export is missing or unreadable, first fills the database with synthetic-seed.cjs's made-up content
// instead of importing: said loudly at the start and in the results); Strapi starts (production, admin panel not built), the slugs are read with the token,
// the front end's requests (requests.mjs, each citing its next/ file; draft ones ask for content source maps, as the
// front end does in draft mode) are recorded as Public; Strapi stops; Cairn's CLI starts on the same folder, database
// and secrets and answers the same requests; where the installed Strapi is older than the one Cairn follows, what
// Strapi added since (version-differences.mjs) is taken out of a copy of Cairn's answers, counted and printed; the
// conformance kit's compare.mjs compares (ids and timestamps normalised, key order aside).
//
// Prints per request: equal, or different with the first differing path; then totals. Exit 0 when all are equal,
// 1 on any difference, 2 when a step fails (Cairn refusing to start on LaunchPad is such a failure; its message is
// printed). Without a path: says what it needs and exits 0. --keep keeps the temp folder (recordings, logs).
import { spawnSync } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import qs from 'qs';
import { ensureNpmInstall } from './interop/install.mjs';
import { freePort, startCairn, startStrapi, stop } from './interop/servers.mjs';
import { discoveryRequests, frontEndRequests, LOCALES } from './launchpad/requests.mjs';
import { alignWithReference } from './launchpad/version-differences.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const here = join(repo, 'scripts', 'launchpad');
const COMPARE = join(repo, 'test', 'fixtures', 'conformance', 'compare.mjs');
// Fixed secrets, read by LaunchPad's config (config/server.ts, admin.ts, plugins) under both servers.
const SECRETS = {
  APP_KEYS: 'launchpadKey1,launchpadKey2,launchpadKey3,launchpadKey4',
  API_TOKEN_SALT: 'launchpad-api-token-salt',
  ADMIN_JWT_SECRET: 'launchpad-admin-jwt-secret',
  JWT_SECRET: 'launchpad-users-permissions-jwt-secret',
  TRANSFER_TOKEN_SALT: 'launchpad-transfer-token-salt',
  ENCRYPTION_KEY: 'launchpad-encryption-key',
  CLIENT_URL: 'http://127.0.0.1:3000',
  PREVIEW_SECRET: 'launchpad-preview-secret',
};
const HOW_TO_GET = `It needs a checkout of Strapi's LaunchPad demo: clone the public repository strapi/LaunchPad
into a folder outside this repository (say /tmp/LaunchPad), then: npm run test:launchpad -- /tmp/LaunchPad
(the seed, strapi/data/export_*.tar.gz, is a file of several MB: a checkout without it, or --synthetic-seed, gets a
synthetic seed made up from LaunchPad's schemas instead of LaunchPad's own content).`;

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
const started = Date.now();
const options = parseArgs(process.argv.slice(2));
if (!options.checkout) {
  console.log(`test:launchpad compares Cairn with real Strapi on LaunchPad's back end.\n${HOW_TO_GET}\nNo checkout given: nothing run.`);
  process.exit(0);
}
const strapiDir = join(options.checkout, 'strapi');
checkCheckout();

const times = {};
let work;
let server;
process.on('SIGINT', () => void abort('interrupted'));
process.on('SIGTERM', () => void abort('terminated'));

try {
  await main();
} catch (error) {
  console.log(`\nFAILED: ${error.message.slice(0, 8000)}`);
  await cleanup();
  console.log(`total ${fmt(Date.now() - started)}`);
  process.exit(2);
}

async function main() {
  const seed = findSeed();
  if (options.build) {
    await step('cairn build', () => {
      const tsc = join(dirname(createRequire(join(repo, 'package.json')).resolve('typescript/package.json')), 'bin', 'tsc');
      const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });
      if (result.status !== 0) throw new Error('npm run build failed');
    });
  }
  const install = await step('install', () => installStrapi());
  console.log(install.installed ? `  LaunchPad's strapi/ dependencies installed into ${install.dir}` : `  install reused: ${install.dir}`);

  work = mkdtempSync(join(tmpdir(), 'cairn-launchpad-'));
  const app = join(work, 'strapi');
  const tokenFile = join(work, 'token.txt');
  await step('copy', () => {
    const skip = new Set(['node_modules', '.tmp', 'dist', 'build', '.strapi', '.cache', 'data', '.env']);
    cpSync(strapiDir, app, { recursive: true, filter: (src) => src === strapiDir || !skip.has(src.slice(strapiDir.length + 1).split(/[\\/]/)[0]) });
    symlinkSync(join(install.dir, 'node_modules'), join(app, 'node_modules'), 'dir');
    mkdirSync(join(app, 'public', 'uploads'), { recursive: true });
    mkdirSync(join(app, '.tmp'), { recursive: true });
  });
  const env = {
    ...process.env,
    ...SECRETS,
    NODE_ENV: 'production',
    DATABASE_CLIENT: 'sqlite',
    DATABASE_FILENAME: '.tmp/data.db',
    STRAPI_TELEMETRY_DISABLED: 'true',
    BROWSER: 'none',
    LAUNCHPAD_TOKEN_FILE: tokenFile,
  };

  if (seed.file) {
    await step('strapi import', () => run('strapi import', [join(app, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'), 'import', '-f', seed.file, '--force'], { cwd: app, env }));
  }
  const setup = await step(seed.file ? 'strapi setup' : 'strapi setup + SYNTHETIC seed', () =>
    run('strapi-setup.cjs', [join(here, 'strapi-setup.cjs')], { cwd: app, env: { ...env, LAUNCHPAD_SYNTHETIC_SEED: seed.file ? '0' : '1', LAUNCHPAD_LOCALES: LOCALES.join(',') } }));
  const { counts, seed: synthetic } = JSON.parse(setup.trim().split('\n').pop());
  if (synthetic) {
    console.log(`  SYNTHETIC seed written: locales ${synthetic.locales.join(', ')} (default ${synthetic.defaultLocale}); ${synthetic.files.length} images: ${synthetic.files.join('; ')}`);
    console.log(`  documents per type: ${Object.entries(synthetic.documents).map(([uid, n]) => `${uid.split('.').pop()} ${n}`).join(', ')}`);
    console.log(`  draft-only changes (draft differs from published): ${synthetic.drafts.join(', ') || 'none'}`);
  }
  console.log(`  entries published/draft per locale: ${Object.entries(counts).map(([uid, c]) => `${uid.split('.').pop()} ${LOCALES.map((l) => `${l} ${c[l]}/${c[`${l} draft`]}`).join(' ')}`).join(', ')}`);

  server = await step('strapi start', async () => startStrapi({ appDir: app, env, port: await freePort(), tokenFile }));
  const token = readFileSync(tokenFile, 'utf8').trim();
  const slugs = await step('discover slugs', () => discover(server.url, token));
  const requests = frontEndRequests(slugs);
  console.log(`  ${requests.length} front-end requests (${LOCALES.join(', ')}; published and draft)`);
  const strapiDir_ = join(work, 'strapi-answers');
  await step('strapi record', () => record(server.url, requests, strapiDir_));
  await step('strapi stop', () => stop(server));
  server = undefined;

  const cairnEnv = { ...env };
  delete cairnEnv.LAUNCHPAD_TOKEN_FILE;
  server = await step('cairn start', async () => startCairn({ repoDir: repo, appDir: app, env: cairnEnv, port: await freePort() }));
  const cairnDir = join(work, 'cairn-answers');
  await step('cairn record', () => record(server.url, requests, cairnDir));
  await step('cairn stop', () => stop(server));
  server = undefined;

  // What Cairn answers once it runs LaunchPad's route middlewares: the populate they set, sent in the query.
  const populates = await step('read populate middlewares', () => middlewarePopulates(app));
  console.log(`  route middlewares setting populate: ${[...populates.keys()].map((k) => `/api/${k}`).join(', ') || 'none'}`);
  const withPopulate = requests.map((q) => ({ ...q, path: withMiddlewarePopulate(q.path, populates) }));
  const cairnPopulatedDir = join(work, 'cairn-answers-populate-in-query');
  server = await step('cairn start (again)', async () => startCairn({ repoDir: repo, appDir: app, env: cairnEnv, port: await freePort() }));
  await step('cairn record (+populate)', () => record(server.url, withPopulate, cairnPopulatedDir));
  await step('cairn stop (again)', () => stop(server));
  server = undefined;

  // What the reference's version cannot answer (version-differences.mjs) is taken out of copies of Cairn's answers.
  const reference = installedVersion(install.dir);
  const aligned = await step('align with the reference', () => {
    const mainPass = alignWithReference(cairnDir, `${cairnDir}-aligned`, reference);
    alignWithReference(cairnPopulatedDir, `${cairnPopulatedDir}-aligned`, reference);
    return mainPass;
  });
  for (const { rule, strings, answers } of aligned) {
    console.log(`  Strapi ${reference} is older than ${rule.since}: ${rule.what}; taken out of Cairn's answers: ${strings} strings in ${answers} answers`);
  }
  const result = await step('compare', () => compare(strapiDir_, `${cairnDir}-aligned`, requests, work));
  const populated = compare(strapiDir_, `${cairnPopulatedDir}-aligned`, requests, work);
  console.log(`\n=== LaunchPad: the front end's requests, Cairn vs Strapi ${reference} on the same database${seed.file ? '' : ` (SYNTHETIC SEED: ${seed.why})`} ===`);
  for (const q of requests) {
    const diff = result.different.get(q.name);
    console.log(`${diff ? 'DIFFERENT' : 'equal    '} ${q.name.padEnd(38)} ${q.path}${diff ? `\n          ${diff}` : ''}`);
  }
  const statuses = summaryOfStatuses(strapiDir_, cairnDir, requests);
  console.log(`\n${requests.length} requests, ${requests.length - result.different.size} equal, ${result.different.size} different${statuses}`);
  console.log(`\n=== Diagnostic: Cairn with the route middlewares' populate sent in the query (what it answers once it runs them) ===`);
  for (const q of requests.filter((r) => populated.different.has(r.name))) console.log(`DIFFERENT ${q.name.padEnd(38)} ${populated.different.get(q.name)}`);
  console.log(`${requests.length} requests, ${requests.length - populated.different.size} equal, ${populated.different.size} different (not counted in the exit code)`);
  console.log(seed.file ? `seed: ${seed.file}` : banner(`seed: SYNTHETIC (scripts/launchpad/synthetic-seed.cjs), ${seed.why}: made-up content derived from LaunchPad's schemas, NOT LaunchPad's own data`));
  console.log(`steps: ${Object.entries(times).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
  await cleanup();
  console.log(`total ${fmt(Date.now() - started)}`);
  process.exit(result.different.size ? 1 : 0);
}

function checkCheckout() {
  const pkgFile = join(strapiDir, 'package.json');
  const problems = [];
  if (!existsSync(options.checkout)) problems.push(`${options.checkout} does not exist`);
  else if (!existsSync(pkgFile)) problems.push(`no strapi/package.json in ${options.checkout}`);
  else {
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    if (!pkg.dependencies?.['@strapi/strapi']) problems.push('strapi/package.json does not depend on @strapi/strapi');
    if (!existsSync(join(strapiDir, 'src', 'api'))) problems.push('no strapi/src/api');
    if (!existsSync(join(options.checkout, 'next', 'lib', 'strapi'))) problems.push('no next/lib/strapi (the front end whose requests are sent)');
  }
  if (problems.length) {
    console.error(`${options.checkout} is not a LaunchPad checkout: ${problems.join('; ')}.\n${HOW_TO_GET}`);
    process.exit(2);
  }
}

/**
 * The seed to import: --seed, or the checkout's strapi/data/export_*.tar.gz; with --synthetic-seed, or when that export
 * is missing or unreadable, none: { file: undefined, why }, and synthetic-seed.cjs fills the database (said loudly).
 */
function findSeed() {
  if (options.seed) {
    if (!existsSync(options.seed)) throw new Error(`--seed ${options.seed}: no such file`);
    return { file: options.seed };
  }
  let why = '--synthetic-seed given';
  if (!options.synthetic) {
    const dataDir = join(strapiDir, 'data');
    const found = existsSync(dataDir) ? readdirSync(dataDir).filter((f) => /^export_.*\.tar\.gz$/.test(f)).sort() : [];
    const problems = [];
    const usable = found.map((f) => join(dataDir, f)).filter((f) => {
      try {
        gunzipSync(readFileSync(f)); // a whole gzip file (not a Git LFS pointer, not truncated)
        return true;
      } catch (error) {
        problems.push(`${f.slice(dataDir.length + 1)} is unreadable (${error.message.split('\n')[0]})`);
        return false;
      }
    });
    if (usable.length) return { file: usable.at(-1) };
    why = problems.length ? problems.join('; ') : `no strapi/data/export_*.tar.gz in the checkout`;
  }
  console.log(banner(`SYNTHETIC SEED: ${why}. The comparison runs on made-up content that scripts/launchpad/synthetic-seed.cjs derives from LaunchPad's schemas and writes through LaunchPad's Strapi (every type in ${LOCALES.join(' and ')}, every attribute, component, dynamic zone component, media field and relation), NOT on LaunchPad's own data; 'strapi import' is not run.`));
  return { file: undefined, why };
}

/** `text` framed, so that it cannot be missed in the output. */
function banner(text) {
  const line = '!'.repeat(118);
  return `${line}\n!! ${text}\n${line}`;
}

/** LaunchPad's strapi/ dependencies, installed once outside the repository (npm; no lock: LaunchPad's is Yarn's). */
function installStrapi() {
  const pkg = JSON.parse(readFileSync(join(strapiDir, 'package.json'), 'utf8'));
  // Only the dependencies: LaunchPad's postinstall (a uuid for its analytics) rewrites package.json; not wanted here.
  const manifest = JSON.stringify({ name: 'cairn-launchpad-strapi', private: true, version: '0.0.0', dependencies: pkg.dependencies, devDependencies: pkg.devDependencies }, null, 2);
  return ensureNpmInstall({
    root: process.env.CAIRN_LAUNCHPAD_CACHE || join(homedir(), '.cache', 'cairn-launchpad'),
    keyData: manifest,
    files: { 'package.json': manifest },
    npmArgs: ['install'],
    what: "LaunchPad's strapi/ dependencies (npm install)",
  });
}

/**
 * The populate each of LaunchPad's route middlewares sets (src/api/<api>/middlewares/*.ts named in the api's routes
 * file), by the path segment of its content type (plural name, or singular for a single type): each middleware is
 * loaded with jiti and run on an empty ctx, as Strapi would run it before the controller.
 */
async function middlewarePopulates(app) {
  const { createJiti } = await import('jiti');
  const jiti = createJiti(import.meta.url, { moduleCache: false });
  const out = new Map();
  const apiRoot = join(app, 'src', 'api');
  for (const api of readdirSync(apiRoot)) {
    const routesDir = join(apiRoot, api, 'routes');
    const typesDir = join(apiRoot, api, 'content-types');
    if (!existsSync(routesDir) || !existsSync(typesDir)) continue;
    const names = new Set();
    for (const file of readdirSync(routesDir)) {
      for (const m of readFileSync(join(routesDir, file), 'utf8').matchAll(/['"]api::([\w-]+)\.([\w-]+)['"]/g)) if (m[1] === api && existsSync(join(apiRoot, api, 'middlewares'))) names.add(m[2]);
    }
    for (const name of names) {
      const file = readdirSync(join(apiRoot, api, 'middlewares')).find((f) => f.replace(/\.(ts|js|mjs|cjs)$/, '') === name);
      if (!file) continue;
      const factory = await jiti.import(join(apiRoot, api, 'middlewares', file), { default: true });
      const ctx = { query: {}, params: {}, request: { query: {} }, state: {} };
      await factory({}, { strapi: {} })(ctx, async () => {});
      if (!ctx.query.populate) continue;
      for (const type of readdirSync(typesDir)) {
        const schema = JSON.parse(readFileSync(join(typesDir, type, 'schema.json'), 'utf8'));
        out.set(schema.kind === 'singleType' ? schema.info.singularName : schema.info.pluralName, ctx.query.populate);
      }
    }
  }
  return out;
}

/** `path` with the populate of its route's middleware added to the query (unchanged when none). */
function withMiddlewarePopulate(path, populates) {
  const segment = /^\/api\/([^/?]+)/.exec(path)?.[1];
  const populate = populates.get(segment);
  return populate ? `${path}&${qs.stringify({ populate }, { encodeValuesOnly: true })}` : path;
}

/** The slugs of the pages, articles and products per locale, read from Strapi with the token. */
async function discover(url, token) {
  const slugs = {};
  for (const locale of LOCALES) {
    slugs[locale] = {};
    for (const [kind, path] of Object.entries(discoveryRequests(locale))) {
      const res = await fetch(url + path, { headers: { Authorization: `Bearer ${token}` } });
      const body = await res.json();
      if (!res.ok) throw new Error(`GET ${path} -> ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      slugs[locale][kind] = [...new Set(body.data.map((e) => e.slug).filter(Boolean))];
    }
  }
  return slugs;
}

/** Each request sent as the front end sends it (no token, its headers), answers written as record.mjs does: <name>.json. */
async function record(url, requests, dir) {
  mkdirSync(dir, { recursive: true });
  for (const q of requests) {
    const res = await fetch(url + q.path, { headers: q.headers, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    writeFileSync(join(dir, `${q.name}.json`), JSON.stringify({ name: q.name, request: { method: q.method, path: q.path }, status: res.status, body }, null, 1));
  }
}

/** compare.mjs of the conformance kit: { different: Map(name -> first difference) }. */
function compare(reference, actual, requests, dir) {
  const names = join(dir, 'names.txt');
  writeFileSync(names, requests.map((q) => q.name).join('\n'));
  const result = spawnSync(process.execPath, [COMPARE], { env: { ...process.env, GOLDEN_DIR: reference, ACTUAL_DIR: actual, NAMES: names, VERBOSE: '1' }, encoding: 'utf8', maxBuffer: 64 << 20 });
  const summary = /(\d+) of (\d+) match the reference/.exec(result.stdout);
  if (!summary || result.status === null || result.status > 1) throw new Error(`compare.mjs failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
  const different = new Map();
  for (const line of result.stdout.split('\n').filter((l) => l.startsWith('  '))) {
    const at = line.indexOf(': ');
    different.set(line.slice(2, at), line.slice(at + 2));
  }
  if (Number(summary[2]) !== requests.length) throw new Error(`compare.mjs compared ${summary[2]} of ${requests.length} recordings`);
  return { different };
}

/** ", Strapi answered 200 to n, ...": what the reference answered, so that an all-404 comparison shows. */
function summaryOfStatuses(strapiAnswers, cairnAnswers, requests) {
  const tally = (dir) => {
    const counts = {};
    for (const q of requests) {
      const { status, body } = JSON.parse(readFileSync(join(dir, `${q.name}.json`), 'utf8'));
      const key = status === 200 && Array.isArray(body?.data) && body.data.length === 0 ? '200 (empty list)' : String(status);
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return Object.entries(counts).map(([k, n]) => `${k} ×${n}`).join(', ');
  };
  return `\nStrapi answered: ${tally(strapiAnswers)}\nCairn answered:  ${tally(cairnAnswers)}`;
}

/** The version of Strapi installed for LaunchPad (its package.json may give a range). */
function installedVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'node_modules', '@strapi', 'core', 'package.json'), 'utf8')).version;
}

/** Runs node with args; returns stdout; throws with the output's tail when it fails. */
function run(what, args, { cwd, env }) {
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`${what} failed (exit ${result.status}):\n${`${result.stdout}${result.stderr}`.slice(-6000)}`);
  return result.stdout;
}

async function step(label, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    times[label] = Date.now() - t0;
    console.log(`${label.padEnd(28)} ${fmt(times[label])}`);
  }
}

async function cleanup() {
  if (server) await stop(server).catch(() => {});
  server = undefined;
  if (!work) return;
  if (options.keep) console.log(`kept ${work} (strapi/: the project copy and its .tmp/data.db; strapi-answers/, cairn-answers/)`);
  else rmSync(work, { recursive: true, force: true });
}

async function abort(why) {
  console.log(`\n${why}: cleaning up`);
  await cleanup().catch(() => {});
  process.exit(130);
}

function parseArgs(args) {
  const parsed = { checkout: undefined, keep: false, build: true, seed: undefined, synthetic: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--keep') parsed.keep = true;
    else if (arg === '--no-build') parsed.build = false;
    else if (arg === '--synthetic-seed') parsed.synthetic = true;
    else if (arg === '--seed') parsed.seed = resolve(args[++i] ?? '');
    else if (arg.startsWith('--seed=')) parsed.seed = resolve(arg.slice('--seed='.length));
    else if (arg.startsWith('-') || parsed.checkout) {
      console.error(`unexpected argument ${arg}\nusage: npm run test:launchpad -- <path to a LaunchPad checkout> [--keep] [--no-build] [--seed <export.tar.gz> | --synthetic-seed]`);
      process.exit(2);
    } else parsed.checkout = resolve(arg);
  }
  if (parsed.seed && parsed.synthetic) {
    console.error('--seed and --synthetic-seed exclude each other');
    process.exit(2);
  }
  return parsed;
}
