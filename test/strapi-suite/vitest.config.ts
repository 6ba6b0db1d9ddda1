import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
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

/**
 * A test file that `import`s Strapi's own source by a relative path (`../../../../../../packages/core/core/src/...`,
 * a file of strapi/strapi's `packages/` the suite's folder does not hold): the file loads, with each name it imports
 * from there a stand-in that throws out of scope when used, so only the tests that call Strapi's in-process code are
 * out of scope (as @strapi/openapi's `generate`). What `require` reaches there stays setup.ts's (the file cannot load).
 */
const STRAPI_SOURCE = '\0strapi-suite-strapi-source:';
const strapiSourceStandIns = {
  name: 'strapi-suite-strapi-source',
  enforce: 'pre' as const,
  resolveId(id: string, importer?: string) {
    if (!importer || !suiteDir || !importer.startsWith(suiteDir) || !id.startsWith('.')) return null;
    const target = resolve(dirname(importer.split('?')[0]), id);
    const where = relative(suiteDir, target);
    if (!where.startsWith(`packages${sep}`) || ['', '.ts', '.js', '.mjs', '/index.ts', '/index.js'].some((ext) => existsSync(target + ext))) return null;
    // The names the importer takes from it (`import { a, b as c } from '...'`), read from its source.
    const source = readFileSync(importer.split('?')[0], 'utf8');
    const names = new Set<string>();
    for (const match of source.matchAll(/import\s+(?:type\s+)?(?:([\w$]+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from\s*['"]([^'"]+)['"]/g)) {
      if (match[3] !== id) continue;
      if (match[1]) names.add('default');
      for (const part of (match[2] ?? '').split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]?.trim();
        if (name) names.add(name);
      }
    }
    return `${STRAPI_SOURCE}${Buffer.from(JSON.stringify({ where, names: [...names] })).toString('base64url')}`;
  },
  load(id: string) {
    if (!id.startsWith(STRAPI_SOURCE)) return null;
    const { where, names } = JSON.parse(Buffer.from(id.slice(STRAPI_SOURCE.length), 'base64url').toString()) as { where: string; names: string[] };
    const reason = JSON.stringify(`Out of scope: ${where} is Strapi's own source, which the suite's folder does not hold (the test calls Strapi's in-process code)`);
    const standIn = (name: string) => `function ${name === 'default' ? 'standIn' : name}() { const error = new Error(${reason}); error.name = 'OutOfScope'; throw error; }`;
    return names.map((name) => (name === 'default' ? `export default ${standIn(name)}` : `export ${standIn(name)}`)).join('\n') || 'export {};';
  },
};

export default defineConfig({
  plugins: [packagesFromRepo, strapiSourceStandIns],
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
