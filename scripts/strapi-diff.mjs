#!/usr/bin/env node
// The differential read test: real Strapi 5 and Cairn on one SQLite database (Strapi makes and seeds it with the
// conformance kit's seed.mjs, as the interop test `served` does; then Cairn starts beside Strapi, as in test 4), and
// seeded random GET requests over the conformance model sent to both (scripts/interop/differential.mjs makes them).
// Each pair of answers is compared: the status; for a 200 the whole body (object member order aside), the top-level
// list as a multiset by documentId when the request gives no sort; for an error the status, error.name and
// error.message. A differing request is minimised (parts of its query removed while it differs the same way), and the
// differences are grouped by the features the minimised request uses.
//
//   npm run test:strapi-diff -- [--requests 1000] [--seed 123] [--out /tmp/diff-report.json] [--keep]
//                               [--minimise-budget n]
//
// --requests: how many requests (default 1000); --seed: the generator's seed (default 123; the same seed sends the
// same requests to the same seed data); --out: where every differing case goes, as JSON (default
// /tmp/diff-report.json); --keep: keep the temp folder (database, apps) and print where; --minimise-budget: at most
// this many extra request pairs to minimise with (default: as many as --requests). Uses dist/ as it is (no build).
// Env: CAIRN_STRAPI_CACHE (the Strapi install cache's root, default ~/.cache/cairn-strapi).
// Prints the groups as a table, then one summary line; exits 1 when a request differs or timed out, 2 on a failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, discover, excerpt, features, generateRequests, group, loadModel, minimise, ordered, send } from './interop/differential.mjs';
import { strapiInstallOrExit } from './interop/install.mjs';
import { FIXTURE_APP } from './interop/strapi-app.mjs';
import { fmt, InteropRun, kit, readRequests } from './interop/steps.mjs';

const TIMEOUT_MS = 20_000;
const options = parseArgs(process.argv.slice(2));
const started = Date.now();

const install = strapiInstallOrExit(FIXTURE_APP, fmt);

const work = mkdtempSync(join(tmpdir(), 'cairn-strapi-diff-'));
// `reads` are only written beside the apps by prepare(); this harness sends its own requests
const run = new InteropRun({ dialect: 'sqlite', dir: work, install, reads: readRequests(), keep: options.keep, dbSuffix: '', log: console.log });
const cleanup = async () => {
  await run.close();
  if (options.keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    console.log(`\n${signal}: cleaning up`);
    cleanup().finally(() => process.exit(130));
  });
}

let exitCode = 2;
let summaryLine;
try {
  ({ exitCode, summaryLine } = await main());
} catch (error) {
  console.error(`FAILED: ${error.message.slice(0, 6000)}`);
} finally {
  await cleanup();
}
// the summary line last, after the cleanup's lines
if (summaryLine) console.log(summaryLine);
process.exit(exitCode);

