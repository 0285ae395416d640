import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Dimension, SCORE_SCHEMA_VERSION } from '../../src/domain/enums.ts';
import { DIMENSION_WEIGHTS } from '../../src/scoring/learned/model.ts';
import { detectArchetype } from '../../src/scoring/rules/hook.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically, scoreWith } from '../../src/scoring/scorer.ts';
import type { ScoreResult } from '../../src/scoring/types.ts';

const BODY = `I shipped our billing rewrite last Tuesday after 14 weeks.

The old system double-charged 212 customers in March. Nobody noticed for nine days.

We rebuilt it around one rule: every charge gets an idempotency key from Stripe.

Three things I would do again:
- write the reconciliation job first
- run old and new side by side for 30 days
- give support a one-click refund button

What would you check first in a billing migration?`;

const weighted = (r: ScoreResult) =>
  Math.round(
    10 *
      (Object.keys(DIMENSION_WEIGHTS) as Dimension[]).reduce(
        (s, d) => s + DIMENSION_WEIGHTS[d] * r.breakdown[d],
        0,
      ),
  ) / 10;

const rulesOf = (r: ScoreResult) => r.signals.map((s) => s.rule);

/** A judge that grades everything 100, to show caps and the weighted overall hold whoever grades. */
const perfectJudge = {
  scores: { hook: 100, specificity: 100, voice: 100, engagement: 100, structure: 100 },
  signals: [],
};
const mergeScore = (input: { post: string }, rules: ReturnType<typeof runRules>) =>
  scoreWith(input, rules, perfectJudge);

