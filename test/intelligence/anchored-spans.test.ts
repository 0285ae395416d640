import fc from 'fast-check';
import { expect, it } from 'vitest';
import { asWritten, LowerForWords } from '../../src/scoring/learned/quote-words.ts';
import { spansOf } from '../../src/scoring/learned/signal-spans.ts';
import { PostSpans } from '../../src/scoring/text/spans.ts';
import { extractFeatures, HASHTAG, LINK, MENTION } from '../../src/scoring/text/text-features.ts';
import type { Span } from '../../src/scoring/types.ts';

/**
 * The signals about pronouns, links, tags and handles point at their words by trying each
 * pattern only where a match can start (signal-spans.ts `wordsFrom`, `links`). They must point
 * where the global search of the same pattern over the whole post points, and the phrases'
 * word-boundary test by code unit where the regex test of one character did.
 */
const PATTERNS: Record<string, RegExp> = {
  'text.first_person': /(?<![\p{L}'’])(?:I|I['’](?:m|ve|d|ll)|[Mm]y|[Mm]e)(?![\p{L}'’])/gu,
  'voice.corporate_we': /(?<![\p{L}'’])(?:[Ww]e|[Oo]ur|[Uu]s)(?![\p{L}'’])/gu,
  'text.second_person': /(?<![\p{L}'’])(?:[Yy]ou|[Yy]our|[Yy]ou['’](?:re|ve|ll|d))(?![\p{L}'’])/gu,
  'text.links': LINK,
  'text.hashtags': HASHTAG,
  'text.mentions': MENTION,
};

function phrasesByRegex(spans: PostSpans, lower: string, phrases: string[]): Span[] {
  const word = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
  const out: Span[] = [];
  for (const p of phrases)
    for (let at = lower.indexOf(p); at !== -1 && out.length < 20; at = lower.indexOf(p, at + 1))
      if (!word(lower[at - 1]) && !word(lower[at + p.length])) out.push(spans.span(at, at + p.length));
  return out.sort((a, b) => a.start - b.start);
}

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        ' ',
        '\n',
        'I',
        "I'm",
        'I’ve',
        'Id',
        'my',
        'My',
        'me',
        'Me',
        'we',
        'We',
        'our',
        'us',
        'you',
        'Your',
        'you’re',
        "you'd",
        'team',
        'Team',
        'émy',
        '𝐁',
        '\ud835',
        '#',
        '#ai',
        '@',
        '@ana',
        'https://x.co/a',
        'WWW.site',
        'bit.ly/x',
        'http:/',
        '’',
        "'",
        '.',
        ',',
      ),
      fc.string({ maxLength: 3 }),
    ),
    { maxLength: 50 },
  )
  .map((parts) => parts.join(''));

it('points where the global patterns point, and finds phrases at the same word boundaries', () => {
  fc.assert(
    fc.property(text, (t) => {
      const lower = t.toLowerCase();
      const spans = new PostSpans(` ${t}`, t, lower);
      const c = { spans, f: extractFeatures(t), overflowAt: t.length + 1 };
      for (const [name, pattern] of Object.entries(PATTERNS))
        expect(spansOf(name, c), name).toEqual(spans.matches(pattern));
      if (lower.length === t.length) {
        const phrases = ['team', 'my', 'we', "i'm", 'Team', 'é'];
        const expected = phrasesByRegex(
          spans,
          lower.replaceAll('’', "'"),
          phrases.map((p) => p.toLowerCase()),
        );
        expect(spans.phrases(phrases)).toEqual(expected);
        // The same from the tokeniser's runs of letters and digits, and the words quoted as written.
        const f = c.f;
        if (f.text === t) {
          expect(new PostSpans(` ${t}`, t, lower, f.runs).phrases(phrases)).toEqual(expected);
          for (const w of ['team', 'my', 'we', "i'm"])
            expect(asWritten(w, t, new LowerForWords(t, lower).for(w), f.runs)).toBe(
              asWritten(w, t, new LowerForWords(t, lower).for(w)),
            );
        }
      }
    }),
    { numRuns: 5_000 },
  );
  // More than the 20 spans a signal shows.
  const many = 'I did it, my team and me. '.repeat(30);
  const spans = new PostSpans(many, many, many.toLowerCase());
  const c = { spans, f: extractFeatures(many), overflowAt: many.length };
  expect(spansOf('text.first_person', c)).toEqual(spans.matches(PATTERNS['text.first_person']!));
  expect(spansOf('text.first_person', c)).toHaveLength(20);
});
