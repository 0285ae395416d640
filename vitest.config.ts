import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Timeouts catch hangs; they are not speed checks (bench/ holds those). A full suite beside
    // other work on two cores ran tests in 20-29 s and timed one out at 30 s (vault re-seal),
    // so the default bound leaves room for a machine three times as loaded as CI.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // expect.poll's own default (1 s) is shorter than a loaded machine takes to render a page
    // (the browser suites failed on it under load); a poll waits as long as a locator does.
    expect: { poll: { timeout: 15_000 } },
    // Two cores: test files share one PostgreSQL server and one Redis, each file on its own database.
    maxWorkers: 2,
    pool: 'forks',
    reporters: ['default'],
  },
});
