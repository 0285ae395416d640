import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../scripts/lib/datasets.ts';
import { textLimitFor } from '../../src/platforms/profiles.ts';
import { offlineMeasure } from '../../src/scoring/scorer.ts';
import { rewriteOffline } from '../../src/scoring/writers/rewrite-offline.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

const weightedLength = (text: string) => textLimitFor('platformB', 'reply')!.length(text);

/**
 * Issue 22, item 4, measured on real posts (never the held-out authors): the offline rewrite
 * keeps the post. No appended hashtag is left behind as a bare word, every number, @mention and
 * link survives (a link in the first comment), and on platformB a post over the limit becomes a
 * thread that keeps at least 90% of its words, each part within the limit. Every check here reads
 * the original independently of the code under test.
 */

const TAG = /#([\p{L}\p{N}_]+)/gu;
const LINK = /https?:\/\/\S+/gi;
/** A run of tags that ends its line: appended to the sentence, not a word of it. */
const TRAILING_RUN =
  /(?:^|[.!?…:)"”'’\p{Extended_Pictographic}]\s*|\s)((?:#[\p{L}\p{N}_]+[ \t]*)+)[\s\p{P}]*$/u;

function appendedTags(post: string): string[] {
  const out: string[] = [];
  for (const line of post.split('\n')) {
    const run = line.match(TRAILING_RUN)?.[1];
    if (!run) continue;
    const tags = [...run.matchAll(TAG)].map((m) => m[1]!);
    const before = line.slice(0, line.lastIndexOf(run)).trim();
    // A lone tag after a word with no punctuation may be that sentence's word ("I work in #AI").
    if (tags.length === 1 && before && !/[.!?…:)"”'’\p{Extended_Pictographic}]$/u.test(before)) continue;
    out.push(...tags);
  }
  return out;
}

const bare = (text: string, word: string) =>
  text.match(
    new RegExp(`(?<![#\\p{L}\\p{N}_])${word.replace(/[^\p{L}\p{N}_]/gu, '')}(?![\\p{L}\\p{N}_])`, 'giu'),
  )?.length ?? 0;

const tagCount = (text: string, word: string) =>
  [...text.matchAll(TAG)].filter((m) => m[1]!.toLowerCase() === word.toLowerCase()).length;

/**
 * Appended tags of `post` whose word now stands bare in `out` more often than the post had it
 * bare or as a tag inside a sentence (which may keep its word).
 */
export function tagsRunIntoText(post: string, out: string): string[] {
  const appended = appendedTags(post);
  return [...new Set(appended)].filter((w) => {
    const inSentence = tagCount(post, w) - appended.filter((a) => a.toLowerCase() === w.toLowerCase()).length;
    return bare(out, w) > bare(post, w) + inSentence;
  });
}

const words = (text: string) =>
  (text
    .replace(LINK, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []) as string[];

/** Share of the original's words (as a multiset) still in `out`. */
export function wordsKept(post: string, out: string): number {
  const left = new Map<string, number>();
  for (const w of words(out)) left.set(w, (left.get(w) ?? 0) + 1);
  const all = words(post);
  let kept = 0;
  for (const w of all) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      kept++;
      left.set(w, n - 1);
    }
  }
  return all.length ? kept / all.length : 1;
}

const facts = (text: string) => ({
  // A number inside a hashtag ("#covid19") goes with the tag when tags past the cap go.
  numbers: (text
    .replace(LINK, ' ')
    .replace(TAG, ' ')
    .match(/\d+(?:[.,]\d+)*/g) ?? []) as string[],
  mentions: (text.match(/@[\p{L}\p{N}_]+/gu) ?? []) as string[],
  links: (text.match(LINK) ?? []).map((l) => l.replace(/[.,;:!?)]+$/, '')),
});

/** Numbers, mentions and links of the post that no part of the rewrite has. */
function factsLost(post: string, out: string): string[] {
  const have = facts(out);
  const want = facts(post);
  return [
    ...want.numbers.filter((n) => !have.numbers.includes(n)),
    ...want.mentions.filter((m) => !have.mentions.includes(m)),
    ...want.links.filter((l) => !out.includes(l)),
  ];
}

