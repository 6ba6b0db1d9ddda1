import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bin, freePort } from '../cli/build.js';
import type { DatabaseConfig } from '../../src/database/types.js';
import { request } from './http.js';
import { now } from './ledger.js';

/**
 * The soak's app: an `article` with Draft & Publish (title, a unique `ref`, ordered manyToMany `tags`, manyToOne
 * `category` whose inverse `category.articles` is written too, and a self relation `related`, whose links two
 * concurrent deletes remove from both ends), `tag` and `category` without it. The public role may do everything.
 */
const schemas = {
  article: {
    kind: 'collectionType',
    collectionName: 'articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      ref: { type: 'string', unique: true },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      related: { type: 'relation', relation: 'manyToMany', target: 'api::article.article' },
    },
  },
  tag: {
    kind: 'collectionType',
    collectionName: 'tags',
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' } },
  },
  category: {
    kind: 'collectionType',
    collectionName: 'categories',
    info: { singularName: 'category', pluralName: 'categories', displayName: 'Category' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
    },
  },
};

export function writeApp(dir: string, database: DatabaseConfig): void {
  const actions = ['find', 'findOne', 'create', 'update', 'delete'];
  const permissions = Object.keys(schemas).flatMap((t) => actions.map((a) => `api::${t}.${t}.${a}`));
  permissions.push('api::article.article.publish');
  const files: Record<string, string> = {
    'package.json': '{ "type": "commonjs" }',
    'config/database.json': JSON.stringify(database),
    'config/permissions.json': JSON.stringify({ roles: { public: { permissions } } }),
  };
  for (const [name, schema] of Object.entries(schemas)) files[`src/api/${name}/content-types/${name}/schema.json`] = JSON.stringify(schema);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

export interface Crash {
  process: number;
  incarnation: number;
  at: number;
  code: number | null;
  signal: string | null;
  log: string;
}

export interface CairnProcess {
  index: number;
  port: number;
  base: string;
  /** 0 for the first start, +1 per restart; each incarnation writes its own log file. */
  incarnation: number;
  child: ChildProcess | null;
  logs: string[];
  /** Set before the soak kills it itself: such an exit is not a crash. */
  expectedExit: boolean;
}

/**
 * N `cairn start` processes of one app folder on one database, each on its own port, stdout and stderr going to
 * `<logs>/p<index>.<incarnation>.log`. A process that exits without being told to is a crash: recorded, then
 * started again so that the soak goes on.
 */
export class Cluster {
  readonly processes: CairnProcess[] = [];
  readonly crashes: Crash[] = [];
  private stopping = false;

  constructor(
    private readonly appDir: string,
    private readonly logDir: string,
  ) {
    mkdirSync(logDir, { recursive: true });
  }

  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      this.processes.push({ index: i, port, base: `http://127.0.0.1:${port}`, incarnation: -1, child: null, logs: [], expectedExit: false });
    }
    // The first start syncs the schema; the others start together after it (they take turns for the start anyway).
    this.spawn(this.processes[0]);
    await this.waitHealthy([this.processes[0]], 60_000, true);
    for (const p of this.processes.slice(1)) this.spawn(p);
    await this.waitHealthy(this.processes, 60_000, true);
  }

  spawn(p: CairnProcess): void {
    p.incarnation++;
    const log = join(this.logDir, `p${p.index}.${p.incarnation}.log`);
    p.logs.push(log);
    const fd = openSync(log, 'a');
    const child = spawn(process.execPath, [bin, 'start', '--dir', this.appDir, '--port', String(p.port)], { stdio: ['ignore', fd, fd] });
    closeSync(fd);
    p.child = child;
    p.expectedExit = false;
    const incarnation = p.incarnation;
    child.on('exit', (code, signal) => {
      if (p.expectedExit || this.stopping) return;
      this.crashes.push({ process: p.index, incarnation, at: now(), code, signal, log });
      // Started again (as a supervisor would) so the soak goes on; the crash is a violation all the same.
      setTimeout(() => {
        if (!this.stopping && p.child === child) this.spawn(p);
      }, 1000);
    });
  }

  /** kill -9, waiting for the exit. */
  async kill(p: CairnProcess): Promise<void> {
    const child = p.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    p.expectedExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async healthy(p: CairnProcess): Promise<boolean> {
    return (await request(p.base, 'GET', '/_health', undefined, 1000)).status === 204;
  }

  /**
   * Polls `/_health` of each process until all answer 204; returns the milliseconds it took, or null after
   * `timeoutMs` (or throws then, with `orThrow`).
   */
  async waitHealthy(processes: CairnProcess[] = this.processes, timeoutMs = 30_000, orThrow = false): Promise<number | null> {
    const startedAt = now();
    const pending = new Set(processes);
    while (pending.size) {
      await Promise.all([...pending].map(async (p) => (await this.healthy(p)) && pending.delete(p)));
      if (!pending.size) break;
      if (now() - startedAt > timeoutMs) {
        if (orThrow) throw new Error(`Cairn processes ${[...pending].map((p) => p.index).join(', ')} not healthy after ${timeoutMs} ms (logs: ${[...pending].map((p) => p.logs.at(-1)).join(', ')})`);
        return null;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return now() - startedAt;
  }

  /** Stops every process (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(
      this.processes.map(async (p) => {
        const child = p.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  /** Synchronous last resort (process exit handlers): SIGKILL whatever still runs. */
  killAllNow(): void {
    this.stopping = true;
    for (const p of this.processes) {
      if (p.child && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
    }
  }
}
