// Shared helpers for the benchmarks: start a process, wait for its first 200, read its memory.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Spawns a server and resolves with the time from spawn to the first 200 on `url`. */
export async function startAndTime(command, args, url, env = {}) {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) {
        await res.arrayBuffer();
        return { child, ms: Number(process.hrtime.bigint() - started) / 1e6 };
      }
    } catch {
      // not listening yet
    }
    await sleep(5);
  }
}

/** Resident memory of a process in MB (Linux). */
export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
  return kb / 1024;
}

export async function stop(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time (seconds) used so far by a process and all its descendants (Linux: /proc, 100 ticks a second). */
export function treeCpuSeconds(pid) {
  let ticks = 0;
  const visit = (id) => {
    try {
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
      for (const child of readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(child);
    } catch {
      // the process ended meanwhile
    }
  };
  visit(pid);
  return ticks / 100;
}
