import { afterEach, describe, expect, it } from 'vitest';
import { mapMetrics } from '../../src/platforms/platformB/metrics.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterB, memberB } from './platformB-helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

describe('platformB metrics', () => {
  it('maps the documented counters; shares = retweets + quotes', async () => {
    sandbox = await startSandbox();
    const m = memberB(sandbox);
    const platform = adapterB(sandbox);
    const { platformPostId } = await platform.publish({
      accessToken: m.accessToken,
      authorRef: m.authorRef,
      text: 'see https://example.com',
      media: [],
    });
    sandbox.platformB.state.setMetrics(platformPostId, {
      impression_count: 900,
      like_count: 12,
      reply_count: 3,
      retweet_count: 4,
      quote_count: 2,
      url_link_clicks: 0,
    });
    expect(await platform.metrics({ accessToken: m.accessToken, platformPostId })).toEqual({
      impressions: 900,
      likes: 12,
      comments: 3,
      shares: 6,
      clicks: 0,
    });
  });

  it('absent non_public_metrics is null clicks, never 0 (e.g. a post without a link, or not the member’s)', async () => {
    sandbox = await startSandbox();
    const m = memberB(sandbox);
    const platform = adapterB(sandbox);
    const { platformPostId } = await platform.publish({
      accessToken: m.accessToken,
      authorRef: m.authorRef,
      text: 'no link',
      media: [],
    });
    const own = await platform.metrics({ accessToken: m.accessToken, platformPostId });
    expect(own.clicks).toBeNull();
    expect(own.impressions).toEqual(expect.any(Number));
    sandbox.platformB.state.setMetrics(platformPostId, { url_link_clicks: 5 });
    const other = sandbox.platformB.state.addMember();
    const stranger = sandbox.platformB.state.issueToken({ userId: other.id });
    expect((await platform.metrics({ accessToken: stranger.accessToken, platformPostId })).clicks).toBeNull();
    expect((await platform.metrics({ accessToken: m.accessToken, platformPostId })).clicks).toBe(5);
  });

  it('mapMetrics leaves every missing counter null', () => {
    expect(mapMetrics({})).toEqual({
      impressions: null,
      likes: null,
      comments: null,
      shares: null,
      clicks: null,
    });
    expect(mapMetrics({ public_metrics: { retweet_count: 2 } }).shares).toBe(2);
  });
});
