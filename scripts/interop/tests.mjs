// The interop tests, each a sequence of the steps of steps.mjs on one dialect. None throws for a difference:
// differences are in the result; a step that fails (a server that does not start, a script that crashes) throws.
import { join } from 'node:path';
import { exchange, sessionsExchange, WriteRefused } from './concurrent.mjs';
import { createdDatabaseCase } from './created-database.mjs';
import { dumpLayout, kit, lineDiff, readJson, repo, RequestRefused, SECRETS } from './steps.mjs';

export const WRITE_DEVIATIONS = join(repo, 'test', 'interop', 'write-deviations.json');

/**
 * Test 1: Strapi makes and seeds the database and records the reads; Cairn starts on it and records the same reads;
 * the two recordings must be equal (under Cairn's read deviations) and the layout unchanged by Cairn.
 * Returns { layoutUnchanged, layoutDiff?, reads: comparison, strapiRecording, strapiRows } (the recording's folder
 * and the rows per table after Strapi's seed and Cairn's start: what test 3 compares with).
 */
export async function strapiWritesCairnReads(run) {
  const result = {};
  await run.prepare();
  await run.startStrapi('strapi start');
  await run.seed('strapi seed');
  result.strapiRecording = await run.record('strapi record', 'strapi');
  await run.stopServer('strapi stop');

  const before = await run.layout('layout before', 'before');
  await run.startCairn('cairn start');
  const cairnRecording = await run.record('cairn record', 'cairn');
  await run.stopServer('cairn stop');
  const after = await run.layout('layout after', 'after');
  Object.assign(result, layoutCheck(before, after));
  // counted after Cairn's start, as in test 3: a start writes rows of its own (config/permissions makes each role
  // hold exactly the actions it lists: Strapi's default users-permissions grants go)
  result.strapiRows = await run.rowCounts('row counts', after);

  result.reads = await run.compare('compare', { reference: result.strapiRecording, actual: cairnRecording, ...cairnReadDeviations(run.dialect) });
  return result;
}

/**
 * Test 3: Strapi makes the tables and issues the token, and stops unseeded; Cairn starts on the database, seed.mjs
 * writes everything through Cairn's REST API, Cairn records the reads and stops; the layout must be unchanged; Strapi
 * starts again and records the same reads. Compared: Strapi's reads with Cairn's (the same rows: under Cairn's read
 * deviations), and Strapi's reads of the Cairn-seeded database with test 1's Strapi reads of the Strapi-seeded one,
 * and the number of rows in each table after the two seeds (`strapiSeeded`: test 1's result, or undefined when test 1
 * did not run: then these two comparisons are skipped); of these two, only the differences listed in
 * test/interop/write-deviations.json, exactly, are accepted.
 * Returns { seedRefused?, layoutUnchanged, layoutDiff?, reads?, seeds?, rows? }.
 */
export async function cairnWritesStrapiReads(run, strapiSeeded) {
  const result = {};
  await run.prepare();
  await run.startStrapi('strapi start (tables)');
  await run.stopServer('strapi stop');

  const before = await run.layout('layout before', 'before');
  await run.startCairn('cairn start');
  let cairnRecording;
  try {
    await run.seed('cairn seed');
    cairnRecording = await run.record('cairn record', 'cairn');
  } catch (error) {
    if (!(error instanceof RequestRefused)) throw error;
    // Strapi answered this same request in test 1's seed: Cairn's refusal is a difference, not a harness fault.
    result.seedRefused = error.request;
  }
  await run.stopServer('cairn stop');
  // checked even when the seed stopped half-way: Cairn must never alter Strapi's tables
  const after = await run.layout('layout after', 'after');
  Object.assign(result, layoutCheck(before, after));
  if (result.seedRefused) return result;
  const cairnRows = await run.rowCounts('row counts', after);

  await run.startStrapi('strapi restart');
  const strapiRecording = await run.record('strapi record', 'strapi');
  await run.stopServer('strapi stop');

  result.reads = await run.compare('compare same db', { reference: strapiRecording, actual: cairnRecording, ...cairnReadDeviations(run.dialect) });
  if (strapiSeeded?.strapiRecording) {
    const seeds = await run.compare('compare seeds', { reference: strapiSeeded.strapiRecording, actual: strapiRecording });
    result.seeds = acceptListed(seeds, 'reads', run.dialect);
  }
  if (strapiSeeded?.strapiRows) result.rows = acceptListed(compareRows(strapiSeeded.strapiRows, cairnRows), 'rows', run.dialect);
  return result;
}

/**
 * Test 4: Strapi makes the tables of a fresh database and issues the token, and keeps running; Cairn starts beside it
 * on the same database; in turns each writes through its REST API and right after both answer the same reads
 * (concurrent.mjs), compared with compare.mjs: Cairn's answer must equal Strapi's (no read deviation applies: this
 * data is neither the kit's seed nor its queries), and no line of Strapi's log may say `error`. Returns { reads:
 * comparison, strapiErrors, writeRefused? } (a write Cairn refused, with its answer; one Strapi refuses is a fault of
 * the test and throws).
 */
