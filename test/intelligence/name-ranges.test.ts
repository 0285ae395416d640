import fc from 'fast-check';
import { expect, it } from 'vitest';
import commonWords from '../../src/scoring/text/common-words.json' with { type: 'json' };
import { nameRanges } from '../../src/scoring/text/names.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';
import { capitalStarts, sentenceStats } from '../../src/scoring/text/text-scan.ts';
import { scanWords } from '../../src/scoring/text/tokenizer.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * names.ts as it was written with regexes (before it was made fast): the candidates by their
 * pattern, a headline's words by theirs, and each candidate's word searched for in lower case;
 * a common word (common-words.json) kept only with a name's evidence, read by patterns around
 * it. The hand scans (candidates from the sentence scan, one pass over the runs of letters for the
 * words written in lower case) must find exactly the same names.
 */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but nor so yet if then than as at by for from in into of off on onto out over to up with ' +
    'about after before between through during without within under is am are was were be been being have has ' +
    'had do does did will would shall should can could may might must not no all any both each every few more ' +
    'most other some such only own same too very just also now this that these those it its you your we our ' +
    'they their he his she her my me us them what which who why how when where here there ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april june july august ' +
    'september october november december'
  ).split(' '),
);
const COMMON = new Set(commonWords.words);
const CANDIDATE = /(?<=[\p{Ll}\p{N},;:)] )\p{Lu}[\p{L}\p{N}]+/gu;
/** A common word's evidence of a name: a capital inside, a capitalised word after it, or one before it that is mid-sentence or no common word. */
function nameEvidence(text: string, at: number, end: number, candidates: Set<number>): boolean {
  if (/\p{Ll}\p{Lu}/u.test(text.slice(at, end))) return true;
  const after = /^ (\p{Lu}[\p{L}\p{N}]*)/u.exec(text.slice(end));
  if (after && !FUNCTION_WORDS.has(after[1]!.toLowerCase())) return true;
  const before = /(?:^|[^\p{L}\p{N}])(\p{Lu}[\p{L}\p{N}]*) $/u.exec(text.slice(0, at));
  if (!before) return false;
  const start = at - 1 - before[1]!.length;
  const lineHead = text.slice(text.lastIndexOf('\n', start) + 1, start);
  if (candidates.has(start) && /\p{L}/u.test(lineHead)) return true;
  const word = before[1]!.toLowerCase();
  return /\p{Ll}/u.test(before[1]!) && !COMMON.has(word) && !FUNCTION_WORDS.has(word);
}
function namesByRegex(text: string, lower = text.toLowerCase()): [number, number][] {
  const candidates = new Set([...text.matchAll(CANDIDATE)].map((m) => m.index));
  const titleCase = (line: string) => {
    let words = 0;
    let upper = 0;
    for (const m of line.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)) {
      words++;
      if (/^\p{Lu}/u.test(m[0])) upper++;
    }
    return words >= 4 && upper >= 0.75 * words;
  };
  const writtenLower = (word: string) => {
    if (lower.length !== text.length) return false;
    const boundary = (c: number) => Number.isNaN(c) || !/[\p{L}\p{N}]/u.test(String.fromCharCode(c));
    for (let i = lower.indexOf(word); i !== -1; i = lower.indexOf(word, i + 1))
      if (
        boundary(lower.charCodeAt(i - 1)) &&
        boundary(lower.charCodeAt(i + word.length)) &&
        text.charCodeAt(i) === lower.charCodeAt(i)
      )
        return true;
    return false;
  };
  const out: [number, number][] = [];
  let lineEnd = -1;
  let skip = false;
  for (const m of text.matchAll(CANDIDATE)) {
    const at = m.index;
    if (at >= lineEnd) {
      const nl = text.indexOf('\n', at);
      lineEnd = nl === -1 ? text.length : nl;
      skip = titleCase(text.slice(text.lastIndexOf('\n', at) + 1, lineEnd));
    }
    if (skip) continue;
    const word = lower.slice(at, at + m[0].length);
    if (FUNCTION_WORDS.has(word) || writtenLower(word)) continue;
    if (COMMON.has(word) && !nameEvidence(text, at, at + m[0].length, candidates)) continue;
    out.push([at, at + m[0].length]);
  }
  return out;
}

/** Texts made of what the names decide on: capitals after lower-case letters, the same words in lower case, headlines, letters outside the BMP, lone surrogates. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        ', ',
        '; ',
        ') ',
        '\n',
        'a ',
        'met ',
        'Stripe',
        'stripe',
        'Team',
        'team',
        'team’s',
        'The',
        'How To Build A Team',
        'Key Takeaways',
        'Honest',
        'Be Honest: ',
        '1) ',
        'Will',
        'Smith',
        'Microsoft',
        'HubSpot',
        'Working Groups',
        'É',
        'élan',
        'Élan',
        'İstanbul',
        'Σ',
        'ΟΔΟΣ',
        '𝐁𝐨𝐥𝐝',
        '𝐛𝐨𝐥𝐝',
        'X1',
        'x1',
        '7 ',
        '-',
        "'",
        '\ud835',
        '\udc01',
        '🚀',
      ),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

it('finds the names the regexes found, from the sentence scan’s capitals', () => {
  fc.assert(
    fc.property(text, (t) => {
      const lower = t.toLowerCase();
      const expected = namesByRegex(t, lower);
      expect(nameRanges(t, lower)).toEqual(expected);
      const capitals: number[] = [];
      sentenceStats(t, lower, undefined, capitals);
      expect(capitals).toEqual(capitalStarts(t));
      expect(nameRanges(t, lower, capitals)).toEqual(expected);
      // The runs of letters and digits the tokeniser finds on its scan, read instead of the text.
      const scan = scanWords(t);
      expect(nameRanges(t, scan.lower, capitals, scan.units, scan.runs)).toEqual(expected);
    }),
    { numRuns: 5_000 },
  );
  // Long enough for the code-unit buffers to grow, then short again.
  const long = 'We met Stripe and Priya in Oslo, then stripe again; Team and team. '.repeat(300);
  expect(nameRanges(long)).toEqual(namesByRegex(long));
  expect(nameRanges('Then we met Ana, and Bob said hi')).toEqual([
    [12, 15],
    [21, 24],
  ]);
});

describeRealPosts('names on the real posts', () => {
  it('are what the regexes find, as extractFeatures keeps them', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ];
    expect(posts.length).toBeGreaterThan(1_000);
    let named = 0;
    for (const p of posts) {
      const f = extractFeatures(p.text);
      const expected = namesByRegex(f.text);
      expect(f.names).toEqual(expected);
      if (expected.length > 0) named++;
    }
    expect(named).toBeGreaterThan(posts.length / 4);
  });
});
