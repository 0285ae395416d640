import { expect, it } from 'vitest';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import type { ScoreInput, Signal } from '../../src/scoring/types.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 32, signals agree across concepts: a post told it repeats itself is never told, beside
 * it, to keep what the copies inflate (its length, lines, sentences, numbers, names, the story
 * told again, the questions asked again, its voice), and the repetition signal names the copied
 * sentences with their share of the text, not "few different words", when sentences are what
 * was copied. Over bad writing built for the check (a sentence written 80 times, a paragraph
 * pasted again) and bad writing built from real posts (never the held-out authors): no real post
 * repeats itself enough to trip the rule (0 of 4,943, 2026-12-06).
 */

/** Praise a post that repeats itself may get: about its opening, format or timing, none read from the copies. */
const NOT_FROM_COPIES = new Set(['opening', 'format', 'timing']);

interface Checked {
  repetition: Signal | undefined;
  praise: Signal[];
  outside: Signal[];
}

function check(input: ScoreInput): Checked {
  const { signals } = scoreHeuristically(input);
  const repetition = signals.find((s) => s.rule === 'writing.repetition');
  return {
    repetition,
    praise: repetition
      ? signals.filter((s) => s.impact === 'positive' && !NOT_FROM_COPIES.has(s.concept))
      : [],
    outside: signals.filter((s) => s.spans.some((x) => x.start < 0 || x.end > input.post.length)),
  };
}

/** The share the signal states ("About 99% of the text repeats a sentence already written"). */
const statedShare = (s: Signal) => Number(/About (\d+)% of the text repeats a sentence/.exec(s.detail)?.[1]);

const SENTENCE = 'We shipped the new billing flow to every customer this week after months of work.';
const PARAGRAPH =
  'Our team spent three weeks testing the 12 edge cases that broke checkout for 300 customers last year. I learned more from those failures than from any launch.';

it('tells a sentence written 80 times by its share, and praises nothing the copies inflate', () => {
  const post = Array.from({ length: 80 }, () => SENTENCE).join(' ');
  const { repetition, praise } = check({ post, platform: 'platformA' });
  // 79 of 80 copies repeat the first: about 99% of the sentences' characters.
  expect(statedShare(repetition!)).toBe(99);
  expect(repetition!.detail).toContain('say each thing once');
  // The copies are marked (the first telling is not), as many as a signal carries.
  expect(repetition!.spans.length).toBeGreaterThan(10);
  expect(repetition!.spans[0]!.start).toBeGreaterThan(SENTENCE.length - 1);
  expect(post.slice(repetition!.spans[0]!.start, repetition!.spans[0]!.end)).toBe(SENTENCE);
  expect(praise.map((s) => s.label)).toEqual([]);
});

it('tells a pasted paragraph by its share on both platforms, with no praise beside it', () => {
  for (const platform of ['platformA', 'platformB'] as const) {
    const copies = platform === 'platformA' ? 6 : 2;
    const post = [`Launch notes.`, ...Array.from({ length: copies }, () => PARAGRAPH)].join('\n\n');
    const { repetition, praise } = check({ post, platform });
    expect(repetition, platform).toBeDefined();
    // All but the first copy of the paragraph, of the sentences' characters (the heading is the rest).
    const copied = (copies - 1) * (PARAGRAPH.length - 3);
    const expected = (100 * copied) / (copies * (PARAGRAPH.length - 3) + 'Launch notes'.length);
    expect(Math.abs(statedShare(repetition!) - expected), platform).toBeLessThanOrEqual(1);
    expect(
      praise.map((s) => s.label),
      platform,
    ).toEqual([]);
  }
});

describeRealPosts('repetition built from real posts', () => {
  it('tells the copies of a real post by their share and praises nothing they inflate', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut && p.text.trim().length >= 200);
    // Every 10th post, three ways: the whole post twice, its longest paragraph pasted three more
    // times, and its first sentence of 40 or more characters written 80 times.
    let built = 0;
    let told = 0;
    const wrong: string[] = [];
    for (let i = 0; i < posts.length; i += 10) {
      const text = posts[i]!.text.trim();
      const paragraphs = text.split(/\n\s*\n/);
      const longest = paragraphs.reduce((a, b) => (b.length > a.length ? b : a));
      const sentence = text.split(/(?<=[.!?])\s+|\n/).find((s) => s.trim().length >= 40);
      const variants = [
        `${text}\n\n${text}`,
        `${text}\n\n${[longest, longest, longest].join('\n\n')}`,
        ...(sentence ? [Array.from({ length: 80 }, () => sentence.trim()).join(' ')] : []),
      ];
      for (const post of variants) {
        built++;
        const { repetition, praise, outside } = check({ post, platform: 'platformA' });
        if (outside.length > 0) wrong.push(`span outside the post: ${outside[0]!.label}`);
        if (!repetition) continue;
        told++;
        if (!/repeats a sentence already written/.test(repetition.detail))
          wrong.push(`few-words branch: ${post.slice(0, 60)}`);
        for (const s of praise) wrong.push(`${s.label} beside repeated text: ${post.slice(0, 60)}`);
      }
    }
    expect(built).toBeGreaterThan(1000);
    // Measured 2026-12-06: 1,402 of 1,413 built posts are told they repeat themselves (the rest
    // paste a short paragraph into a long post, under a quarter of it).
    expect(told / built).toBeGreaterThan(0.9);
    expect(wrong).toEqual([]);
  }, 180_000);
});
