import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordOrder } from '../../src/scoring/learned/word-order.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import {
  cutTokens,
  hasPhraseIn,
  PHRASE_LISTS,
  type PhraseList,
  scanPhrases,
  scanWords,
  tokenize,
} from '../../src/scoring/text/phrases.ts';
import { lookUpWords } from '../../src/scoring/text/word-facts.ts';

/**
 * The tokeniser's mode that cuts no string for the words no table knows (phrases.ts
 * `scanWords`) answers what the cut tokens answer: the strings it cuts on demand, the phrase
 * matches read by word id, and the distinct-word count compared by text ranges.
 */
const phraseWords = Object.values(PHRASE_LISTS).flatMap((list) => list.flatMap((p) => p.split(' ')));
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(...phraseWords, 'zzq', 'Zzq', 'zzq’s', "zzq's", 'qx-zz', '3.5', '?', '"', '’'),
      fc.constantFrom(' ', ' ', '\n', '. ', 's ', 'ers '),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

describe('words left uncut', () => {
  it('cuts on demand the tokens tokenize cuts, and matches phrases and counts words as they do', () => {
    scoreHeuristically({ post: 'Warm the vocabulary: I love this.' });
    fc.assert(
      fc.property(text, (t) => {
        const cut = tokenize(t);
        const scan = scanWords(t);
        expect(cutTokens(scan.words, scan.count)).toEqual(cut);
        expect(cutTokens(scan.words, Math.min(3, scan.count))).toEqual(cut.slice(0, 3));
        expect(scan.words.ids).toEqual(lookUpWords(cut).ids);
        expect(wordOrder(() => cut, scan.words)).toEqual(wordOrder(cut, lookUpWords(cut)));
        const byIds = scanPhrases(() => {
          throw new Error('a current lookup needs no token strings');
        }, scan.words);
        expect(byIds).toEqual(scanPhrases(cut));
        for (const list of Object.keys(PHRASE_LISTS) as PhraseList[]) {
          // Matching by id where the strings match, at every start and over a prefix too.
          expect(hasPhraseIn(list, cut, undefined, scan.words)).toBe(hasPhraseIn(list, cut));
          const head = cut.slice(0, 5);
          expect(hasPhraseIn(list, head, undefined, scan.words)).toBe(hasPhraseIn(list, head));
          // A match counted is a match (the scan skips starts inside an earlier match).
          if (byIds.counts[list] > 0) expect(hasPhraseIn(list, cut)).toBe(true);
        }
      }),
      { numRuns: 3_000 },
    );
  });
});
