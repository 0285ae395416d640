import { describe, expect, it } from 'vitest';
import { detectArchetype } from '../../src/scoring/rules/hook.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';
import { planOffline } from '../../src/scoring/writers/plan-offline.ts';

/**
 * A brief whose first sentence already opens the way the asked archetype does (a plan item's
 * hook put first, as the console's "Turn into a draft" does) opens the post itself, said once:
 * no template opener before it that says the same thing again.
 */
const CASES = [
  {
    archetype: 'story',
    brief:
      'My biggest lesson about seat pricing came late. We moved from per-seat to usage pricing and churn fell 12%.',
    template: /I keep coming back to|My notes on/,
  },
  {
    archetype: 'contrarian',
    brief:
      'Most advice about hiring your first engineer is wrong. Hire for ownership, not for the stack. We learned it after two bad hires.',
    template: /gets the order wrong/,
  },
  {
    archetype: 'statement',
    brief:
      'Pricing pages convert better with fewer plans. We went from five plans to three and trials rose 18%.',
    template: /deserves? a closer look|looks? like up close/,
  },
  {
    archetype: 'question',
    brief: 'Why do onboarding emails get ignored? Ours had a 9% open rate until we cut them to two lines.',
    template: /How do you handle/,
  },
] as const;

describe('offline generate: the brief’s own hook', () => {
  it.each(CASES)(
    'a $archetype brief opens with its own first sentence, once',
    ({ archetype, brief, template }) => {
      const first = brief.slice(0, brief.search(/[.?](\s|$)/) + 1);
      expect(detectArchetype(first)).toBe(archetype);
      const [post] = generateOffline(
        { brief, archetype, count: 1, platform: 'platformA' },
        { brand: null, voice: null },
      );
      expect(post!.split('\n')[0]).toBe(first);
      expect(post!.split(first).length - 1).toBe(1);
      expect(post).not.toMatch(template);
      // The rest of the brief is still there: its numbers and its details.
      for (const n of brief.match(/\d+%?/g) ?? []) expect(post).toContain(n);
      expect(detectArchetype(post!.split('\n')[0]!)).toBe(archetype);
    },
  );

  it("a plan hook made of the brief's sentence, put before that brief, says the sentence once", () => {
    const brief =
      'We moved from seat pricing to usage-based billing this year and churn fell 12%. Lessons on pricing pages, invoices and customer trust.';
    const [item] = planOffline({ brief, count: 1 }, null);
    expect(item!.hook.toLowerCase()).toContain('we moved from seat pricing');
    for (const archetype of ['story', 'statement', 'contrarian'] as const) {
      const [post] = generateOffline(
        { brief: `${item!.hook}\n\n${brief}`, archetype, count: 1 },
        { brand: null, voice: null },
      );
      expect(post!.match(/moved from seat pricing/g), post).toHaveLength(1);
      expect(post).toContain('12%');
    }
  });

  it('the other candidates take other shapes of the same sentences, so they still differ', () => {
    const posts = generateOffline(
      { brief: CASES[0].brief, count: 3, platform: 'platformA' },
      { brand: null, voice: null },
    );
    // Two sentences: the story in order, and the result (churn fell 12%) first.
    expect(posts).toHaveLength(2);
    expect(new Set(posts.map((p) => p.split('\n')[0])).size).toBe(2);
  });
});