export async function strapiAndCairnAtOnce(run) {
  const result = {};
  await run.prepare();
  // Both servers in users-permissions' "refresh" mode: the sessions one opens, the other refreshes and ends.
  run.env = { ...run.env, UP_JWT_MANAGEMENT: 'refresh' };
  const strapi = await run.startStrapi('strapi start (tables)');
  const cairn = await run.startCairnBeside('cairn start beside');
  const out = join(run.dir, 'exchange');
  let exchanged;
  try {
    exchanged = await run.step('writes and reads', () => exchange({ servers: { strapi, cairn }, token: run.token, dir: out }));
    const sessions = await run.step('sessions', () => sessionsExchange({ servers: { strapi, cairn }, dir: out }));
    result.sessions = { checks: sessions.checks, failures: sessions.failures };
    exchanged.names.push(...sessions.names);
    Object.assign(exchanged.requests, sessions.requests);
  } catch (error) {
    if (!(error instanceof WriteRefused) || error.server !== 'cairn') throw error;
    result.writeRefused = error.message;
  }
  await run.stopBeside('cairn stop', cairn);
  await run.stopServer('strapi stop');
  // as in test 2: Strapi must not stumble on what Cairn wrote beside it (its log level is warn)
  result.strapiErrors = strapi.log.split('\n').filter((line) => /\berror\b/i.test(line));
  if (result.writeRefused) return result;
  const reads = await run.compare('compare', { reference: join(out, 'strapi'), actual: join(out, 'cairn'), names: exchanged.names });
  // each difference with the exchange that led to it
  reads.different = reads.different.map((line) => `${line} [${exchanged.requests[line.slice(0, line.indexOf(':'))]}]`);
  result.reads = reads;
  return result;
}

/**
 * Test 2: Cairn creates the database, Strapi starts on it and writes, Cairn serves it (created-database.mjs, which
 * takes its steps as functions: the run's step timer and cleanups, a layout dump with native types).
 */
export async function cairnCreatesStrapiWrites(run) {
  run.prepareApps();
  const cleanups = { add: (fn) => run.cleanups.push(fn) };
  const layout = (dialect, target, out) => dumpLayout(dialect, target, out, { native: true });
  const result = await createdDatabaseCase({ dialect: run.dialect, work: run.dir, repo, secrets: SECRETS, layout, step: (label, fn) => run.step(label, fn), cleanups, keep: run.keep });
  run.log(`  tables Strapi added: ${result.tablesAdded.length}, changed: ${result.tablesChanged.length ? result.tablesChanged.join(', ') : 'none'}; rows of Cairn's it changed: ${result.rowsChanged.length}; errors in Strapi's log: ${result.strapiErrors.length}; ${result.compared} reads compared, ${result.different.length} different`);
  return result;
}

function layoutCheck(before, after) {
  return before === after ? { layoutUnchanged: true } : { layoutUnchanged: false, layoutDiff: lineDiff(before, after) };
}

/**
 * The deviations scripts/conformance.mjs uses for REST (the kit's and test/conformance/rest's: where Cairn differs on
 * purpose), and test/strapi-db/deviations.json's for this dialect: where Strapi's answer depends on the database (NULL
 * order, a 500 on PostgreSQL) and Cairn's does not, Cairn answers what Strapi answers on SQLite, which for a fresh
 * seed is the kit's golden (recorded by Strapi on SQLite). As { deviations, overrides } for `InteropRun.compare`.
 */
function cairnReadDeviations(dialect) {
  const deviations = { ...readJson(join(kit, 'deviations.json')), ...readJson(join(repo, 'test', 'conformance', 'rest', 'deviations.json')) };
  const byDatabase = readJson(join(repo, 'test', 'strapi-db', 'deviations.json'))[dialect] ?? {};
  for (const [name, { sameAs }] of Object.entries(byDatabase)) {
    if (sameAs !== 'sqlite') throw new Error(`test/strapi-db/deviations.json: ${name} is the same as Strapi on ${sameAs}; only SQLite's fresh-seed answers are recorded (the kit's goldens)`);
    deviations[name] = { override: true };
  }
  return {
    deviations,
    overrides: [[join(kit, 'overrides')], [join(repo, 'test', 'conformance', 'rest', 'overrides')], [join(kit, 'goldens'), Object.keys(byDatabase)]],
    asOnSqlite: Object.keys(byDatabase),
  };
}

/** Rows per table after the two seeds, as a comparison: "table: n (Strapi-seeded) vs m (Cairn-seeded)" per difference. */
function compareRows(reference, actual) {
  const tables = [...new Set([...Object.keys(reference), ...Object.keys(actual)])].sort();
  const different = tables.filter((t) => reference[t] !== actual[t]).map((t) => `${t}: ${reference[t] ?? 'no table'} (Strapi-seeded) vs ${actual[t] ?? 'no table'} (Cairn-seeded)`);
  return { compared: tables.length, equal: tables.length - different.length, different };
}

/**
 * Splits a comparison's differences into those the `section` ("reads" or "rows") of
 * test/interop/write-deviations.json lists for this dialect with exactly this difference (a deliberate Cairn
 * difference, with its reason) and the rest. An entry whose difference did not occur is reported as stale.
 */
function acceptListed(comparison, section, dialect) {
  const listed = Object.entries(readJson(WRITE_DEVIATIONS)[section] ?? {}).filter(([, d]) => !d.dialects || d.dialects.includes(dialect));
  const expected = new Map(listed.map(([name, d]) => [`${name}: ${d.differs}`, d.why]));
  const accepted = comparison.different.filter((line) => expected.has(line));
  const stale = [...expected.keys()].filter((line) => !accepted.includes(line));
  return { ...comparison, different: comparison.different.filter((line) => !expected.has(line)), accepted, stale };
}
