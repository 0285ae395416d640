import fc from 'fast-check';
import { expect, it } from 'vitest';
import { PostSpans } from '../../src/scoring/text/spans.ts';
import { extractFeatures, normalizePost } from '../../src/scoring/text/text-features.ts';
import { sentenceStats, splitPieces } from '../../src/scoring/text/text-scan.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * PostSpans cuts a post's sentences once, by a scan of its code units, and the signals that
 * point at sentences test them in place. The sentences as they were cut before, with a regex
 * test per character, must come out the same, and so must the questions and the long sentences.
 */
function sentencesByRegex(t: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(t[s]!)) s++;
    while (e > s && /\s/.test(t[e - 1]!)) e--;
    if (e > s && /[\p{L}\p{N}]/u.test(t.slice(s, e))) out.push([s, e]);
  };
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === '\n') {
      push(i);
      start = i + 1;
    } else if ('.!?…'.includes(c) && (i + 1 === t.length || /\s/.test(t[i + 1]!))) {
      push(i + 1);
      start = i + 1;
    }
  }
  push(t.length);
  return out;
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '.',
        '!',
        '?',
        '…',
        '...',
        '?!',
        '\n',
        ' ',
        '  ',
        '\u00a0',
        '\u2028',
        '\t',
        '\ufeff',
        'word',
        'Team’s',
        'é',
        '—',
        '𝐁𝐨𝐥𝐝',
        '🚀',
        '\ud835',
        '7',
      ),
      fc.string({ maxLength: 4 }),
      fc.nat({ max: 40 }).map((n) => 'w '.repeat(n)),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

it('cuts the sentences the regex tests cut, and finds the same questions and long sentences', () => {
  fc.assert(
    fc.property(text, (t) => {
      const spans = new PostSpans(t, t);
      expect(spans.sentences()).toEqual(sentencesByRegex(t));
      expect(spans.sentences()).toBe(spans.sentences());
      expect(spans.sentencesAt((s, _, e) => s.charCodeAt(e - 1) === 63)).toEqual(
        spans.sentencesWhere((s) => s.endsWith('?')),
      );
      expect(spans.sentencesAt((s, b, e) => splitPieces(s, b, e) > 5)).toEqual(
        spans.sentencesWhere((s) => s.split(/\s+/).length > 5),
      );
    }),
    { numRuns: 5_000 },
  );
});

/** The sentences as the scorer's sentence scan hands them to PostSpans (text-features.ts). */
function sentencesByScan(t: string): number[] {
  const ranges: number[] = [];
  const { sentences } = sentenceStats(t, t.toLowerCase(), undefined, undefined, ranges);
  expect(ranges.length).toBe(2 * sentences);
  return ranges;
}

it('is handed by the sentence scan the sentences it would cut, and reads them the same', () => {
  fc.assert(
    fc.property(text, (raw) => {
      for (const t of [raw, normalizePost(raw)]) {
        const ranges = sentencesByScan(t);
        expect(ranges).toEqual(sentencesByRegex(t).flat());
        const given = new PostSpans(t, t, undefined, undefined, ranges);
        const cut = new PostSpans(t, t);
        expect(given.sentences()).toEqual(cut.sentences());
        expect(given.sentencesAt((s, _, e) => s.charCodeAt(e - 1) === 63)).toEqual(
          cut.sentencesWhere((s) => s.endsWith('?')),
        );
      }
    }),
    { numRuns: 5_000 },
  );
});

describeRealPosts('sentences of the real posts', () => {
  it('are the ones PostSpans cuts, as extractFeatures keeps them', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut);
    expect(posts.length).toBeGreaterThan(1_000);
    for (const p of posts) {
      const f = extractFeatures(p.text);
      expect(f.sentenceRanges).toEqual(sentencesByRegex(f.text).flat());
    }
  });
});

it("finds phrases case-blind with ’ read as ', from a lower-cased text it is given or makes", () => {
  const raw = "  Don’t miss it. DON'T miss it!\n";
  const t = raw.trim();
  const given = new PostSpans(raw, t, t.toLowerCase());
  const made = new PostSpans(raw, t);
  const expected = [
    { start: 2, end: 12 },
    { start: 17, end: 27 },
  ];
  expect(given.phrases(["don't miss"])).toEqual(expected);
  expect(made.phrases(["don't miss"])).toEqual(expected);
  // The straightened text is made once and read again.
  expect(made.phrases(['miss it'])).toEqual([
    { start: 8, end: 15 },
    { start: 23, end: 30 },
  ]);
});
