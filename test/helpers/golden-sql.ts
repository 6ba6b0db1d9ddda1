import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/**
 * The statements a request sent, checked against `<dir>/<name>.<dialect>.sql`. `UPDATE_GOLDENS=1` writes the file
 * instead (after a meant change: the diff is the review).
 */
export function expectGoldenSql(dir: string, name: string, dialect: string, statements: readonly string[]): void {
  const actual = `${statements.join(';\n\n')};\n`;
  const file = join(dir, `${name}.${dialect}.sql`);
  if (process.env.UPDATE_GOLDENS === '1') {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(existsSync(file), `${file} is missing: run with UPDATE_GOLDENS=1 and review it`).toBe(true);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
