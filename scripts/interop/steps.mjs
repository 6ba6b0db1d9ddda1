// The steps the interop tests are made of (scripts/strapi-interop.mjs runs them): one `InteropRun` is one test on one
// dialect, with its own temp folder, database, app folders and recordings; each step is timed and printed. The tests
// (scripts/interop/tests.mjs) are different orders of the same steps.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countRows, freshDatabase } from './databases.mjs';
import { freePort, startCairn, startStrapi, stop } from './servers.mjs';
import { prepareStrapiApp } from './strapi-app.mjs';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const kit = join(repo, 'test', 'fixtures', 'conformance');

// Both apps read these (the fixture app's config/admin.js and plugins.js, the conformance app's too): Cairn must
// accept the API token Strapi issued (its hash is salted with API_TOKEN_SALT) and the JWTs either side signs.
export const SECRETS = {
  API_TOKEN_SALT: 'interop-api-token-salt',
  JWT_SECRET: 'interop-users-permissions-jwt-secret',
  ADMIN_JWT_SECRET: 'interop-admin-jwt-secret',
  APP_KEYS: 'interopAppKey1,interopAppKey2,interopAppKey3,interopAppKey4',
};

export const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** A request a server refused while a kit script wrote through it: the script's first failing request and answer. */
export class RequestRefused extends Error {
  constructor(script, request, output) {
    super(`${script}: ${request}`);
    this.request = request;
    this.output = output;
  }
}

/**
 * The requests of queries.json that only read and need nothing an earlier write made: GETs and GraphQL queries
 * (not mutations), without a saved variable ({{$…}}) or a user's JWT, which only the write part creates.
 */
export function readRequests() {
  return readJson(join(kit, 'queries.json')).filter((q) => {
    const graphql = q.path.startsWith('/graphql');
    const reads = q.method === 'GET' || (graphql && q.method === 'POST' && !/^\s*mutation\b/.test(q.body?.query ?? ''));
    return reads && (q.auth ?? 'token') !== 'jwt' && !JSON.stringify(q).includes('{{$');
  });
}

/**
 * One test on one dialect. `dir` is its own folder (the caller makes and removes it);
 * `install` is the Strapi install (install.mjs), `reads` the requests to record, `dbSuffix` the database name's
 * suffix (each test its own database, so --keep keeps both), `log` where its lines go. Every method is a step: timed
 * into `times` and logged.
 */
export class InteropRun {
  constructor({ dialect, dir, install, reads, keep, dbSuffix, log = console.log }) {
    Object.assign(this, { dialect, dir, install, reads, keep, dbSuffix, log });
    this.times = {};
    this.server = undefined;
    this.cleanups = [];
    this.strapiApp = join(dir, 'strapi-app');
    this.cairnApp = join(dir, 'cairn-app');
    this.queriesFile = join(dir, 'queries.json');
    this.namesFile = join(dir, 'names.txt');
    this.tokenFile = join(dir, 'token.txt');
  }

