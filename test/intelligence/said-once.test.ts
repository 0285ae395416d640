import { expect, it } from 'vitest';
import { countedLength } from '../../packages/client/src/text-length.ts';
import { readGeneric } from '../../src/scoring/rules/generic-text.ts';
import { rubricFor } from '../../src/scoring/rules/rubrics.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';
import type { ScoreInput, Signal } from '../../src/scoring/types.ts';
import { FORMULAIC_POSTS } from '../fixtures/formulaic-posts.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * One concept, one say, across concepts too (issue 32): the same words are praised once
 * ("Story hook" and "Personal story" both quoting the opening sentence said one thing twice), a
 * stock opening is named once (by generic text, not again as "Generic opener"), and a platitude
 * stack's one-line paragraphs are not praised as a rhythm to keep. Over real posts (never the
 * held-out authors) and the formulaic fixture (bad writing built for the check), both platforms.
 */

const real = [...readRealPosts('linkedin-creator-posts.csv'), ...readRealPosts('linkedin-posts-2025.csv')]
  .filter((p) => !p.heldOut && p.text.trim().length > 0)
  .filter((_, i) => i % 6 === 0)
  .map((p) => p.text);
const texts = [...real, ...FORMULAIC_POSTS.map((p) => p.text)];
const inputs: ScoreInput[] = texts.flatMap((post) => [
  { post },
  { post: post.slice(0, 270).replace(/\s+\S*$/u, ''), platform: 'platformB' as const },
]);
const scored = inputs.map((input) => ({ input, signals: scoreHeuristically(input).signals }));
const spanKey = (s: Signal) => s.spans.map((x) => `${x.start}-${x.end}`).join(',');
const overlaps = (a: Signal, b: Signal) =>
  a.spans.some((x) => b.spans.some((y) => x.start < y.end && y.start < x.end));

describeRealPosts('each finding said once', () => {
  it('praises the same words once: no two positive signals mark exactly the same text', () => {
    let twice = 0;
    let praisedWithSpans = 0;
    for (const { signals } of scored) {
      const keys = signals.filter((s) => s.impact === 'positive' && s.spans.length > 0).map(spanKey);
      praisedWithSpans += keys.length;
      twice += keys.length - new Set(keys).size;
    }
    expect(praisedWithSpans).toBeGreaterThan(500);
    expect(twice).toBe(0);
  });

  it('names a stock opening once: no "Generic opener" where generic text marks words of the first line', () => {
    let openers = 0;
    let twice = 0;
    for (const { signals } of scored) {
      const generic = signals.find((s) => s.concept === 'generic' && s.impact === 'negative');
      for (const s of signals.filter((s) => s.rule === 'hook.generic_opener')) {
        openers++;
        if (generic && overlaps(s, generic)) twice++;
      }
    }
    expect(twice).toBe(0);
    // The opener still speaks where generic text does not name it.
    expect(openers).toBeGreaterThan(0);
  });

  it('never praises the layout of a platitude stack it calls generic', () => {
    let stacks = 0;
    const praised: string[] = [];
    for (const { input, signals } of scored) {
      if (!signals.some((s) => s.concept === 'generic' && s.impact === 'negative')) continue;
      if (!readGeneric(extractFeatures(input.post)).platitudes) continue;
      stacks++;
      for (const s of signals)
        if (s.concept === 'layout' && s.impact === 'positive')
          praised.push(`${s.label}: ${input.post.slice(0, 40)}`);
    }
    expect(stacks).toBeGreaterThan(10);
    expect(praised).toEqual([]);
  });

  it('never asks for more words the limit has no room for, and says the room once', () => {
    const grow = /add a sentence|add the detail|take it past 300 characters/;
    const room =
      /put the rest in a second part of the thread, since \w+'s 280-character limit leaves \d+ characters?\./;
    let nearLimit = 0;
    let told = 0;
    for (const { input, signals } of scored) {
      if (input.platform !== 'platformB') continue;
      const said = signals.map((s) => s.detail);
      expect(said.filter((d) => room.test(d)).length).toBeLessThanOrEqual(1);
      if (said.some((d) => room.test(d))) told++;
      // Within a fifth of the limit, counted the platform's way.
      const { counting, maxLength } = rubricFor('platformB');
      if (countedLength(counting, input.post.trim()) <= 0.8 * maxLength) continue;
      nearLimit++;
      expect(
        said.filter((d) => grow.test(d)),
        input.post.slice(0, 60),
      ).toEqual([]);
    }
    expect(nearLimit).toBeGreaterThan(100);
    expect(told).toBeGreaterThan(10);
  });
});