async function main() {
  await run.prepare();
  const strapi = await run.startStrapi('strapi start');
  await run.seed('strapi seed');
  // beside Strapi on the same file: both only read from here on
  const cairn = await run.startCairnBeside('cairn start beside');
  const token = run.token;
  const dead = () => [['Strapi', strapi], ['Cairn', cairn]].find(([, p]) => p.child.exitCode !== null || p.child.signalCode !== null);
  const both = async (request) => {
    const [a, b] = await Promise.all([send(strapi.url, token, request.path, TIMEOUT_MS), send(cairn.url, token, request.path, TIMEOUT_MS)]);
    const gone = dead();
    if (gone) throw new Error(`${gone[0]} exited during ${request.path}:\n${gone[1].log.slice(-3000)}`);
    // a server that timed out may still be working on it: wait until it answers again, so the next request is not
    // timed behind it
    if (a.timeout) await settle(strapi.url, token);
    if (b.timeout) await settle(cairn.url, token);
    return { a, b };
  };

  const model = loadModel(kit);
  const found = await run.step('discovery', () => discover({ base: strapi.url, token, model }));
  const { requests, skipped } = generateRequests({ seed: options.seed, count: options.requests, model, found });
  console.log(`  ${requests.length} requests generated (seed ${options.seed}; ${skipped} skipped: over 2 KB or a page size over 100)`);

  const counts = { equal: 0, differ: 0, strapi5xx: 0, cairn5xx: 0, timeouts: 0 };
  const differing = [];
  const timeouts = [];
  await run.step('requests', async () => {
    for (const [i, request] of requests.entries()) {
      const { a, b } = await both(request);
      if (a.status >= 500) counts.strapi5xx++;
      if (b.status >= 500) counts.cairn5xx++;
      const result = compare(request, a, b);
      if (a.timeout || b.timeout) {
        counts.timeouts++;
        timeouts.push({ i, path: request.path, kind: result.kind, strapi: summary(a), cairn: summary(b) });
      } else if (result.equal) counts.equal++;
      else {
        counts.differ++;
        differing.push({ i, request, a, b, result });
      }
      if ((i + 1) % 100 === 0) console.log(`    ${i + 1}/${requests.length}: ${counts.equal} equal, ${counts.differ} differ, ${counts.timeouts} timeouts`);
    }
  });

  // minimised one at a time, shortest first, so the cheap ones use the budget first
  const budget = { perCase: 40, left: options.minimiseBudget ?? options.requests };
  const cases = await run.step('minimise', async () => {
    const out = [];
    for (const d of [...differing].sort((p, q) => p.request.path.length - q.request.path.length)) {
      const small = await minimise(d.request, d.result.kind, async (candidate) => {
        const { a, b } = await both(candidate);
        return { ...compare(candidate, a, b), a, b };
      }, budget);
      const repro = small.last ?? { ...d.result, a: d.a, b: d.b };
      out.push({
        i: d.i,
        path: d.request.path,
        minimised: small.path,
        minimisedComplete: small.complete,
        route: d.request.route,
        type: d.request.plural,
        kind: d.result.kind,
        cause: features(model, small),
        // the top-level list was compared as a multiset by documentId (the request gives no sort)
        sortFree: !ordered(d.request),
        strapi: summary(d.a),
        cairn: summary(d.b),
        diff: d.result.diff,
        reproduction: { path: small.path, strapi: summary(repro.a), cairn: summary(repro.b), diff: repro.diff },
      });
    }
    return out.sort((p, q) => p.i - q.i);
  });

  const groups = group(cases);
  const line = `strapi-diff: requests=${requests.length} equal=${counts.equal} differ=${counts.differ} strapi_5xx=${counts.strapi5xx} cairn_5xx=${counts.cairn5xx} timeouts=${counts.timeouts} seed=${options.seed}`;
  writeFileSync(options.out, JSON.stringify({
    summary: line,
    seed: options.seed,
    requests: requests.length,
    skipped,
    counts,
    minimiseBudgetLeft: budget.left,
    notes: [
      'a 200 body is compared whole, object member order aside; a request without a top-level sort has its top-level data list compared as a multiset by documentId (its `sortFree` is true)',
      'errors compare status, error.name and error.message',
      'cause = the features of the minimised request (parts removed while the difference kept its kind)',
    ],
    groups: groups.map((g, n) => ({ n: n + 1, count: g.count, kind: g.kind, cause: g.cause, example: g.example })),
    cases,
    timeouts,
  }, null, 2));

  console.log(`\n${groups.length} groups of differing requests (kind | cause: the features of the minimised request; example: the shortest, minimised):`);
  console.log('| # | n | kind | cause | shortest example |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [n, g] of groups.entries()) console.log(`| ${n + 1} | ${g.count} | ${g.kind} | ${g.cause.join('; ')} | \`${g.example.minimised}\` |`);
  for (const t of timeouts) console.log(`timeout: ${t.path} (${t.kind})`);
  console.log(`\nall ${cases.length} differing cases: ${options.out}; total ${fmt(Date.now() - started)}`);
  return { exitCode: counts.differ || counts.timeouts ? 1 : 0, summaryLine: line };
}

/** Waits (up to 5 minutes) until the server answers a small list in under 5 s. */
async function settle(base, token) {
  const t0 = Date.now();
  while (Date.now() - t0 < 300_000) {
    const answer = await send(base, token, '/api/dishes?pagination[pageSize]=1', 5_000);
    if (!answer.timeout && answer.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`${base} did not answer again within 5 minutes of a timeout`);
}

/** An answer as the report keeps it: status, time, and the body's start. */
function summary(x) {
  return x.timeout ? { timeout: true, ms: x.ms } : { status: x.status, ms: x.ms, body: excerpt(x.body, 600) };
}

function parseArgs(args) {
  const parsed = { requests: 1000, seed: 123, out: '/tmp/diff-report.json', keep: false, minimiseBudget: undefined };
  const usage = 'usage: npm run test:strapi-diff -- [--requests 1000] [--seed 123] [--out /tmp/diff-report.json] [--keep] [--minimise-budget n]';
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split(/=(.*)/s);
    const value = () => inline ?? args[++i];
    if (name === '--requests') parsed.requests = Number(value());
    else if (name === '--seed') parsed.seed = Number(value());
    else if (name === '--out') parsed.out = value();
    else if (name === '--minimise-budget') parsed.minimiseBudget = Number(value());
    else if (name === '--keep') parsed.keep = true;
    else fail(`unknown argument ${args[i]}\n${usage}`);
  }
  for (const key of ['requests', 'seed']) if (!Number.isInteger(parsed[key]) || parsed[key] < 0) fail(`--${key} takes a whole number\n${usage}`);
  if (parsed.minimiseBudget !== undefined && !(parsed.minimiseBudget >= 0)) fail(`--minimise-budget takes a whole number\n${usage}`);
  if (!parsed.out) fail(`--out takes a file name\n${usage}`);
  return parsed;
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
