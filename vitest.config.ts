import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS build (the package has no `exports`), and so do nexus and
    // @graphql-tools; Vite would pick `index.mjs` for our sources, a second graphql instance that graphql-js refuses
    // to mix ("from another module or realm"). Tests resolve it as Node does in production.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    // CAIRN_TEST_FIXTURE runs one of test/project/fixtures' files instead (a test that runs vitest itself).
    include: process.env.CAIRN_TEST_FIXTURE ? [`test/project/fixtures/${process.env.CAIRN_TEST_FIXTURE}`] : ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['test/helpers/temp-root.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Dialect suites share one PostgreSQL and one MariaDB database: files run one at a time.
    fileParallelism: false,
    pool: 'forks',
  },
});
