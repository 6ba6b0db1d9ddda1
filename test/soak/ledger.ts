/**
 * What the clients sent and what came of it. Times are milliseconds of one monotonic clock (`now()`); `sentAt` is
 * taken before the request is written and `endAt` after its answer was read, so "acknowledged before another was
 * sent" (ackA.endAt < B.sentAt) errs on the side of deriving fewer ordering constraints, never more.
 */
export type Outcome = 'ack' | 'unacked' | 'rejected';

export interface OpRecord {
  id: number;
  client: number;
  /** The Cairn process the request went to, and that process's incarnation (restart count) at the time. */
  process: number;
  incarnation: number;
  method: string;
  path: string;
  /** A short description of what the operation does, for violation details. */
  what: string;
  sentAt: number;
  endAt: number;
  /** The wall clock at the end (to find the server's log line of a 5xx). */
  wallEnd: number;
  /** 2xx: ack; 4xx: rejected (nothing applied); anything else (5xx, timeout, connection error): unacked. */
  outcome: Outcome;
  /** false for reads. */
  write: boolean;
  status: number | null;
  /** The error message of the answer, or the client-side error. */
  error?: string;
}

export function outcomeOf(status: number | null): Outcome {
  if (status !== null && status >= 200 && status < 300) return 'ack';
  // 408 and 429 say "not now" without saying what happened; every other 4xx says nothing was done.
  if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) return 'rejected';
  return 'unacked';
}

const started = performance.now();
/** Milliseconds since the soak started. */
export const now = (): number => performance.now() - started;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

export class Ledger {
  readonly ops: OpRecord[] = [];

  add(op: Omit<OpRecord, 'id'>): OpRecord {
    const record = { ...op, id: this.ops.length + 1 };
    this.ops.push(record);
    return record;
  }

  describe(op: OpRecord): string {
    const answer = op.status === null ? `no answer (${op.error})` : `${op.status}${op.error ? ` ${op.error}` : ''}`;
    return `op#${op.id} client ${op.client} ${op.method} ${op.path} via process ${op.process} [${op.what}] sent ${seconds(op.sentAt)} -> ${answer} at ${seconds(op.endAt)} (${op.outcome})`;
  }
}
