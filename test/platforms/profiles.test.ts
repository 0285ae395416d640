import { describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { Platform } from '../../src/domain/enums.ts';
import { PLATFORM_IDS, PROFILES, profileOf } from '../../src/platforms/profiles.ts';
import { createPlatforms } from '../../src/platforms/registry.ts';

/**
 * The profile registry (issue 23): one profile per platform id, keyed by the contract's
 * enumeration. The `@ts-expect-error` lines are checked by `npm run check` (tsc): if the
 * registry's type were loosened so a missing or misfiled profile compiled, they would fail it.
 */
describe('platform profiles', () => {
  it('has exactly one profile per platform id, filed under its own id', () => {
    expect(Object.keys(PROFILES)).toEqual([...Platform.options]);
    expect(PLATFORM_IDS).toEqual(Platform.options);
    for (const id of PLATFORM_IDS) expect(PROFILES[id].id).toBe(id);
    expect(profileOf('platformC')).toBeUndefined();
    expect(profileOf('toString')).toBeUndefined();
  });

  it('does not compile with a profile missing or filed under another id', () => {
    // @ts-expect-error platformB's profile is missing
    const missing: typeof PROFILES = { platformA: PROFILES.platformA };
    // @ts-expect-error platformB's profile filed under platformA
    const misfiled: typeof PROFILES = { platformA: PROFILES.platformB, platformB: PROFILES.platformB };
    expect(Object.keys(missing)).toEqual(['platformA']);
    expect(misfiled.platformA.id).toBe('platformB');
  });

  it('is the object each adapter carries', () => {
    const config = configWith({
      PLATFORMA_CLIENT_ID: 'a',
      PLATFORMA_CLIENT_SECRET: 'a',
      PLATFORMA_REDIRECT_URI: 'https://postkit.example/v1/channels/platformA/callback',
      PLATFORMB_CLIENT_ID: 'b',
      PLATFORMB_CLIENT_SECRET: 'b',
      PLATFORMB_REDIRECT_URI: 'https://postkit.example/v1/channels/platformB/callback',
    });
    const platforms = createPlatforms(config);
    for (const id of PLATFORM_IDS) expect(platforms.get(id)!.profile).toBe(PROFILES[id]);
  });
});
