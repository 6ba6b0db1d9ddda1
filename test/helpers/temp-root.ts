import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Vitest global setup: every temp folder of a run (test apps, SQLite files, configs, the processes tests start)
 * goes under one folder made for the run, through TMPDIR, which `os.tmpdir()` reads on every call and child
 * processes inherit. The teardown removes that folder, so a run leaves nothing in the system's temp dir, failed
 * tests included.
 */
export default function setup(): () => void {
  const runDir = mkdtempSync(join(tmpdir(), 'cairn-test-run-'));
  // Traversable by other users (not listable): a private PostgreSQL server runs as `postgres` from a folder inside.
  chmodSync(runDir, 0o711);
  process.env.TMPDIR = runDir;
  return () => rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
}
