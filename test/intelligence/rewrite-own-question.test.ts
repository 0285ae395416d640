import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rubricFor } from '../../src/scoring/rules/rubrics.ts';
import { offlineMeasure } from '../../src/scoring/scorer.ts';
import { hasPhrase } from '../../src/scoring/text/phrases.ts';
import { PLAIN_PHRASES } from '../../src/scoring/text/plain-words.ts';
import type { RewriteChange } from '../../src/scoring/types.ts';
import { rewriteOffline } from '../../src/scoring/writers/rewrite-offline.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';
import { PIPELINE_POST, PIPELINE_QUESTION } from '../helpers/sample-post.ts';

/**
 * An author's own closing question survives the offline rewrite: the 280-character fit keeps it
 * (and the specific sentences) over generic ones, no generic question replaces it, and every
 * change note claims only what changed. The newcomer walk's post is the console e2e LONG_POST.
 */

const LONG_POST = PIPELINE_POST;
const OWN_QUESTION = PIPELINE_QUESTION;
const GENERIC_QUESTION = 'What would you add?';
const TRAILING_TAGS = /(?:\s*#[\p{L}\p{N}_]+)+\s*$/u;
const PLATFORMS = ['platformA', 'platformB'] as const;

/** The post's last sentence (closing hashtags aside), read independently of the code under test. */
const lastSentence = (post: string) =>
  post
    .replace(TRAILING_TAGS, '')
    .trim()
    .split(/\n+|(?<=[.!?…])\s+/)
    .at(-1)!
    .trim();
/** Hashtags past the cap become words ("#US" -> "US"): compare text without the marks. */
const unTagged = (s: string) => s.replace(/#(?=[\p{L}\p{N}_])/gu, '');

/** Notes that claim something the rewrite does not show. */
function falseNotes(original: string, rewrite: string, changes: RewriteChange[]): string[] {
  const out: string[] = [];
  for (const { note } of changes) {
    if (note.startsWith('Ended with a question') && /\?$/.test(lastSentence(original))) out.push(note);
    const quoted = note.match(/"([^"]+)"/g) ?? [];
    if (note.startsWith('Cut ')) {
      for (const q of quoted) {
        const cut = q.slice(1, -1).replace(/…$/, '');
        const words = unTagged(cut);
        // A short quote ("#growth", "Classic.") may also stand elsewhere in the post.
        const gone = words.length < 20 || !unTagged(rewrite).includes(words);
        // The hashtag pass writes its own closing line of tags, which the cut may then drop.
        const authored = /^(?:#\S+\s*)+$/.test(cut) || unTagged(original).includes(words);
        if (!authored || !gone) out.push(`${note} (${words})`);
      }
      const now = Number(note.match(/\((\d+) characters now\)/)?.[1]);
      if (now !== rewrite.length) out.push(`${note} (rewrite is ${rewrite.length})`);
    }
  }
  return out;
}

const both = (post: string, platform: (typeof PLATFORMS)[number]) => {
  const input = { post, platform };
  return [rewriteOffline(input), rewriteOffline(input, offlineMeasure(input))];
};

describe('offline rewrite keeps the author’s closing question', () => {
  it('makes the walk’s long post a platformB thread that keeps every sentence and the question', () => {
    for (const { rewrite, thread = [], changes } of both(LONG_POST, 'platformB')) {
      const parts = [rewrite, ...thread];
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(280);
      expect(parts.join(' ')).not.toContain(GENERIC_QUESTION);
      expect(parts.at(-1)!.endsWith(OWN_QUESTION)).toBe(true);
      // Nothing is cut: every sentence of the post is in the thread, whole and in order.
      for (const line of LONG_POST.split('\n').filter(Boolean)) expect(parts.join('\n')).toContain(line);
      expect(changes.map((c) => c.note)).toEqual([
        `Split the post into a thread of ${parts.length} parts, each within platformB's 280-character limit, with your words in their order.`,
      ]);
    }
  });

  describeRealPosts('on real posts', () => {
    it('real posts ending in their own question keep it on both platforms, with true notes', () => {
      const posts = readRealPosts('linkedin-creator-posts.csv')
        .filter((p) => !p.heldOut)
        .map((p) => p.text)
        // Posts the link and wording passes leave alone, so the question must survive word for word.
        .filter(
          (t) =>
            !/https?:|www\./i.test(t) &&
            !PLAIN_PHRASES.some(([re]) => new RegExp(re.source, re.flags).test(t)),
        )
        .filter((t) => (t.match(/—/g)?.length ?? 0) < 3)
        .filter((t) => {
          const q = lastSentence(t);
          return /\?$/.test(q) && q.length < 120 && !hasPhrase('bait', q);
        })
        .slice(0, 60);
      expect(posts.length).toBe(60);
      // Enough of them are over platformB's limit for the cut to be exercised.
      expect(posts.filter((p) => p.length > 280).length).toBeGreaterThan(20);
      const failures: string[] = [];
      for (const post of posts) {
        const question = lastSentence(post);
        for (const platform of PLATFORMS) {
          for (const { rewrite: first, thread = [], changes } of both(post, platform)) {
            const where = `${platform}: ${post.slice(0, 50)}`;
            const parts = [first, ...thread];
            if (parts.some((p) => p.length > rubricFor(platform).maxLength))
              failures.push(`too long, ${where}`);
            // On a thread the question closes the last part.
            const rewrite = parts.at(-1)!;
            if (!unTagged(rewrite.replace(TRAILING_TAGS, '')).endsWith(unTagged(question)))
              failures.push(`lost "${question}", ${where}`);
            if (rewrite.includes(GENERIC_QUESTION)) failures.push(`generic question, ${where}`);
            failures.push(...falseNotes(post, rewrite, changes).map((n) => `${n}, ${where}`));
          }
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
    });
  });
});

describe('POST /v1/rewrite on platformB (the newcomer walk)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp();
    ({ apiKey: key } = await t.signup());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('returns the thread, keeps the question and scores the post as it would be published', async () => {
    const body = { post: LONG_POST, platform: 'platformB' };
    const res = await t.request('POST', '/v1/rewrite', { key, body });
    expect(res.status).toBe(200);
    const { rewrite, thread, firstComment, changes, after } = res.body;
    expect(thread.length).toBeGreaterThan(0);
    expect(firstComment).toBeNull();
    expect(thread.at(-1).endsWith(OWN_QUESTION)).toBe(true);
    expect([rewrite, ...thread].join(' ')).not.toContain(GENERIC_QUESTION);
    expect(changes.map((c: RewriteChange) => c.note).join('\n')).toMatch(/Split the post into a thread/);
    // `after` is the post as published: its first part, which the feed shows and ranks.
    const scored = await t.request('POST', '/v1/score', { key, body: { ...body, post: rewrite } });
    expect(after).toEqual(scored.body);
  });
});
