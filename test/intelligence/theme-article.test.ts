import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { labelTheme, themesOf } from '../../src/scoring/text/themes.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';
import { briefFromPost, describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * A theme said with no article of its own gets "the" only where that is decided (a quarter, a
 * year or a count picks out one instance: "the Q3 hiring push"), none where it must have none
 * (names, plurals, activities, known mass nouns), and is named after a colon where the tagger
 * cannot tell ("I keep coming back to one topic: product launch."). Before, generate said "I keep
 * coming back to Q3 hiring push." and "Most advice about Q3 hiring push gets the order wrong."
 */

describe('the article a label takes', () => {
  it.each([
    ['Q3 hiring push', 'the Q3 hiring push', false],
    ['FY25 plan', 'the FY25 plan', false],
    ['12-week onboarding program', 'the 12-week onboarding program', false],
    ['remote work', 'remote work', false],
    ['hiring', 'hiring', false],
    ['customer onboarding', 'customer onboarding', false],
    ['Stripe', 'Stripe', false],
    ['OKRs', 'OKRs', false],
    ['pricing, hiring and culture', 'pricing, hiring and culture', false],
    ['product launch', 'product launch', true],
  ])('%s reads "%s" (undecided: %s)', (label, phrase, unknown) => {
    const t = labelTheme(label);
    expect(t.phrase).toBe(phrase);
    expect(t.articleUnknown).toBe(unknown);
  });

  it('a label line of a brief is read the same way; a bare noun inside a sentence stays as written', () => {
    expect(themesOf('Q3 hiring push: we opened 12 roles and filled 9.', 1)[0]?.phrase).toBe(
      'the Q3 hiring push',
    );
    const inSentence = themesOf('We moved the whole company to remote work in 2021.', 3).map((t) => t.phrase);
    expect(inSentence).toContain('remote work');
  });

  it('generate names "the Q3 hiring push", never the bare label after a word that needs an article', () => {
    const brief =
      'Q3 hiring push: we opened 12 roles and filled 9 in 60 days with a 2-person recruiting team.';
    const drafts = generateOffline({ brief, count: 3 }, { brand: null, voice: null }).join('\n');
    expect(drafts).toContain('I keep coming back to the Q3 hiring push.');
    expect(drafts).not.toMatch(/\b(?:to|about|handle) Q3 hiring push\b/);
  });

  it('a label it cannot decide is named after a colon', () => {
    const [story] = generateOffline({ brief: 'Sales pipeline', count: 1 }, { brand: null, voice: null });
    expect(story!.split('\n')[0]).toBe('I have been thinking a lot lately about one topic: sales pipeline.');
    // A brief that only names a topic gets scaffolds, named the same way.
    const scaffolds = generateOffline({ brief: 'Cloud bill', count: 3 }, { brand: null, voice: null });
    expect(scaffolds.map((d) => d.split('\n')[0])).toEqual([
      'Cloud bill: I learned the most about it from [one moment you can describe in a sentence].',
      'Cloud bill: three things I wish I had known about it.',
      'Cloud bill: most advice about it gets one thing wrong, and it is [the step people skip].',
    ]);
  });
});

/** link-parser (Debian's link-grammar), an independent grammar check, when it is installed. */
const LINK_PARSER = (() => {
  try {
    execFileSync('link-parser', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** The template lines that name a theme. */
const THEME_LINE =
  /^(?:I keep coming back to |I have been thinking |Most .* gets the order wrong\.$|.* deserves? a closer look\.$|One topic deserves|Here is some news about |How do you handle |.*: how do you handle it\?$)/;

describeRealPosts('theme lines of drafts from real briefs, checked by link-parser', () => {
  it.skipIf(!LINK_PARSER)(
    'link-parser accepts at least nine in ten of them',
    () => {
      const briefs = readRealPosts('linkedin-creator-posts.csv')
        .map((p) => briefFromPost(p.text))
        .filter((b, i) => b.trim().length >= 40 && i % 5 === 0);
      const lines = [
        ...new Set(
          briefs.flatMap((brief) =>
            generateOffline({ brief, count: 3 }, { brand: null, voice: null })
              .flatMap((d) => d.split('\n'))
              .filter((l) => THEME_LINE.test(l)),
          ),
        ),
      ];
      const out = execFileSync('link-parser', ['en', '-batch'], {
        input: `!null=0\n!echo\n${lines.join('\n')}\n`,
        maxBuffer: 1 << 26,
        stdio: ['pipe', 'pipe', 'ignore'],
      }).toString();
      const rejected = (out.match(/^\+\+\+\+\+ error/gm) ?? []).length;
      expect(lines.length).toBeGreaterThan(1000);
      // Measured 2026-11-27 on every fifth brief: the share rejected before this rule and after it
      // is written in docs/decisions.md; most of what is left are themes that are no noun phrase.
      expect(rejected / lines.length).toBeLessThan(0.1);
    },
    120_000,
  );
});
