import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * One fixture serves every browser suite: a suite that starts its own app, sandbox or Chromium
 * repeats browser-world.ts's setup (and drifts from it, as the suites that each built their own
 * world did), so only browser-world.ts may call these.
 */
const DIR = new URL('./', import.meta.url).pathname;
const SETUP = /\b(launchChromium|startTestApp|startSandbox|chromium\.launch|ensureConsoleBuilt)\s*\(/;

describe('the browser-test fixture', () => {
  const suites = readdirSync(DIR).filter((f) => /^e2e.*\.test\.ts$/.test(f));

  it('finds the browser suites', () => {
    expect(suites.length).toBeGreaterThan(10);
  });

  it('every browser suite starts through startBrowserWorld and none sets up its own world or Chromium', () => {
    const own = suites.filter((f) => SETUP.test(readFileSync(DIR + f, 'utf8')));
    expect(own).toEqual([]);
    const through = suites.filter((f) => readFileSync(DIR + f, 'utf8').includes('startBrowserWorld('));
    expect(through.sort()).toEqual(suites.sort());
  });
});
