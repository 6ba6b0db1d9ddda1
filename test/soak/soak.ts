/**
 * `npm run soak`: N Cairn processes on one database, concurrent clients writing and reading through all of them,
 * faults on a schedule (kill -9 of a process, a database restart, connections cut), and a ledger of what was
 * acknowledged, checked through every process after each fault and at the end. Prints one summary line last and
 * exits 1 on any violation. See README.md, "Soak test".
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../cli/build.js';
import { privateServerProblem, startPrivateMariadb, startPrivatePostgres, type PrivateServer } from '../helpers/private-server.js';
import type { DatabaseConfig } from '../../src/database/types.js';
import { Evaluation, compareSnapshots } from './check.js';
import { Cluster, writeApp } from './cluster.js';
import { injectFault, GRACE_MS, type FaultRecord } from './faults.js';
import { Gate } from './gate.js';
import { Ledger, now, seconds } from './ledger.js';
import { parseOptions, USAGE, type SoakOptions } from './options.js';
import { Random } from './random.js';
import { Findings, runViolations, statusesInFaults } from './report.js';
import { readSnapshot } from './snapshot.js';
import { Client, setup, type Env } from './workload.js';
import { World } from './world.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(`[${seconds(now()).padStart(7)}] ${line}`);

let cleanup: (() => Promise<void>) | null = null;
/** The cleanup under way: a second signal (npm forwards the terminal's Ctrl-C too) waits for it. */
let cleaning: Promise<void> | null = null;
const cleanUp = (): Promise<void> => (cleaning ??= cleanup ? cleanup() : Promise.resolve());

