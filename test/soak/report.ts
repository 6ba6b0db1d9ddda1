import { existsSync, readFileSync } from 'node:fs';
import type { Violation, ViolationKind } from './check.js';
import type { Cluster } from './cluster.js';
import { GRACE_MS, RECOVERY_LIMIT_MS, type FaultRecord } from './faults.js';
import { seconds, type Ledger, type OpRecord } from './ledger.js';

/** Violations found, each counted once however many checks and processes saw it. */
export class Findings {
  private readonly byKey = new Map<string, { violation: Violation; seen: Set<string> }>();

  add(violation: Violation, where: string): void {
    const known = this.byKey.get(violation.key);
    if (known) known.seen.add(where);
    else this.byKey.set(violation.key, { violation, seen: new Set([where]) });
  }

  get size(): number {
    return this.byKey.size;
  }

  count(kind: ViolationKind): number {
    return [...this.byKey.values()].filter((f) => f.violation.kind === kind).length;
  }

  /** A few lines for each violation, grouped by kind, at most `perKind` of each. */
  details(perKind = 8): string[] {
    const lines: string[] = [];
    const kinds: ViolationKind[] = ['crash', 'recovery', '5xx', 'lost', 'duplicated', 'misordered', 'partial', 'inconsistent'];
    for (const kind of kinds) {
      const found = [...this.byKey.values()].filter((f) => f.violation.kind === kind);
      for (const { violation, seen } of found.slice(0, perKind)) {
        const [first, ...rest] = violation.lines;
        lines.push(`VIOLATION ${kind}: ${first}`, ...rest.map((l) => `    ${l}`), `    (seen ${[...seen].join('; ')})`);
      }
      if (found.length > perKind) lines.push(`VIOLATION ${kind}: ... and ${found.length - perKind} more`);
    }
    return lines;
  }
}

const overlaps = (op: OpRecord, from: number, to: number) => op.sentAt <= to && op.endAt >= from;

export function faultWindows(faults: FaultRecord[], end: number): Array<[number, number]> {
  return faults.map((f) => [f.startedAt, (f.recoveredAt ?? end) + GRACE_MS]);
}

/** The log line Cairn wrote for a 5xx it answered: the one for that request nearest in time. */
const logLines = new Map<string, string[]>();

export function loggedCause(cluster: Cluster, op: OpRecord): string {
  const log = cluster.processes[op.process]?.logs[op.incarnation];
  if (!log || !existsSync(log)) return 'no log';
  if (!logLines.has(log)) logLines.set(log, readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"statusCode":5')));
  let best: { distance: number; text: string } | null = null;
  for (const line of logLines.get(log)!) {
    if (!line.startsWith('{') || !line.includes('"statusCode":5')) continue;
    try {
      const entry = JSON.parse(line) as { time: number; req?: { method: string; url: string }; err?: { message?: string; code?: string; type?: string } };
      if (entry.req?.method !== op.method || entry.req.url !== op.path) continue;
      const distance = Math.abs(entry.time - op.wallEnd);
      if (!best || distance < best.distance) best = { distance, text: `${entry.err?.type ?? 'Error'}${entry.err?.code ? ` ${entry.err.code}` : ''}: ${entry.err?.message ?? '?'}` };
    } catch {
      // a line cut short
    }
  }
  return best ? `${best.text} (${log})` : `not found in ${log}`;
}

/**
 * 5xx answers outside every fault window; crashes; slow recoveries. `byCause` counts the 5xx by route and the
 * cause Cairn logged.
 */
export function runViolations(ledger: Ledger, cluster: Cluster, faults: FaultRecord[], end: number, byCause: Map<string, number>): Violation[] {
  const violations: Violation[] = [];
  const windows = faultWindows(faults, end);
  for (const op of ledger.ops) {
    if (op.status === null || op.status < 500) continue;
    if (windows.some(([from, to]) => overlaps(op, from, to))) continue;
    const cause = loggedCause(cluster, op);
    violations.push({ kind: '5xx', key: `5xx:${op.id}`, lines: [ledger.describe(op), `server's cause: ${cause}`] });
    const route = `${op.status} ${op.method} ${op.path.replace(/\?.*/, '').replace(/\/[a-z0-9]{24}(?=\/|$)/g, '/:id')}`;
    // Quoted values (a duplicate entry's key) vary: left out, so one cause is one line.
    const group = `${route}: ${cause.replace(/ \(\/.*\)$/, '').replace(/'[^']*'/g, "'…'").slice(0, 160)}`;
    byCause.set(group, (byCause.get(group) ?? 0) + 1);
  }
  for (const crash of cluster.crashes) {
    const log = existsSync(crash.log) ? readFileSync(crash.log, 'utf8').trim().split('\n') : [];
    violations.push({
      kind: 'crash',
      key: `crash:${crash.process}:${crash.incarnation}`,
      lines: [`process ${crash.process} exited on its own at ${seconds(crash.at)} (code ${crash.code}, signal ${crash.signal}); last lines of ${crash.log}:`, ...log.slice(-4).map((l) => l.slice(0, 400))],
    });
  }
  for (const fault of faults) {
    const took = fault.recoveredAt === null ? null : fault.recoveredAt - fault.endedAt;
    if (took === null || took > RECOVERY_LIMIT_MS) {
      violations.push({ kind: 'recovery', key: `recovery:${fault.startedAt}`, lines: [`after ${fault.kind} at ${seconds(fault.startedAt)} (${fault.detail}): ${took === null ? 'the processes did not all answer /_health 204 within 30 s' : `every process answered /_health 204 only ${seconds(took)} after the fault's end`} (limit ${seconds(RECOVERY_LIMIT_MS)})`] });
    }
  }
  return violations;
}

/** The statuses answered inside fault windows, e.g. "503:41,500:2" (expected there; shown for information). */
export function statusesInFaults(ledger: Ledger, faults: FaultRecord[], end: number): string {
  const windows = faultWindows(faults, end);
  const counts = new Map<number, number>();
  for (const op of ledger.ops) {
    if (op.status === null || op.status < 500 || !windows.some(([from, to]) => overlaps(op, from, to))) continue;
    counts.set(op.status, (counts.get(op.status) ?? 0) + 1);
  }
  return [...counts].map(([status, n]) => `${status}:${n}`).join(',') || 'none';
}
