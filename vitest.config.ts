import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Dialect suites share one PostgreSQL and one MariaDB database: files run one at a time.
    fileParallelism: false,
    pool: 'forks',
  },
});
