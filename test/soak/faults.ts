import type { PrivateServer } from '../helpers/private-server.js';
import type { Cluster } from './cluster.js';
import { now } from './ledger.js';
import type { FaultKind } from './options.js';
import type { Random } from './random.js';

export interface FaultRecord {
  kind: FaultKind;
  detail: string;
  startedAt: number;
  /** When the fault was over: the killed process started again, the database started again, the connections cut. */
  endedAt: number;
  /** When every process answered /_health 204 again (null: not within the wait). */
  recoveredAt: number | null;
}

/** A 5xx within a fault window (its start until the processes answer again, plus this) is expected. */
export const GRACE_MS = 2000;
/** Every process must answer /_health 204 within this of a fault's end. */
export const RECOVERY_LIMIT_MS = 5000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Injects one fault; the record is pushed at once (its window open) and completed as the fault goes. */
export async function injectFault(kind: FaultKind, cluster: Cluster, server: PrivateServer | null, rng: Random, faults: FaultRecord[]): Promise<FaultRecord> {
  const record: FaultRecord = { kind, detail: '', startedAt: now(), endedAt: Infinity, recoveredAt: null };
  faults.push(record);
  if (kind === 'kill') {
    const p = rng.pick(cluster.processes)!;
    record.detail = `kill -9 of process ${p.index} (pid ${p.child?.pid}), restarted 1 s later`;
    await cluster.kill(p);
    await sleep(1000);
    cluster.spawn(p);
  } else if (kind === 'db_restart') {
    record.detail = `${server!.dialect} stopped (fast shutdown), down 3 s, started`;
    await server!.stop();
    await sleep(3000);
    await server!.start();
  } else {
    const cut = await terminateConnections(server!);
    record.detail = `${cut} of Cairn's connections cut (${server!.dialect === 'postgres' ? 'pg_terminate_backend' : 'KILL'})`;
  }
  record.endedAt = now();
  const took = await cluster.waitHealthy(cluster.processes, 30_000);
  record.recoveredAt = took === null ? null : now();
  return record;
}

/** Every connection to the soak's database but the admin's own. */
async function terminateConnections(server: PrivateServer): Promise<number> {
  if (server.dialect === 'postgres') {
    const rows = await server.admin<{ done: boolean }>(`SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = 'cairn' AND pid <> pg_backend_pid()`);
    return rows.filter((r) => r.done).length;
  }
  const ids = await server.admin<{ id: number }>(`SELECT id FROM information_schema.processlist WHERE db = 'cairn' AND id <> CONNECTION_ID()`);
  let cut = 0;
  for (const { id } of ids) {
    try {
      await server.admin(`KILL ${id}`);
      cut++;
    } catch {
      // closed meanwhile
    }
  }
  return cut;
}
