import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/databases.js';

/**
 * The reference kit in test/fixtures/conformance (a copy of the project's shared conformance kit): Cairn (built, started by the CLI) is seeded through the REST API
 * by the kit's seed script, the recorded queries are replayed, and compare.mjs must report every one equal
 * (deviations.json lists where Cairn differs on purpose; Cairn's own deliberate differences, each with its reason,
 * are in test/conformance/rest, gql-v4 and gql-v5-compat). queries.json's GraphQL queries use Strapi 5's flat schema
 * (no v4CompatibilityMode); queries-gql-v5-compat.json Strapi 5's compatibility mode (`v4CompatibilityMode: true`);
 * queries-gql-v4.json the seed's Strapi v4 schema (Cairn's `shape: 'v4'`).
 */
describeEachDialect('conformance with the reference server (REST and GraphQL)', (dialect) => {
  it('every recorded query answers like the reference', { timeout: 600_000 }, async () => {
    const root = join(import.meta.dirname, '..', '..');
    const build = await run('npm', ['run', 'build'], root, {});
    expect(build.status, build.output).toBe(0);
    const result = await run(process.execPath, [join(root, 'scripts', 'conformance.mjs')], root, {
      DATABASE_CLIENT: dialect,
      CAIRN_DEVIATIONS: join(import.meta.dirname, 'rest'),
    });
    expect(result.output).toMatch(/(\d+) of \1 match the reference/);
    expect(result.status, result.output).toBe(0);
  });

  it('every recorded query of Strapi 5 with v4CompatibilityMode: true answers like the reference', { timeout: 600_000 }, async () => {
    const root = join(import.meta.dirname, '..', '..');
    const kit = join(root, 'test', 'fixtures', 'conformance');
    const result = await run(process.execPath, [join(root, 'scripts', 'conformance.mjs')], root, {
      DATABASE_CLIENT: dialect,
      GRAPHQL_V4_COMPAT: 'true',
      QUERIES: join(kit, 'queries-gql-v5-compat.json'),
      GOLDEN_DIR: join(kit, 'goldens-gql-v5-compat'),
      // Cairn's deliberate differences, each with its reason (overrides/ beside it).
      DEVIATIONS: join(import.meta.dirname, 'gql-v5-compat', 'deviations.json'),
    });
    expect(result.output).toMatch(/64 of 64 match the reference/);
    expect(result.status, result.output).toBe(0);
  });

  it("every recorded query of the seed's GraphQL schema (Strapi v4, shape: 'v4') answers like the reference", { timeout: 600_000 }, async () => {
    const root = join(import.meta.dirname, '..', '..');
    const kit = join(root, 'test', 'fixtures', 'conformance');
    const result = await run(process.execPath, [join(root, 'scripts', 'conformance.mjs')], root, {
      DATABASE_CLIENT: dialect,
      GRAPHQL_SHAPE: 'v4',
      QUERIES: join(kit, 'queries-gql-v4.json'),
      GOLDEN_DIR: join(kit, 'goldens-gql-v4'),
      DEVIATIONS: join(kit, 'deviations-gql-v4.json'),
      CAIRN_DEVIATIONS: join(import.meta.dirname, 'gql-v4'),
    });
    expect(result.output).toMatch(/61 of 61 match the reference/);
    expect(result.status, result.output).toBe(0);
  });
});

/** Runs a command without blocking the test worker (the conformance run takes tens of seconds). */
function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (status) => resolve({ status, output }));
  });
}
