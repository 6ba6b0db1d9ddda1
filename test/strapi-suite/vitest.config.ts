import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import StrapiSuiteReporter from './reporter.js';

/**
 * Runs Strapi's own API test files (a folder laid out like strapi/strapi, STRAPI_SUITE_DIR) against Cairn through
 * the adapter in harness/: jest-style files under vitest's globals. Started by run.mjs, not by `npm test`.
 */
const here = import.meta.dirname;
const suiteDir = process.env.STRAPI_SUITE_DIR ?? '';
const fromRepo = createRequire(import.meta.url);

/**
 * The suite's folder has no node_modules: a package its files `import` (lodash/fp, qs) is the repository's, as
 * setup.ts makes it for `require`. Only bare names imported from the suite's folder; Strapi's own packages stay unresolved.
 */
const packagesFromRepo = {
  name: 'strapi-suite-packages-from-repo',
  enforce: 'pre' as const,
  resolveId(id: string, importer?: string) {
    if (!importer || !suiteDir || !importer.startsWith(suiteDir) || /^[./]/.test(id) || id.startsWith('@strapi/')) return null;
    try {
      return fromRepo.resolve(id);
    } catch {
      return null;
    }
  },
};

export default defineConfig({
  plugins: [packagesFromRepo],
  resolve: {
    // Test files that `import` the harness (TypeScript ones) get the same modules `require` gives the others.
    alias: [
      { find: /^api-tests\/generators$/, replacement: resolve(suiteDir, 'packages/utils/api-tests/generators.js') },
      { find: /^api-tests\/(.*)$/, replacement: resolve(here, 'harness/esm/$1.mjs') },
      { find: /^@strapi\/utils$/, replacement: resolve(here, 'harness/esm/strapi-utils.mjs') },
      { find: /^@strapi\/openapi$/, replacement: resolve(here, 'harness/esm/strapi-openapi.mjs') },
      { find: /^zod(\/v4)?$/, replacement: resolve(here, 'harness/esm/zod.mjs') },
    ],
  },
  test: {
    dir: suiteDir,
    include: ['**/*.test.api.{js,ts}'],
    exclude: ['**/node_modules/**'],
    globals: true,
    setupFiles: [resolve(here, 'setup.ts')],
    globalSetup: [resolve(here, '../helpers/temp-root.ts')],
    reporters: [new StrapiSuiteReporter(suiteDir, resolve(here, '../../README.md'), process.env.STRAPI_SUITE_SUMMARY)],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // One file at a time: each starts a Cairn of its own, and the machine is shared.
    fileParallelism: false,
    pool: 'forks',
  },
});
