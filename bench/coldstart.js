// Issue 1 of 7: cold start (process start to the first 200 on a list route, data already seeded) and resident
// memory after 1,000 list requests, for Cairn's example app, against a bare Fastify + SQLite baseline measured
// in the same run. Usage: npm run build && node bench/coldstart.js
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, rssMb, startAndTime, stop } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dbDir = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
const DB_FILE = join(dbDir, 'data.db');
const RUNS = Number(process.env.RUNS ?? 5);
// Cairn runs as its users run it: bin/cairn.js through its `#!` line (which passes Cairn's V8 flags).
const cairn = (port) => ({
  command: join(root, 'bin/cairn.js'),
  args: ['start', '--dir', join(root, 'examples/restaurants'), '--port', String(port)],
  env: { DATABASE_FILENAME: DB_FILE, NODE_ENV: 'production', JWT_SECRET: 'bench-secret' },
});
const baseline = (port) => ({ command: process.execPath, args: [join(root, 'bench/baseline-server.js')], env: { DB_FILE, PORT: String(port) } });

async function measure(label, make) {
  const times = [];
  let rss;
  for (let i = 0; i < RUNS; i++) {
    const port = 14000 + i;
    const { command, args, env } = make(port);
    const url = `http://127.0.0.1:${port}/api/restaurants`;
    const { child, ms } = await startAndTime(command, args, url, env);
    times.push(ms);
    if (i === RUNS - 1) {
      for (let n = 0; n < 1000; n++) await (await fetch(url)).arrayBuffer();
      rss = rssMb(child.pid);
    }
    await stop(child);
  }
  return { label, coldStartMs: median(times), rssMb: rss };
}

// First start seeds the demo data (not timed).
{
  const { command, args, env } = cairn(13999);
  const { child } = await startAndTime(command, args, 'http://127.0.0.1:13999/api/restaurants', env);
  await stop(child);
}
const c = await measure('cairn', cairn);
const b = await measure('baseline', baseline);
console.log('\n| | cold start (median of %d) | RSS after 1,000 list requests |', RUNS);
console.log('| --- | --- | --- |');
for (const r of [c, b]) console.log(`| ${r.label} | ${r.coldStartMs.toFixed(0)} ms | ${r.rssMb.toFixed(1)} MB |`);
console.log(`| ratio cairn/baseline | ${(c.coldStartMs / b.coldStartMs).toFixed(2)}x | ${(c.rssMb / b.rssMb).toFixed(2)}x |`);
console.log(`\ntargets: cold start < 1000 ms (${c.coldStartMs < 1000 ? 'met' : 'MISSED'}), RSS < 120 MB (${c.rssMb < 120 ? 'met' : 'MISSED'})`);
rmSync(dbDir, { recursive: true, force: true });
