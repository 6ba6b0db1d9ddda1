export type Dialect = 'postgres' | 'mysql' | 'sqlite';
export type FaultKind = 'kill' | 'db_restart' | 'terminate';
export const FAULT_KINDS: readonly FaultKind[] = ['kill', 'db_restart', 'terminate'];

export interface FaultPlan {
  kind: FaultKind;
  /** Seconds after the clients start. */
  at: number;
}

export interface SoakOptions {
  db: Dialect;
  processes: number;
  duration: number;
  clients: number;
  seed: number;
  faults: FaultPlan[];
  /** Keep the temp folder (app, logs) even when nothing was found. */
  keep: boolean;
}

export const USAGE = `Usage: npm run soak -- [options]
  --db postgres|mysql|sqlite   database (default postgres; postgres/mysql run on a private server of the soak's own)
  --processes N                Cairn processes on that database (default 3)
  --duration S                 seconds of load (default 300)
  --clients N                  concurrent clients (default 12)
  --seed N                     seed of the clients' choice of operations (default: random, printed)
  --faults LIST                comma-separated kill | db_restart | terminate, each optionally @S (seconds after the
                               start); without @S they are spread evenly over the duration. "none" for no fault.
                               Default: kill,db_restart,terminate (kill,kill on SQLite, which has no server)
  --keep                       keep the temp folder (app, database, logs) at the end
`;

/** Parses the command line; throws an Error whose message says what is wrong (the caller prints USAGE). */
export function parseOptions(argv: string[]): SoakOptions {
  const values = new Map<string, string>();
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--keep') {
      keep = true;
      continue;
    }
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(arg);
    if (!match || !['db', 'processes', 'duration', 'clients', 'seed', 'faults'].includes(match[1])) throw new Error(`unknown option ${arg}`);
    const value = match[2] ?? argv[++i];
    if (value === undefined) throw new Error(`${arg} needs a value`);
    values.set(match[1], value);
  }
  const db = (values.get('db') ?? 'postgres') as Dialect;
  if (!['postgres', 'mysql', 'sqlite'].includes(db)) throw new Error(`--db must be postgres, mysql or sqlite, not ${db}`);
  const integer = (name: string, fallback: number, min: number): number => {
    const text = values.get(name);
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, not ${text}`);
    return n;
  };
  const duration = integer('duration', 300, 5);
  const options: SoakOptions = {
    db,
    processes: integer('processes', 3, 1),
    duration,
    clients: integer('clients', 12, 1),
    seed: integer('seed', Math.floor(Math.random() * 2 ** 31), 0),
    faults: [],
    keep,
  };
  options.faults = parseFaults(values.get('faults'), db, duration);
  return options;
}

function parseFaults(text: string | undefined, db: Dialect, duration: number): FaultPlan[] {
  if (text === 'none') return [];
  const items = (text ?? (db === 'sqlite' ? 'kill,kill' : 'kill,db_restart,terminate')).split(',').map((s) => s.trim()).filter(Boolean);
  const plans = items.map((item, i) => {
    const [kind, at] = item.split('@');
    if (!FAULT_KINDS.includes(kind as FaultKind)) throw new Error(`--faults: unknown fault ${kind} (kill, db_restart, terminate)`);
    if (db === 'sqlite' && kind !== 'kill') throw new Error(`--faults: ${kind} needs a database server; SQLite has only kill`);
    const seconds = at === undefined ? (duration * (i + 1)) / (items.length + 1) : Number(at);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds >= duration) throw new Error(`--faults: ${item}: the time must be within the duration (0-${duration} s)`);
    return { kind: kind as FaultKind, at: seconds };
  });
  return plans.sort((a, b) => a.at - b.at);
}
