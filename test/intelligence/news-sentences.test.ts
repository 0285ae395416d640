import fc from 'fast-check';
import { expect, it } from 'vitest';
import { newsInFirstPerson } from '../../src/scoring/rules/claims.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';
import { sentenceStats } from '../../src/scoring/text/text-scan.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Whether a post tells the writer's own news reads the sentences the sentence scan found and the
 * phrases' places in the whole lower-cased text (claims.ts `newsInSentences`), where it split
 * the text with a regex and lower-cased each sentence. Both must answer alike, on generated texts
 * of pronouns, news words, sentence ends, line breaks and characters whose lower case moves or
 * depends on what follows, and on every real post of the authors not held out.
 */
const withScan = (t: string, phrases: readonly string[]) => {
  const lower = t.toLowerCase();
  const sentences: number[] = [];
  sentenceStats(t, lower, undefined, undefined, sentences);
  return newsInFirstPerson(t, phrases, { lower, sentences });
};

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'I',
        'I’m',
        "I'm",
        'my',
        'My',
        'We',
        'our',
        'us',
        'them',
        'thrilled',
        'my first',
        'grateful',
        'thanks to',
        'first day',
        'day. my',
        'grateful\nwe',
        ' ',
        '  ',
        '.',
        '. ',
        '!',
        '?',
        '…',
        '\n',
        '\n\n',
        '\t',
        '\u2028',
        '’',
        "'",
        'É',
        'Σ',
        'İ',
        '𝐁',
        '\ud835',
        '7',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));
const phrases = fc.subarray([
  'thrilled',
  'my first',
  'grateful',
  "i'm",
  'thanks to',
  'first day',
  'day.',
  'e i',
  // Phrases across a sentence's end: no sentence holds them.
  'day. my',
  'grateful\nwe',
]);

it('finds first-person news in the scanned sentences where the split sentences hold it', () => {
  let yes = 0;
  fc.assert(
    fc.property(text, phrases, (t, p) => {
      const expected = newsInFirstPerson(t, p);
      expect(withScan(t, p)).toBe(expected);
      if (expected) yes++;
    }),
    { numRuns: 10_000 },
  );
  expect(yes).toBeGreaterThan(500);
});

describeRealPosts('first-person news on the real posts', () => {
  it('is found alike from the features the scorer keeps', () => {
    const posts = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut);
    let yes = 0;
    for (const p of posts) {
      const f = extractFeatures(p.text);
      const expected = newsInFirstPerson(f.text, f.phrases.personalNews);
      expect(
        newsInFirstPerson(f.text, f.phrases.personalNews, { lower: f.lower, sentences: f.sentenceRanges }),
      ).toBe(expected);
      if (expected) yes++;
    }
    expect(yes).toBeGreaterThan(50);
  });
});
