import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a loaded machine takes to render a page
    // (the browser suites failed on it under load); a poll waits as long as a locator does.
    expect: { poll: { timeout: 15_000 } },
    // Two cores: test files share one PostgreSQL server and one Redis, each file on its own database.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});
