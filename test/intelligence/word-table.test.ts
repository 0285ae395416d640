import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreModel, wordWeights } from '../../src/scoring/learned/model.ts';
import { sentimentOf, vaderLexicon } from '../../src/scoring/learned/sentiment.ts';
import { wordPass } from '../../src/scoring/learned/words.ts';
import { archetypeOf, detectArchetype } from '../../src/scoring/rules/hook.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { hasPhrase, tokenize, tokenizeWords } from '../../src/scoring/text/phrases.ts';
import { DistinctCounter, hashString, StringIds } from '../../src/scoring/text/string-table.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';
import { lookUpWords, wordFacts } from '../../src/scoring/text/word-facts.ts';

/**
 * The scorer's word table (word-facts.ts, string-table.ts) is only a faster way to ask the same
 * questions: the scan's tokens, hashes and records equal a lookup of each token by itself, and
 * the tables agree with a Map and a Set.
 */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'I',
        'not',
        'The',
        'don’t',
        'it’s',
        'I’m',
        'zzq’s',
        "it's",
        '3.5',
        '10,000',
        '?',
        '“',
        '"',
        ' ',
        '\n',
        '—',
        '.',
        '! ',
        '… ',
        "In today's",
        "Let's dive",
        '\u00a0',
        '🚀',
        'Σ',
        'İ',
        'love',
        'great',
        'Hot take',
        'unpopular opinion',
        'Thrilled',
        'excited to share',
      ),
      fc.string({ maxLength: 5 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('word table', () => {
  it('finds in one scan what looking up each token finds', () => {
    scoreHeuristically({ post: 'Warm the vocabulary: I love this.' });
    fc.assert(
      fc.property(text, (t) => {
        const { tokens, words } = tokenizeWords(t);
        expect(words.hashes).toEqual(tokens.map(hashString));
        expect(words.ids).toEqual(lookUpWords(tokens).ids);
        expect(words.ids).toEqual(tokens.map((token) => wordFacts(token)?.id ?? -1));
        // What the passes read instead of the token strings: marks, words starting with a digit, words.
        const kinds = tokens.map((token) =>
          token === '?' || token === '"' ? 2 : /^[0-9]/.test(token) ? 1 : 0,
        );
        expect(words.kinds).toEqual(kinds);
        expect(lookUpWords(tokens).kinds).toEqual(kinds);
      }),
      { numRuns: 1_000 },
    );
    // More tokens than the scan's first guess at their number (it writes past it).
    const long = 'I? "not" 3.5 love '.repeat(3_000);
    const { tokens, words } = tokenizeWords(long);
    expect(tokens.length).toBe(21_000);
    expect(words.ids).toEqual(lookUpWords(tokens).ids);
    expect(words.kinds).toEqual(lookUpWords(tokens).kinds);
    expect(words.hashes).toEqual(tokens.map(hashString));
  });

  it("takes the opening's tokens from the text's tokens as tokenising the opening alone does", () => {
    fc.assert(
      fc.property(text, (t) => {
        const f = extractFeatures(t);
        expect(f.hookTokens).toEqual(tokenize(f.hook));
        const line = f.firstLine.length > 200 ? f.firstLine.slice(0, 200) : f.firstLine;
        expect(f.genericOpener).toBe(hasPhrase('genericOpeners', line, 4));
        // The archetype read from the text's own lookup, as detecting it from the hook alone.
        expect(archetypeOf(f.hook, f.hookTokens, f.hookWords)).toBe(detectArchetype(f.hook));
      }),
      { numRuns: 2_000 },
    );
  });

  it('maps strings to ids and counts distinct strings like a Map and a Set', () => {
    // One counter for every run: a round must not see the strings of the rounds before it.
    const counter = new DistinctCounter();
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 4 }), { maxLength: 3_000 }), (words) => {
        const ids = new StringIds();
        const map = new Map<string, number>();
        for (const w of words) {
          if (!map.has(w)) map.set(w, map.size);
          expect(ids.add(w)).toBe(map.get(w));
        }
        for (const w of words) expect(ids.idOf(w)).toBe(map.get(w));
        expect(ids.idOf('not added, longer than four')).toBe(-1);
        counter.begin(words.length);
        for (const w of words) counter.add(w, hashString(w));
        expect(counter.count).toBe(new Set(words).size);
      }),
      { numRuns: 200 },
    );
  });
});

describe("the learned model's word pass", () => {
  it('sums the effects of the distinct words and pairs a post uses, and VADER sentiment, as Maps say', () => {
    const weights = wordWeights(scoreModel());
    const entries = [...weights.keys()];
    const pairs = entries.filter((w) => w.includes('_')).flatMap((w) => w.split('_'));
    const singles = entries.filter((w) => !w.includes('_'));
    const lexicon = [...vaderLexicon().keys()];
    const words = fc.oneof(
      fc.constantFrom(...singles.slice(0, 200), ...pairs.slice(0, 200), ...lexicon.slice(0, 200)),
      fc.constantFrom('not', "don't", 'never', '?', '"', '3', 'zzqx'),
    );
    fc.assert(
      fc.property(fc.array(words, { maxLength: 60 }), (parts) => {
        const tokens = tokenize(parts.join(' '));
        const known: number[] = [];
        const { choice, sentiment } = wordPass(tokens, weights, known);
        // The same sums, in the same order, from the artifact's map of words and pairs.
        let expected = 0;
        const seen = new Set<string>();
        const add = (entry: string) => {
          const b = weights.get(entry);
          if (b === undefined || seen.has(entry)) return;
          seen.add(entry);
          expected += b;
        };
        tokens.forEach((t, n) => {
          if (n > 0) add(`${tokens[n - 1]}_${t}`);
          add(t);
        });
        expect(choice).toBe(expected);
        expect(known.length).toBe(seen.size);
        expect(sentiment).toEqual(sentimentOf(tokens));
      }),
      { numRuns: 1_000 },
    );
  });
});
