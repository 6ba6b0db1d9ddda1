import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it('a test run leaves nothing in the temp dir, even when its tests fail', { timeout: 120_000 }, () => {
  const temp = mkdtempSync(join(tmpdir(), 'cairn-nested-run-'));
  try {
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: root,
      env: { ...process.env, TMPDIR: temp, CAIRN_TEST_FIXTURE: 'leaves-temp.fixture.ts', CAIRN_TEST_DIALECTS: 'sqlite', CI: '' },
      encoding: 'utf8',
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(output).toMatch(/failing on purpose/);
    expect(run.status, output).toBe(1);
    expect(readdirSync(temp)).toEqual([]);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
});
