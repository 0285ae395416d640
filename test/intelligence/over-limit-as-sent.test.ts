import { afterAll, beforeAll, expect, it } from 'vitest';
import { countedLength } from '../../packages/client/src/text-length.ts';
import { PROFILES } from '../../src/platforms/profiles.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 32, never false: the over-limit signal's number is the post's length as the platform
 * counts what is sent and as the editor's counter shows it (the client's countedLength over the
 * editor's text), not the length of the scorer's normalised text, which drops the white space
 * before line breaks and around the post ("At 634 characters" for a post of 636). Through the
 * API, whose cache holds the normalised text, and through the scorer itself.
 */

const LINE = 'We moved our billing to a new provider this quarter and it took four tries to get right. ';
/** Over platformB's limit, with a space before each line break and a blank line after the post. */
const SENT_B = `Lessons from a billing migration \n${LINE.repeat(4)}\n${LINE.repeat(3)}\n\n`;
/** Over platformA's limit, with emoji (two UTF-16 units each, as that platform counts) and trailing spaces. */
const SENT_A = `What we learned 🚀 \n\n${`${LINE}🎯 `.repeat(34)}  \n`;

/** "At 636 characters the post is over ..." -> 636. */
const statedLength = (detail: string) => Number(/^At ([\d,]+) /.exec(detail)?.[1]?.replace(/,/g, ''));
const editorCount = (platform: 'platformA' | 'platformB', text: string) =>
  countedLength(PROFILES[platform].post.counting, text);

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey: key } = await t.signup());
});
afterAll(async () => {
  await t?.close();
});

it('says the length of the post as sent, as the editor counts it, on both platforms', async () => {
  for (const [platform, sent] of [
    ['platformB', SENT_B],
    ['platformA', SENT_A],
  ] as const) {
    const normalised = sent.replace(/[ \t]+\n/g, '\n').trim();
    // The case the issue found: the two counts differ.
    expect(editorCount(platform, normalised)).toBeLessThan(editorCount(platform, sent));
    const res = await t.request('POST', '/v1/score', { key, body: { post: sent, platform } });
    expect(res.status).toBe(200);
    const over = res.body.signals.find((s: { rule?: string }) => s.rule === 'length.over_limit');
    expect(statedLength(over.detail), platform).toBe(editorCount(platform, sent));
    const cut = editorCount(platform, sent) - PROFILES[platform].post.max;
    expect(over.detail, platform).toContain(`cut ${cut.toLocaleString('en-US')} characters`);
    // The scorer called on the text as sent says the same.
    const direct = scoreHeuristically({ post: sent, platform }).signals.find(
      (s) => s.rule === 'length.over_limit',
    )!;
    expect(statedLength(direct.detail), platform).toBe(editorCount(platform, sent));
  }
});

it('gives a post sent normalised its own count after the same text sent with white space', async () => {
  // The cache holds one score per normalised text: the count as sent must not come from it.
  const normalised = SENT_B.replace(/[ \t]+\n/g, '\n').trim();
  for (const post of [SENT_B, normalised, `${normalised}\n`]) {
    const res = await t.request('POST', '/v1/score', { key, body: { post, platform: 'platformB' } });
    const over = res.body.signals.find((s: { rule?: string }) => s.rule === 'length.over_limit');
    expect(statedLength(over.detail)).toBe(editorCount('platformB', post));
  }
});
