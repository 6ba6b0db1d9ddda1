import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

/**
 * The README's two commands work in a clone with nothing beside it: no test, script or benchmark reads the shared
 * folder that CI happens to put next to the repository (the conformance kit is copied into test/fixtures).
 */
const root = join(import.meta.dirname, '..', '..');
const SHARED = /\.\.\/shared\/|['"]\.\.['"],\s*['"]shared['"]|\.\.\/\.\.\/\.\.\/shared/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js|mjs|cjs|json)$/.test(name) ? [path] : [];
  });
}

it('no test, script or benchmark reads ../shared', () => {
  const code = [...files(join(root, 'test')), ...files(join(root, 'scripts')), ...files(join(root, 'bench')), join(root, 'vitest.config.ts'), join(root, 'package.json')];
  // Comments may say where a copy came from; code may not reach for it.
  const reaching = code.filter((file) => readFileSync(file, 'utf8').split('\n').some((line) => SHARED.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)));
  expect(reaching.map((file) => relative(root, file))).toEqual([]);
});
