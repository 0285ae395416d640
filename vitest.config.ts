import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: test files share one PostgreSQL server and one Redis, each file on its own database.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});
