import { describe, expect, it } from 'vitest';
import { labelTheme, themesOf } from '../../src/scoring/text/themes.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';

/**
 * A theme said with no article of its own gets "the" only where that is decided (a quarter, a
 * year or a count picks out one instance: "the Q3 hiring push"), none where it must have none
 * (names, plurals, activities, known mass nouns), and is named after a colon where the tagger
 * cannot tell. Plans use it; offline drafts (issue 34) say the brief's own sentences and add no
 * theme line, so the generate checks of this rule went with the templates.
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

  it('a label-only brief is said as written in its scaffolds, with no article added', () => {
    const scaffolds = generateOffline({ brief: 'Cloud bill', count: 3 }, { brand: null, voice: null });
    for (const d of scaffolds) expect(d.split('\n')[0]).toMatch(/^Cloud bill:/);
  });
});
