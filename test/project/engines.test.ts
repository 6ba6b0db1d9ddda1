import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * `engines.node` in package.json is a promise: every installed package must run on the lowest Node.js it allows
 * (npm prints EBADENGINE otherwise), and CI runs on exactly that version (.ci/run reads it from package.json).
 */
const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));

describe('engines', () => {
  const lowest = semver.minVersion(pkg.engines.node)!;

  it('names a lowest Node.js version', () => {
    expect(pkg.engines.node).toMatch(/^>=\d+\.\d+\.\d+$/);
    expect(semver.satisfies(process.version, pkg.engines.node), `this Node.js (${process.version}) is outside engines`).toBe(true);
  });

  it('every installed package runs on that lowest version', () => {
    const refused: string[] = [];
    for (const [path, entry] of Object.entries<{ version?: string; engines?: { node?: string } }>(lock.packages)) {
      const wants = entry.engines?.node;
      // Platform builds for other systems (sharp's win32 ones, say) are in the lock but never installed here.
      if (!path || !wants || !existsSync(join(root, path))) continue;
      if (!semver.satisfies(lowest, wants)) refused.push(`${path}@${entry.version} wants node ${wants}`);
    }
    expect(refused, `engines says ${pkg.engines.node}`).toEqual([]);
  });

});