  async step(label, fn) {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      this.times[label] = (this.times[label] ?? 0) + Date.now() - t0;
      this.log(`  ${label.padEnd(22)} ${fmt(Date.now() - t0)}`);
    }
  }

  prepareApps() {
    prepareStrapiApp(this.strapiApp, this.install);
    cpSync(join(kit, 'app'), this.cairnApp, { recursive: true });
    writeFileSync(this.queriesFile, JSON.stringify(this.reads));
    writeFileSync(this.namesFile, this.reads.map((q) => q.name).join('\n'));
  }

  /**
   * The fixture Strapi app (package.json, config/, src/index.js) with the conformance model copied into its src/ and
   * node_modules linking to the install cache; beside it a copy of the conformance app for Cairn (the repository's
   * copy is never written to); a fresh database. The apps sit in the same folder, so a relative SQLite file name is
   * the same file for both. `prepareApps` alone makes the apps only.
   */
  async prepare() {
    this.prepareApps();
    this.db = await this.step('database', () => freshDatabase(this.dialect, this.dir, this.dbSuffix));
    this.cleanups.push(() => (this.keep ? this.log(`  kept database ${this.db.layoutTarget}`) : this.db.drop()));
    this.env = { ...process.env, ...SECRETS, ...this.db.env };
  }

  /** Strapi on the database: it makes (or checks) its tables and runs the bootstrap, which issues the token once. */
  async startStrapi(label) {
    this.server = await this.step(label, async () => startStrapi({ appDir: this.strapiApp, env: this.env, port: await freePort(), tokenFile: this.tokenFile }));
    this.token = readFileSync(this.tokenFile, 'utf8').trim();
    return this.server;
  }

  /** Cairn's CLI on the database, answering with the token Strapi issued. */
  async startCairn(label) {
    this.server = await this.step(label, async () => startCairn({ repoDir: repo, appDir: this.cairnApp, env: this.env, port: await freePort() }));
    return this.server;
  }

  /**
   * Cairn's CLI on the database while `server` (Strapi) keeps running on it (test 4); returns Cairn's process, which
   * `close` stops when it still runs.
   */
  async startCairnBeside(label) {
    const cairn = await this.step(label, async () => startCairn({ repoDir: repo, appDir: this.cairnApp, env: this.env, port: await freePort() }));
    this.cleanups.push(() => stop(cairn));
    return cairn;
  }

  /** Stops a server that `startCairnBeside` started. */
  stopBeside(label, server) {
    return this.step(label, () => stop(server));
  }

  async stopServer(label) {
    const server = this.server;
    this.server = undefined;
    if (server) await this.step(label, () => stop(server));
  }

  /** seed.mjs through the running server's REST API; a refused request throws `RequestRefused`. */
  seed(label) {
    return this.step(label, () => this.kitScript('seed.mjs', { BASE_URL: this.server.url, TOKEN: this.token, QUIET: '1' }));
  }

  /** The read requests recorded from the running server into `<dir>/<name>/`; returns that folder. */
  async record(label, name) {
    const out = join(this.dir, name);
    await this.step(label, () => this.kitScript('record.mjs', { BASE_URL: this.server.url, TOKEN: this.token, QUERIES: this.queriesFile, OUT_DIR: out }));
    return out;
  }

  /** The database's layout as db-layout.mjs prints it (also written to `<dir>/layout-<name>.json`). */
  layout(label, name) {
    return this.step(label, () => dumpLayout(this.dialect, this.db.layoutTarget, join(this.dir, `layout-${name}.json`)));
  }

  /** The number of rows of every table of `layout` (a dump of `layout()`), as { table: count }. */
  rowCounts(label, layout) {
    return this.step(label, () => countRows(this.dialect, this.db.layoutTarget, JSON.parse(layout).tables.map((t) => t.name)));
  }

  /**
   * compare.mjs: `actual`'s recordings against `reference`'s, under `deviations` (compare.mjs's format; `overrides`:
   * [folder, names] pairs: reference recordings that replace some, for `{ override: true }` entries; no names: the
   * whole folder; `asOnSqlite`: names counted apart in the summary; `names`: the recordings to compare, by default
   * those of the run's read requests). Returns { compared, equal, different: ["name: first difference"], asOnSqlite:
   * how many of the compared are in `asOnSqlite` }.
   */
  compare(label, { reference, actual, deviations = {}, overrides = [], asOnSqlite = [], names: only }) {
    return this.step(label, () => {
      const dir = join(this.dir, `compare-${label.replace(/\W+/g, '-')}`);
      mkdirSync(join(dir, 'overrides'), { recursive: true });
      for (const [from, names] of overrides) {
        for (const name of names ?? []) cpSync(join(from, `${name}.json`), join(dir, 'overrides', `${name}.json`));
        if (!names && existsSync(from)) cpSync(from, join(dir, 'overrides'), { recursive: true });
      }
      writeFileSync(join(dir, 'deviations.json'), JSON.stringify(deviations));
      const namesFile = only ? join(dir, 'names.txt') : this.namesFile;
      if (only) writeFileSync(namesFile, only.join('\n'));
      const result = spawnSync(process.execPath, [join(kit, 'compare.mjs')], {
        env: { ...process.env, GOLDEN_DIR: reference, ACTUAL_DIR: actual, DEVIATIONS: join(dir, 'deviations.json'), NAMES: namesFile, VERBOSE: '1' },
        encoding: 'utf8',
      });
      const summary = /(\d+) of (\d+) match the reference/.exec(result.stdout);
      if (!summary || result.status === null || result.status > 1) throw new Error(`compare.mjs failed (exit ${result.status}):\n${result.stdout}${result.stderr}`);
      const different = result.stdout.split('\n').filter((line) => line.startsWith('  ')).map((line) => line.trim());
      const names = new Set(only ?? this.reads.map((q) => q.name));
      return { compared: Number(summary[2]), equal: Number(summary[1]), different, asOnSqlite: asOnSqlite.filter((name) => names.has(name)).length };
    });
  }

  /** Runs a script of the conformance kit with this run's environment; throws with its output's tail when it fails. */
  kitScript(script, env) {
    const result = spawnSync(process.execPath, [join(kit, script)], { env: { ...this.env, ...env }, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (result.status === 0) return result.stdout;
    const output = `${result.stdout}${result.stderr}`;
    // seed.mjs's message for a refused request: "POST /api/upload -> 501: {...}\nbody: {...}"
    const refused = /^(GET|POST|PUT|DELETE) \S+ -> \d+.*$/m.exec(output);
    if (refused) throw new RequestRefused(script, refused[0].slice(0, 600), output);
    throw new Error(`${script} failed (exit ${result.status}):\n${output.slice(-3000)}`);
  }

  /** Stops a server still running and drops the database (or keeps it with `keep`); the folder is the caller's. */
  async close() {
    if (this.server) await stop(this.server).catch((error) => this.log(`  cleanup: ${error.message}`));
    this.server = undefined;
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        this.log(`  cleanup: ${error.message}`);
      }
    }
  }
}

/** The database's layout as db-layout.mjs prints it (also written to `out`); `native`: with each column's native type. */
export function dumpLayout(dialect, target, out, { native = false } = {}) {
  const args = [join(repo, 'scripts', 'db-layout.mjs'), '--client', dialect, target, ...(native ? ['--native'] : []), '--out', out];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`db-layout.mjs failed:\n${result.stdout}${result.stderr}`);
  return readFileSync(out, 'utf8');
}

/** The lines only one of two layout dumps has (db-layout.mjs puts one column, index or key per line). */
export function lineDiff(before, after) {
  const a = new Set(before.split('\n'));
  const b = new Set(after.split('\n'));
  return [...[...a].filter((l) => !b.has(l)).map((l) => `- ${l.trim()}`), ...[...b].filter((l) => !a.has(l)).map((l) => `+ ${l.trim()}`)];
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