async function main(): Promise<number> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let options: SoakOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`soak: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (options.db !== 'sqlite') {
    const problem = privateServerProblem(options.db);
    if (problem) throw new Error(`no private ${options.db} server can run here: ${problem}`);
  }
  ensureBuilt();

  // Everything of the run lives in one folder: the app, the SQLite file or the private server, the logs.
  const root = mkdtempSync(join(tmpdir(), 'cairn-soak-'));
  chmodSync(root, 0o711); // a private PostgreSQL runs as `postgres` from a folder inside
  process.env.TMPDIR = root;
  const logDir = join(root, 'logs');
  let server: PrivateServer | null = null;
  let cluster: Cluster | null = null;
  let keepLogs = false;
  cleanup = async () => {
    cluster?.killAllNow();
    await cluster?.stop();
    if (server && options.keep) await server.stop().catch(() => {});
    else await server?.destroy().catch(() => {});
    if (options.keep) return;
    if (keepLogs) rmSync(join(root, 'app'), { recursive: true, force: true });
    else rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };

  say(`soak: db=${options.db} processes=${options.processes} clients=${options.clients} duration=${options.duration}s seed=${options.seed} faults=${options.faults.map((f) => `${f.kind}@${f.at.toFixed(0)}`).join(',') || 'none'}; folder ${root}`);
  if (options.db === 'postgres') server = await startPrivatePostgres();
  else if (options.db === 'mysql') server = await startPrivateMariadb();
  const database: DatabaseConfig = server ? { connection: { ...server.config.connection } } : { connection: { client: 'sqlite', connection: { filename: '.tmp/data.db' } } };
  const appDir = join(root, 'app');
  writeApp(appDir, database);
  cluster = new Cluster(appDir, logDir);
  await cluster.start(options.processes);
  const env: Env = { cluster, ledger: new Ledger(), world: new World(), gate: new Gate() };
  await setup(env, options.clients);
  say(`${options.processes} processes up, setup done; ${options.clients} clients start`);

  const findings = new Findings();
  const faults: FaultRecord[] = [];
  const check = async (label: string) => {
    const snapshots = [];
    for (const p of cluster!.processes) {
      try {
        snapshots.push(await readSnapshot(p, env.ledger));
      } catch (error) {
        findings.add({ kind: 'inconsistent', key: `unreadable:${label}:${p.index}`, lines: [`could not read the data through process ${p.index}: ${(error as Error).message}`] }, label);
      }
    }
    const before = findings.size;
    if (snapshots.length) for (const v of compareSnapshots(snapshots)) findings.add(v, label);
    for (const snapshot of snapshots) {
      for (const v of new Evaluation(env.world, env.ledger, snapshot).run()) findings.add(v, `${label} through process ${snapshot.process}`);
    }
    say(`check ${label}: ${findings.size - before} new violation(s)`);
  };

  const startedAt = now();
  const endAt = startedAt + options.duration * 1000;
  let stopping = false;
  const clients = Array.from({ length: options.clients }, (_, i) => new Client(env, i, options.seed));
  const running = clients.map((c) => c.run(() => stopping || now() >= endAt));
  const faultRng = new Random(options.seed + 7);
  const faultLoop = (async () => {
    for (const plan of options.faults) {
      const wait = startedAt + plan.at * 1000 - now();
      if (wait > 0) await sleep(wait);
      if (stopping) return;
      const fault = await injectFault(plan.kind, cluster!, server, faultRng, faults);
      const recovery = fault.recoveredAt === null ? 'not recovered within 30 s' : `all processes healthy ${seconds(fault.recoveredAt - fault.endedAt)} after its end`;
      say(`fault ${fault.kind}: ${fault.detail}; ${recovery}`);
      await sleep(GRACE_MS);
      await env.gate.pause();
      try {
        await check(`after ${fault.kind} at ${seconds(fault.startedAt)}`);
      } finally {
        env.gate.resume();
      }
    }
  })();
  await Promise.all(running);
  stopping = true;
  await faultLoop;
  const end = now();
  const healthy = await cluster.waitHealthy(cluster.processes, 30_000);
  if (healthy === null) say('not every process answers /_health at the end');
  await check('at the end');

  const byCause = new Map<string, number>();
  for (const v of runViolations(env.ledger, cluster, faults, end, byCause)) findings.add(v, 'the run');
  const ops = env.ledger.ops.filter((op) => op.client >= 0);
  const writes = ops.filter((op) => op.write);
  const count = (outcome: string) => writes.filter((op) => op.outcome === outcome).length;
  const faultCounts = new Map<string, number>();
  for (const f of faults) faultCounts.set(f.kind, (faultCounts.get(f.kind) ?? 0) + 1);
  const recoveries = faults.map((f) => (f.recoveredAt === null ? Infinity : f.recoveredAt - f.endedAt));
  for (const f of faults) say(`fault ${f.kind} at ${seconds(f.startedAt)}: ${f.detail}; recovery ${f.recoveredAt === null ? 'none within 30 s' : seconds(f.recoveredAt - f.endedAt)}`);
  say(`5xx inside fault windows (expected there): ${statusesInFaults(env.ledger, faults, end)}; reads ${ops.length - writes.length}, writes ${writes.length}`);
  for (const line of findings.details()) console.log(line);
  if (byCause.size) console.log(`5xx outside faults by cause:\n${[...byCause].sort((a, b) => b[1] - a[1]).map(([cause, n]) => `  ${String(n).padStart(5)} ${cause}`).join('\n')}`);
  keepLogs = findings.size > 0;
  if (keepLogs || options.keep) {
    // Every request with its outcome, one JSON object a line: what a violation's few lines leave out.
    writeFileSync(join(logDir, 'ledger.jsonl'), env.ledger.ops.map((op) => JSON.stringify(op)).join('\n') + '\n');
    writeFileSync(join(logDir, 'violations.txt'), findings.details(Infinity).join('\n') + '\n');
    console.log(`Cairn's logs (stdout and stderr of each process), the ledger (ledger.jsonl) and every violation (violations.txt): ${logDir}`);
  }
  const summary = [
    `soak: db=${options.db} processes=${options.processes} clients=${options.clients} duration=${options.duration}s seed=${options.seed}`,
    `ops=${ops.length} acknowledged=${count('ack')} unacknowledged=${count('unacked')} rejected=${count('rejected')}`,
    `lost=${findings.count('lost')} duplicated=${findings.count('duplicated')} misordered=${findings.count('misordered')} partial=${findings.count('partial')}`,
    `inconsistent=${findings.count('inconsistent')} 5xx_outside_faults=${findings.count('5xx')} crashes=${findings.count('crash')} slow_recoveries=${findings.count('recovery')}`,
    `faults=${[...faultCounts].map(([k, n]) => `${k}:${n}`).join(',') || 'none'} recovery_max=${recoveries.length ? (Math.max(...recoveries) === Infinity ? 'none' : seconds(Math.max(...recoveries))) : '-'}`,
  ].join(' ');
  await cleanUp();
  console.log(summary);
  return findings.size ? 1 : 0;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cleaning) return;
    process.stderr.write(`soak: ${signal}, cleaning up\n`);
    void cleanUp().finally(() => process.exit(130));
  });
}

main().then(
  (code) => process.exit(code),
  async (error) => {
    process.stderr.write(`soak: ${(error as Error).stack ?? error}\n`);
    await cleanUp().catch(() => {});
    process.exit(1);
  },
);
