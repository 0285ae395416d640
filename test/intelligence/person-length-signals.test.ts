import { afterAll, beforeAll, expect, it } from 'vitest';
import { FORM_MEASURES } from '../../src/scoring/learned/measures/form.ts';
import type { MeasureInput } from '../../src/scoring/learned/measures/row.ts';
import { spansOf } from '../../src/scoring/learned/signal-spans.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { PostSpans } from '../../src/scoring/text/spans.ts';
import { extractFeatures, normalizePost } from '../../src/scoring/text/text-features.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 32, never false: the lengths a writer is told, and the thresholds behind them, count the
 * characters a person sees (an emoji or an accented letter made of two code points is one), not
 * UTF-16 code units: the dense paragraph's sentence, validate's `stats.length`, and the opening's
 * layout and length as the learned model reads them. On posts built of emoji and combining marks
 * and on real posts (never the held-out authors).
 */

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (t: string) => [...SEGMENTER.segment(t)].length;
/** A word a person reads as 6 characters that UTF-16 counts as 8: "café" spelt with a combining accent, and a rocket. */
const WORD = 'cafe\u0301 🚀';
const paragraph = (words: number) => Array.from({ length: words }, () => WORD).join(' ');

const measure = (name: string, text: string) =>
  FORM_MEASURES.find((m) => m.name === name)!.value({ f: extractFeatures(text) } as MeasureInput);
/** The dense-paragraph rule's finding (the signal says it when the layout concept speaks through it). */
const denseParagraph = (post: string) =>
  runRules({ post }).hits.find((h) => h.rule === 'structure.long_paragraph');
const denseSpans = (post: string) => {
  const f = extractFeatures(post);
  return spansOf('structure.long_paragraph', {
    spans: new PostSpans(post, f.text),
    f,
    overflowAt: post.length,
  });
};
const denseSignal = (post: string) =>
  scoreHeuristically({ post }).signals.find((s) => s.rule === 'structure.long_paragraph');

it('tells a dense paragraph by the characters a person sees', () => {
  // 57 words: 398 characters to a person, 512 UTF-16 units: not dense.
  const under = `Notes from the offsite.\n\n${paragraph(57)}`;
  expect(paragraph(57).length).toBeGreaterThan(400);
  expect(graphemes(paragraph(57))).toBeLessThanOrEqual(400);
  expect(denseParagraph(under)).toBeUndefined();
  // 70 words: 489 characters, and the sentence says so.
  const over = `Notes from the offsite.\n\n${paragraph(70)}`;
  expect(denseParagraph(over)!.detail).toContain(`One paragraph runs ${graphemes(paragraph(70))} characters`);
  // Its signal points at that paragraph, not at a line longer in UTF-16 units only.
  const dense = `${paragraph(60)}\n\n${'Plain words. '.repeat(34)}`;
  expect(paragraph(60).length).toBeGreaterThan('Plain words. '.repeat(34).trim().length);
  const [span] = denseSpans(dense);
  expect(dense.slice(span!.start, span!.end)).toBe('Plain words. '.repeat(34).trim());
});

it('reads the opening line and the opening sentence by the characters a person sees', () => {
  // An opening line of 149 characters to a person (191 UTF-16 units) stands on its own.
  const opening = `${paragraph(21)} ok`;
  expect(graphemes(opening)).toBeLessThan(160);
  expect(opening.length).toBeGreaterThan(160);
  expect(measure('text.hook_own_line', `${opening}\n\nThe rest of the post.`)).toBe(1);
  expect(measure('text.hook_length', `${opening}.\nMore.`)).toBeCloseTo(
    Math.log1p(graphemes(`${opening}.`)),
    12,
  );
});

describeRealPosts('lengths told on real posts', () => {
  it('say the dense paragraph’s length as a person counts it', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ]
      .filter((p) => !p.heldOut)
      .map((p) => normalizePost(p.text))
      .filter((t) => t.length !== graphemes(t));
    let told = 0;
    for (const text of posts) {
      const said = denseParagraph(text);
      if (!said) continue;
      told++;
      const longest = Math.max(...text.split('\n').map(graphemes));
      expect(said.detail).toContain(`One paragraph runs ${longest} characters`);
      const shown = denseSignal(text);
      if (shown) expect(graphemes(text.slice(shown.spans[0]!.start, shown.spans[0]!.end))).toBe(longest);
    }
    // Measured 2026-12-06: 62 of the 1,389 posts whose UTF-16 count differs from a person’s.
    expect(told).toBeGreaterThan(20);
  }, 120_000);
});

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ apiKey: key } = await t.signup());
});
afterAll(async () => {
  await t?.close();
});

it('validate counts the post’s length as a person counts it', async () => {
  const post = `  Launch day 🚀🎉\n\nWe shipped the cafe\u0301 menu to 👨‍👩‍👧‍👦 families.  \n`;
  const res = await t.request('POST', '/v1/posts/validate', { key, body: { post } });
  expect(res.status).toBe(200);
  expect(res.body.stats.length).toBe(graphemes(post.trim()));
  expect(res.body.stats.length).toBeLessThan(post.trim().length);
});
