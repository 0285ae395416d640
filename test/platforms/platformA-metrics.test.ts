import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platforms/platform.ts';
import { escapeLittleText } from '../../src/platforms/platformA/little-text.ts';
import { readLittleText } from '../../src/sandbox/platformA/little-text.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterFor, connected, mediaFile, pngBytes } from './helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

async function setup() {
  sandbox = await startSandbox({ port: 0 });
  const platform = adapterFor(sandbox);
  return { platform, ...(await connected(sandbox, platform)) };
}

describe('platformA metrics', () => {
  it('reads one queryType per call; empty elements are null, reported zeros stay 0', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const post = await platform.publish({ accessToken, authorRef, text: 'measure me', media: [] });
    sandbox.platformA.state.setMetrics(post.platformPostId, {
      IMPRESSION: 0,
      REACTION: 7,
      COMMENT: null,
      RESHARE: 0,
      LINK_CLICKS: null,
    });
    const metrics = await platform.metrics({ accessToken, platformPostId: post.platformPostId });
    expect(metrics).toEqual({ impressions: 0, likes: 7, comments: null, shares: 0, clicks: null });
    expect(sandbox.platformA.state.calls('analytics')).toBe(5);

    sandbox.platformA.state.setMetrics(post.platformPostId, { IMPRESSION: 1234, COMMENT: 3, LINK_CLICKS: 9 });
    expect(await platform.metrics({ accessToken, platformPostId: post.platformPostId })).toEqual({
      impressions: 1234,
      likes: 7,
      comments: 3,
      shares: 0,
      clicks: 9,
    });
  });

  it('uses the ugc: entity for ugcPost URNs', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const post = await platform.publish({
      accessToken,
      authorRef,
      text: 'two images',
      media: [mediaFile(pngBytes(), 'image/png'), mediaFile(pngBytes(), 'image/png')],
    });
    expect(post.platformPostId).toMatch(/^urn:li:ugcPost:/);
    sandbox.platformA.state.setMetrics(post.platformPostId, {
      IMPRESSION: 50,
      REACTION: 2,
      COMMENT: 1,
      RESHARE: 1,
      LINK_CLICKS: 0,
    });
    expect(await platform.metrics({ accessToken, platformPostId: post.platformPostId })).toEqual({
      impressions: 50,
      likes: 2,
      comments: 1,
      shares: 1,
      clicks: 0,
    });
    const path = sandbox.platformA.state.requests.find((r) => r.route === 'analytics');
    expect(path?.path).toBe('/rest/memberCreatorPostAnalytics');
  });

  it('refuses an id that is not a post URN without calling the platform', async () => {
    const { platform, accessToken } = await setup();
    const err = await platform.metrics({ accessToken, platformPostId: 'urn:li:person:abc' }).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('bad_request');
    expect(sandbox.platformA.state.calls('analytics')).toBe(0);
  });
});

describe('platformA findPublished (crash recovery)', () => {
  it('finds the member post with the same text created since the claim', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const since = Date.now();
    const text = 'Recovered (maybe) #launch';
    const published = await platform.publish({ accessToken, authorRef, text, media: [] });
    await platform.publish({ accessToken, authorRef, text: 'another post', media: [] });
    expect(await platform.findPublished!({ accessToken, authorRef, text, since })).toEqual(published);
    expect(await platform.findPublished!({ accessToken, authorRef, text: 'never posted', since })).toBeNull();
    // A post older than the claim (beyond clock-skew slack) does not count.
    expect(
      await platform.findPublished!({ accessToken, authorRef, text, since: Date.now() + 3_600_000 }),
    ).toBeNull();
  });

  it('pages through many posts', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const since = Date.now();
    const target = await platform.publish({ accessToken, authorRef, text: 'the first one', media: [] });
    for (let i = 0; i < 60; i++)
      await platform.publish({ accessToken, authorRef, text: `filler ${i}`, media: [] });
    expect(await platform.findPublished!({ accessToken, authorRef, text: 'the first one', since })).toEqual(
      target,
    );
    expect(sandbox.platformA.state.calls('findPosts')).toBe(2);
  });

  it('answers null ("cannot tell") when the platform restricts the finder, as the live one does', async () => {
    const { platform, accessToken, authorRef } = await setup();
    await platform.publish({ accessToken, authorRef, text: 'hidden', media: [] });
    sandbox.platformA.faults.authorFinderRestricted = true;
    expect(await platform.findPublished!({ accessToken, authorRef, text: 'hidden', since: 0 })).toBeNull();
  });

  it('still reports a revoked token rather than guessing', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.revoke(accessToken);
    const err = await platform.findPublished!({ accessToken, authorRef, text: 'x', since: 0 }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('revoked_token');
  });
});

describe('little text', () => {
  it('the sandbox reads back exactly what the adapter escaped, for any text', () => {
    const reservedHeavy = fc.string({
      unit: fc.constantFrom(...'\\|{}@[]()<>#*_~ aZ9é#\n'.split(''), '😀'),
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), reservedHeavy), (text) => {
        const read = readLittleText(escapeLittleText(text));
        expect(read).toEqual({ ok: true, text });
      }),
      { numRuns: 500 },
    );
  });

  it('keeps hashtags and escapes a # that starts no word', () => {
    expect(escapeLittleText('#ai and #2026, not # or #!')).toBe('#ai and #2026, not \\# or \\#!');
    expect(escapeLittleText('#café')).toBe('#café');
  });
});