const published = (r: ReturnType<typeof rewriteOffline>) =>
  [r.rewrite, ...(r.thread ?? []), r.firstComment ?? ''].join('\n\n');

const posts = readRealPosts('linkedin-creator-posts.csv')
  .concat(readRealPosts('linkedin-posts-2025.csv'))
  .filter((p) => !isHeldOut(p.file, p.author))
  .map((p) => p.text);

describe('checks of this suite', () => {
  it('finds appended tags and bare words the way a reader would', () => {
    const post = 'What are you most excited about? #digitalhealth #future\nI work in #AI';
    expect(appendedTags(post)).toEqual(['digitalhealth', 'future']);
    expect(tagsRunIntoText(post, 'What are you most excited about? digitalhealth future')).toEqual([
      'digitalhealth',
      'future',
    ]);
    expect(tagsRunIntoText(post, 'What are you most excited about?\n\n#digitalhealth')).toEqual([]);
    expect(wordsKept('one two three four', 'one two')).toBe(0.5);
    expect(factsLost('We grew 40% with @Ana, see https://x.io/a', 'We grew 40%')).toEqual([
      '@Ana',
      'https://x.io/a',
    ]);
  });
});

describeRealPosts('offline rewrite keeps the post (real posts, no held-out author)', () => {
  const tagged = posts.filter((p) => (p.match(TAG)?.length ?? 0) >= 6).slice(0, 150);
  const linked = posts.filter((p) => LINK.test(p)).slice(0, 150);
  const long = posts.filter((p) => p.length > 600).slice(0, 150);

  it('has real posts of each kind', () => {
    expect([tagged.length, linked.length, long.length]).toEqual([150, 150, 150]);
  });

  it('never leaves an appended hashtag as a bare word in the text (platformA and platformB)', () => {
    const failures: string[] = [];
    for (const post of tagged)
      for (const platform of ['platformA', 'platformB'] as const) {
        const r = rewriteOffline({ post, platform }, offlineMeasure({ post, platform }));
        const run = tagsRunIntoText(post, published(r));
        if (run.length)
          failures.push(`${platform}: ${run.join(' ')} in ${JSON.stringify(r.rewrite.slice(0, 120))}`);
      }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('keeps every number, mention and link; a link moved out comes back as the first comment', () => {
    const failures: string[] = [];
    for (const post of [...linked, ...long])
      for (const platform of ['platformA', 'platformB'] as const) {
        const r = rewriteOffline({ post, platform }, offlineMeasure({ post, platform }));
        if (post.length > 3000 && platform === 'platformA') continue;
        const lost = factsLost(post, published(r));
        if (lost.length)
          failures.push(`${platform}: lost ${lost.join(', ')} from ${JSON.stringify(post.slice(0, 100))}`);
        if (LINK.test(post)) {
          expect(r.rewrite).not.toMatch(LINK);
          expect(r.firstComment).toBeTruthy();
        }
      }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it('on platformB makes a long post a thread: every part within the limit, >= 90% of words kept', () => {
    const kept: number[] = [];
    for (const post of long) {
      const input = { post, platform: 'platformB' as const };
      const r = rewriteOffline(input, offlineMeasure(input));
      const parts = [r.rewrite, ...(r.thread ?? [])];
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(280);
        expect(weightedLength(part)).toBeLessThanOrEqual(280);
        expect(part.trim()).not.toBe('');
      }
      expect(new Set(parts.map((p) => p.trim())).size).toBe(parts.length);
      const share = wordsKept(post, published(r));
      kept.push(share);
      expect(share, post.slice(0, 80)).toBeGreaterThanOrEqual(0.9);
    }
    const mean = kept.reduce((a, b) => a + b, 0) / kept.length;
    console.log(
      `platformB threads: mean words kept ${(mean * 100).toFixed(1)}%, lowest ${(Math.min(...kept) * 100).toFixed(1)}% over ${kept.length} posts`,
    );
  });
});