describe('rules engine', () => {
  it('returns the contract shape with a weighted overall', () => {
    const r = scoreHeuristically({ post: BODY });
    expect(r.schema).toBe(SCORE_SCHEMA_VERSION);
    expect(Object.keys(r.breakdown).sort()).toEqual(Object.keys(DIMENSION_WEIGHTS).sort());
    expect(r.overall).toBe(weighted(r));
    expect(r.verdict).toMatch(/\/100/);
    expect(r.formatMultiplier).toBe(1.17);
    expect(r.formatNote).toMatch(/van der Blom/);
    for (const s of r.signals) {
      expect(s.rule).toMatch(/^[a-z]+\.[a-z_]+$/);
      expect(Number.isInteger(s.weight) && s.weight >= 1 && s.weight <= 5).toBe(true);
    }
  });

  it('caps algorithm fit for an external link, even under a perfect judge', () => {
    const linked = { post: `${BODY}\n\nFull write-up: https://example.com/billing` };
    const withLink = runRules(linked);
    expect(withLink.caps.algorithmFit?.rule).toBe('link.external');
    const merged = mergeScore(linked, withLink);
    expect(merged.breakdown.algorithmFit).toBeLessThanOrEqual(60);
    expect(rulesOf(merged)).toContain('link.external');
    // The caller's flag wins over detection, both ways.
    expect(runRules({ post: BODY, hasExternalLink: true }).caps.algorithmFit?.rule).toBe('link.external');
    expect(
      runRules({ post: `${BODY} https://example.com`, hasExternalLink: false }).caps.algorithmFit,
    ).toBeUndefined();
  });

  it('caps algorithm fit from six hashtags, mildly, and not at five', () => {
    const five = runRules({ post: `${BODY}\n\n#a1 #b2 #c3 #d4 #e5` });
    expect(five.caps.algorithmFit).toBeUndefined();
    const sixTags = { post: `${BODY}\n\n#a1 #b2 #c3 #d4 #e5 #f6` };
    const six = mergeScore(sixTags, runRules(sixTags));
    expect(six.breakdown.algorithmFit).toBeLessThanOrEqual(75);
    expect(rulesOf(six)).toContain('hashtags.excess');
    expect(runRules({ post: BODY, hashtagCount: 9 }).caps.algorithmFit?.rule).toBe('hashtags.excess');
  });

  it('detects hook archetypes', () => {
    expect(detectArchetype('I quit my job last year.')).toBe('story');
    expect(detectArchetype('Why do most pilots never reach production?')).toBe('question');
    expect(detectArchetype('97% of onboarding emails go unread.')).toBe('pure-number');
    expect(detectArchetype('Unpopular opinion: standups are a tax.')).toBe('contrarian');
    expect(detectArchetype('Remote teams need written decisions.')).toBe('statement');
    expect(detectArchetype('#hiring')).toBe('other');
    const r = scoreHeuristically({ post: BODY });
    expect(r.hookArchetype).toBe('story');
    expect(r.hookArchetypeNote).toMatch(/in 786 real posts measured/);
  });

  it('applies the format multiplier with its note', () => {
    expect(scoreHeuristically({ post: BODY, media: 'poll' }).formatMultiplier).toBe(1.99);
    expect(scoreHeuristically({ post: BODY, media: 'document' }).formatMultiplier).toBe(1.6);
    const link = scoreHeuristically({ post: BODY, media: 'link' });
    expect(link.formatMultiplier).toBe(0.59);
    expect(link.formatNote).toMatch(/halves/);
    const doc = scoreHeuristically({ post: BODY, media: 'document' });
    expect(doc.breakdown.algorithmFit).toBeGreaterThan(link.breakdown.algorithmFit);
    // platformB has no documents: no multiplier, and the note says so.
    const b = scoreHeuristically({
      post: 'Short note on billing.',
      platform: 'platformB',
      media: 'document',
    });
    expect(b.formatMultiplier).toBe(1);
    expect(b.formatNote).toMatch(/no native document/);
  });

  it('scores posting day and hour only when given', () => {
    expect(rulesOf(scoreHeuristically({ post: BODY }))).not.toContain('timing.weekend');
    // Day and hour are one concept, timing: one signal says the weightier of the two.
    const weekend = scoreHeuristically({ post: BODY, dayOfWeek: 6, hourLocal: 3 });
    const timingOf = (r: ScoreResult) => r.signals.filter((s) => s.concept === 'timing').map((s) => s.rule);
    expect(['timing.weekend', 'timing.off_hours']).toEqual(expect.arrayContaining(timingOf(weekend)));
    expect(timingOf(weekend)).toHaveLength(1);
    const midweek = scoreHeuristically({ post: BODY, dayOfWeek: 2, hourLocal: 8 });
    expect(['timing.midweek', 'timing.peak_hour']).toEqual(expect.arrayContaining(timingOf(midweek)));
    expect(timingOf(midweek)).toHaveLength(1);
    expect(midweek.breakdown.algorithmFit).toBeGreaterThan(weekend.breakdown.algorithmFit);
  });

  it('flags over-length, bait and AI-tells, and never counts a rule against its direction', () => {
    const long = scoreHeuristically({ post: 'word '.repeat(80), platform: 'platformB' });
    expect(rulesOf(long)).toContain('length.over_limit');
    expect(long.breakdown.algorithmFit).toBeLessThanOrEqual(30);
    const bait = scoreHeuristically({ post: `${BODY}\n\nComment YES if you agree!` });
    // Bait is generic text: the generic-text signal names it, as what the feed demotes.
    const generic = bait.signals.filter((s) => s.concept === 'generic');
    expect(generic).toHaveLength(1);
    expect(generic[0]!.detail).toMatch(/feed demotes/i);
    const tells = scoreHeuristically({
      post: `In today’s fast-paced world, let's delve into the ever-evolving landscape of billing.\n\n${BODY}`,
    });
    expect(tells.signals.map((s) => s.concept)).toEqual(expect.arrayContaining(['generic']));
    // A penalising rule is a problem or nothing: the learned weight can shrink it, never flip it.
    for (const r of [long, bait, tells]) {
      for (const s of r.signals) {
        if (
          [
            'length.over_limit',
            'engagement.bait',
            'voice.ai_tells',
            'hook.generic_opener',
            'generic.text',
          ].includes(s.rule!)
        )
          expect(s.impact).toBe('negative');
      }
    }
  });

  it('ranks heavier signals first', () => {
    const r = scoreHeuristically({ post: `${BODY}\n\nhttps://example.com #a #b #c #d #e #f` });
    const weights = r.signals.map((s) => s.weight);
    // Enough signals of different weights that an unsorted list could not pass by chance.
    expect(weights.length).toBeGreaterThanOrEqual(3);
    expect(new Set(weights).size).toBeGreaterThanOrEqual(2);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
  });
});

describe('rules engine properties', () => {
  const post = fc.string({ minLength: 1, maxLength: 1500 });
  const input = fc.record({
    post,
    platform: fc.constantFrom('platformA' as const, 'platformB' as const),
    media: fc.constantFrom(
      'none',
      'poll',
      'link',
      'document',
      'video',
      'single-image',
      'multi-image',
    ) as fc.Arbitrary<'none' | 'poll'>,
    dayOfWeek: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
    hourLocal: fc.option(fc.integer({ min: 0, max: 23 }), { nil: undefined }),
  });

  it('is deterministic, bounded, and overall is always the weighted breakdown', () => {
    fc.assert(
      fc.property(input, (i) => {
        const a = scoreHeuristically(i);
        expect(scoreHeuristically(i)).toEqual(a);
        expect(a.overall).toBe(weighted(a));
        for (const v of Object.values(a.breakdown))
          expect(v >= 0 && v <= 100 && Number.isInteger(v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never lets any judge lift algorithm fit over the link cap', () => {
    fc.assert(
      fc.property(post, fc.webUrl(), (text, url) => {
        const linked = { post: `${text} ${url}` };
        const merged = mergeScore(linked, runRules(linked));
        expect(merged.breakdown.algorithmFit).toBeLessThanOrEqual(60);
      }),
      { numRuns: 200 },
    );
  });
});
