import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_IDS } from '../../src/platforms/profiles.ts';

/**
 * Issue 36 item 5: the scorer reads every platform-specific setting from the platform's profile
 * (src/platforms/<id>/profile.ts, through scoring/rules/rubrics.ts), so no file of src/scoring
 * names a platform: a third platform needs no change there.
 */
const SCORING = resolve(import.meta.dirname, '../../src/scoring');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(?:ts|json)$/.test(name) ? [path] : [];
  });
}

describe('the scorer names no platform', () => {
  it('has no platform id in any file of src/scoring', () => {
    const named = files(SCORING).flatMap((path) => {
      const text = readFileSync(path, 'utf8');
      return PLATFORM_IDS.filter((id) => text.includes(id)).map(
        (id) => `${path.slice(SCORING.length + 1)}: ${id}`,
      );
    });
    expect(named).toEqual([]);
  });
});
