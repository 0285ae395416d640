import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { goldenDigests } from '../../scripts/lib/score-golden.ts';
import { describeRealPosts } from '../helpers/real-posts.ts';

/**
 * The scorer returns exactly what it returned when the digests were written: every real post
 * (global score), and the personal path with the offline judge and with a stand-in model judge.
 * Speed work must keep them; a deliberate scoring change regenerates them with
 * `node scripts/score-golden.ts`.
 */
const committed = JSON.parse(readFileSync(join(import.meta.dirname, 'score-golden.json'), 'utf8'));

describeRealPosts('scorer output on the real posts', () => {
  it('is unchanged, post for post, globally and personalised', async () => {
    const now = await goldenDigests();
    expect(now.posts).toBeGreaterThan(7_000);
    expect(now.personalPosts).toBeGreaterThan(300);
    expect(now).toEqual(committed);
  }, 120_000);
});
