import fc from 'fast-check';
import { expect, it } from 'vitest';
import {
  allPhrasePatterns,
  candidatePatterns,
  compiled,
  type GenericPattern,
  matchesAtRuns,
} from '../../src/scoring/rules/generic-text-phrases.ts';
import { scanWords } from '../../src/scoring/text/tokenizer.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * The generic-text rule tries the phrases' patterns only at the runs of letters and digits that
 * start on the phrase's first letter (`matchesAtRuns`), where it ran each over the whole lower-
 * cased post. For every pattern that is tried so, the matches must be the global search's, on
 * generated texts built of the phrases' own words and what can stand around them (joiners that
 * make one token of two runs, letters past U+FFFF, lone surrogates, capitals), and on real posts.
 */
const patterns = allPhrasePatterns().filter(
  (p): p is GenericPattern & { opens: NonNullable<GenericPattern['opens']> } => p.opens !== undefined,
);

const globalMatches = (p: GenericPattern, lower: string): number[] => {
  const re = compiled(p.source, false);
  const out: number[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(lower); m !== null; m = re.exec(lower)) out.push(m.index, m.index + m[0].length);
  re.lastIndex = 0;
  return out;
};

function sameMatches(t: string, only?: 'candidates'): number {
  const { lower, runs, words } = scanWords(t);
  if (lower.length !== t.length) return 0;
  let found = 0;
  const tried =
    only === undefined ? patterns : candidatePatterns(words.ids).filter((p) => patterns.includes(p as never));
  for (const p of tried as typeof patterns) {
    const expected = globalMatches(p, lower);
    const got: number[] = [];
    matchesAtRuns(p, lower, [...runs], (s, e) => got.push(s, e));
    expect(got).toEqual(expected);
    found += expected.length / 2;
  }
  return found;
}

const words = fc.constantFrom(
  'thrilled',
  'Thrilled',
  'to',
  'share',
  'shares',
  'comment',
  'below',
  'if',
  'drop',
  'a',
  'never',
  'give',
  'up',
  "let's",
  'let’s',
  'delve',
  'i',
  'can',
  'do',
  'it,',
  'so',
  'you',
  'every.',
  'single.',
  'day',
  'agree',
  'comfort',
  'zone',
  'zones',
  'stay',
  'tuned',
  'add',
  'value',
  '7',
);
const phrases = fc.constantFrom(
  'thrilled to share',
  'excited to announce',
  'comment below if',
  'let’s delve',
  "let's delve",
  'stay tuned',
  'comfort zones',
  'never give up',
  'if i can do it, so can you',
  'every. single. day',
  'drop a 🔥',
  'add value',
  'agree?',
  'the best is yet to come',
);
const around = fc.constantFrom(
  ' ',
  ' ',
  '  ',
  '\n',
  '\t',
  '-',
  "'",
  '’',
  '.',
  ',',
  '?',
  '🚀',
  '𝐁',
  'é',
  'É',
  '\ud835',
  '\udc01',
  'x',
  '3',
);
const text = fc
  .array(fc.oneof(phrases, words, around, around, fc.string({ maxLength: 2 })), { maxLength: 24 })
  .map((parts) => parts.join(''));

it('tries most phrase patterns at runs', () => {
  expect(patterns.length).toBeGreaterThan(0.8 * allPhrasePatterns().length);
});

it('finds at the runs what the global search finds, on generated texts', () => {
  let found = 0;
  fc.assert(
    fc.property(text, (t) => {
      found += sameMatches(t);
    }),
    { numRuns: 2_000 },
  );
  expect(found).toBeGreaterThan(100);
});

describeRealPosts('phrase patterns at runs on the real posts', () => {
  // Every pattern over thousands of posts takes minutes: the ones the rule tries on each post.
  it('find what the global search finds, for the patterns the rule tries', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut);
    expect(posts.length).toBeGreaterThan(1_000);
    let found = 0;
    for (const p of posts) found += sameMatches(p.text, 'candidates');
    expect(found).toBeGreaterThan(50);
  });
});
