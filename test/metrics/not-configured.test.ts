import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import { createPost, startPostWorld } from '../posts/world.ts';
import { durableDatabase } from '../webhooks/helpers.ts';

describe('a deployment that cannot reach the platform', () => {
  it('answers 503 not_configured on refresh and still serves stored metrics', async () => {
    const database = await durableDatabase();
    try {
      const w = await startPostWorld({ env: { ...database.env } });
      const m = await w.member();
      const post = await createPost(w.t, m, { text: 'configured once', channelId: m.channelId });
      expect((await w.t.request('POST', `/v1/posts/${post.id}/publish`, { key: m.apiKey })).status).toBe(200);
      const first = await w.t.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: m.apiKey });
      expect(first.status).toBe(200);
      const vaultKey = w.vaultKey;
      await w.close();

      // The same database, without platform app credentials, then without a vault key.
      for (const env of [{ KIT_VAULT_KEY: vaultKey }, {}]) {
        const t = await startTestApp({ ...database.env, ...env });
        try {
          const res = await t.request('POST', `/v1/posts/${post.id}/metrics/refresh`, { key: m.apiKey });
          expect(res.status).toBe(503);
          expect(res.body.error.code).toBe('not_configured');
          const read = await t.request('GET', `/v1/posts/${post.id}/metrics`, { key: m.apiKey });
          expect(read.status).toBe(200);
          expect(read.body.history).toEqual([first.body.snapshot]);
          const analytics = await t.request('GET', '/v1/analytics', { key: m.apiKey });
          expect(analytics.body.analytics.totals.posts).toBe(1);
        } finally {
          await t.close();
        }
      }
    } finally {
      await database.drop();
    }
  }, 90_000);
});
