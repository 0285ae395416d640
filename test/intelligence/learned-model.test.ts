import { describe, expect, it } from 'vitest';
import { pairedGain, standardError, withinAuthor } from '../../scripts/lib/within-author.ts';
import type { Dimension } from '../../src/domain/enums.ts';
import { gradeHeuristically } from '../../src/scoring/judge/heuristic-judge.ts';
import { FEATURE_NAMES, FEATURES, featureVector, RULE_FEATURES } from '../../src/scoring/learned/features.ts';
import {
  applyModel,
  checkModel,
  DIMENSION_WEIGHTS,
  type ScoreModel,
  scoreModel,
  wordWeights,
} from '../../src/scoring/learned/model.ts';
import { sentimentOf } from '../../src/scoring/learned/sentiment.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreCacheVersion, scoreHeuristically, scoreWith } from '../../src/scoring/scorer.ts';
import { tokenize } from '../../src/scoring/text/phrases.ts';

const POST = `I quit my job at Acme after 9 years.

The hardest part was not the money. It was telling my team on a Friday.

Three things I learned:
- write the goodbye note yourself
- hand over one project at a time
- leave the door open

What was your hardest goodbye?`;

describe('the learned model artifact', () => {
  it('matches the code: feature names, schema, weights that sum to 1 and are the published ones', () => {
    const model = scoreModel();
    expect(() => checkModel(model)).not.toThrow();
    expect(model.features.map((f) => f.name)).toEqual(FEATURE_NAMES);
    expect(DIMENSION_WEIGHTS).toEqual(model.dimensionWeights);
    expect(Object.values(model.dimensionWeights).reduce((s, w) => s + w, 0)).toBeCloseTo(1, 12);
    expect(model.version).toMatch(/^score\.v2-[0-9a-f]{10}$/);
    expect(scoreCacheVersion()).toContain(model.version);
  });

  it('refuses a model trained on other features', () => {
    const stale: ScoreModel = { ...scoreModel(), features: scoreModel().features.slice(1) };
    expect(() => checkModel(stale)).toThrow(/train:scoring/);
  });

  it('has one feature per rule the rules layer can fire', () => {
    const fired = new Set<string>();
    for (const input of [
      { post: POST, dayOfWeek: 2, hourLocal: 8 },
      { post: 'x', dayOfWeek: 6, hourLocal: 3 },
      { post: `${POST} https://a.io #a #b #c #d #e #f @x`, media: 'video' as const },
    ])
      for (const h of runRules(input).hits) fired.add(h.rule);
    const names = new Set(RULE_FEATURES.map(([n]) => n));
    for (const rule of fired) expect(names).toContain(rule);
  });
});

describe('explainable scoring', () => {
  it('overall is the centre plus the sum of every feature effect (nothing clamped or capped)', () => {
    const model = scoreModel();
    const input = { post: POST };
    const rules = runRules(input);
    const x = featureVector(input, rules, gradeHeuristically(rules), wordWeights(model));
    const { effects, breakdown } = applyModel(x, model);
    const total = effects.reduce((s, e) => s + e, 0);
    const weighted = (Object.keys(breakdown) as Dimension[]).reduce(
      (s, d) => s + model.dimensionWeights[d] * breakdown[d],
      0,
    );
    expect(Object.values(breakdown).every((v) => v > 0 && v < 100)).toBe(true);
    expect(weighted).toBeCloseTo(model.center + total, 6);
    // The served result rounds each dimension to an integer: within half a point of it.
    expect(Math.abs(scoreHeuristically(input).overall - (model.center + total))).toBeLessThanOrEqual(0.6);
  });

  it("gives each signal the sign and size of its feature's effect", () => {
    const model = scoreModel();
    const input = { post: POST, media: 'video' as const };
    const rules = runRules(input);
    const grades = gradeHeuristically(rules);
    const { effects } = applyModel(featureVector(input, rules, grades, wordWeights(model)), model);
    const result = scoreWith(input, rules, grades);
    expect(result.signals.length).toBeGreaterThan(0);
    for (const s of result.signals) {
      const i = FEATURE_NAMES.indexOf(s.rule!);
      expect(i).toBeGreaterThanOrEqual(0);
      const e = effects[i]!;
      if (FEATURES[i]!.kind !== 'rule' || Math.abs(e) > 0)
        expect(s.impact).toBe(e > 0 ? 'positive' : 'negative');
    }
  });

  it('weighs judge grades as features instead of letting them replace the score', () => {
    const model = scoreModel();
    const input = { post: POST };
    const rules = runRules(input);
    const low = { scores: { hook: 0, specificity: 0, voice: 0, engagement: 0 }, signals: [] };
    const high = { scores: { hook: 100, specificity: 100, voice: 100, engagement: 100 }, signals: [] };
    const judged = FEATURES.flatMap((f, i) => (f.kind === 'judge' ? [i] : []));
    const a = applyModel(featureVector(input, rules, low, wordWeights(model)), model);
    const b = applyModel(featureVector(input, rules, high, wordWeights(model)), model);
    // Only the judge features move, each by its learned weight over the full grade range.
    for (let i = 0; i < FEATURES.length; i++) {
      const delta = b.effects[i]! - a.effects[i]!;
      if (judged.includes(i)) expect(delta).toBeCloseTo(model.scale * model.features[i]!.weight, 9);
      else expect(delta).toBe(0);
    }
  });
});

describe('sentiment from the VADER lexicon', () => {
  it('reads positive, negative and negated text', () => {
    expect(sentimentOf(tokenize('I love this team, great work and a happy launch')).compound).toBeGreaterThan(
      0.5,
    );
    expect(sentimentOf(tokenize('A terrible, sad and painful year')).compound).toBeLessThan(-0.5);
    expect(sentimentOf(tokenize('This was not good')).compound).toBeLessThan(0);
    expect(sentimentOf([]).compound).toBe(0);
  });
});

describe('within-author measures', () => {
  it('counts rank agreement per author and only pairs 2x apart', () => {
    const perfect = withinAuthor([
      [
        [1, 10],
        [2, 30],
        [3, 100],
      ],
    ]);
    expect(perfect.rho).toBeCloseTo(1, 9);
    expect(perfect.pairwise).toBe(1);
    expect(perfect.pairs).toBe(3);
    const reversed = withinAuthor([
      [
        [3, 10],
        [2, 11],
        [1, 100],
      ],
    ]);
    // 10 vs 11 is not 2x apart: two pairs count, both ordered wrongly.
    expect(reversed.pairs).toBe(2);
    expect(reversed.pairwise).toBe(0);
    expect(reversed.rho).toBeCloseTo(-1, 9);
  });

  it('gives the standard error of the per-author mean, and a paired gain over another predictor', () => {
    expect(standardError([1])).toBe(0);
    // Values 0, 1: sample sd 0.7071, over sqrt(2) = 0.5.
    expect(standardError([0, 1])).toBeCloseTo(0.5, 9);
    const up = withinAuthor([
      [
        [1, 10],
        [2, 30],
        [3, 100],
      ],
      [
        [1, 10],
        [3, 30],
        [2, 100],
      ],
    ]);
    expect(up.perAuthor.map((r) => Number(r.toFixed(6)))).toEqual([1, 0.5]);
    expect(up.rhoSe).toBeCloseTo(0.25, 9);
    const down = withinAuthor([
      [
        [3, 10],
        [2, 30],
        [1, 100],
      ],
      [
        [3, 10],
        [2, 30],
        [1, 100],
      ],
    ]);
    // Per author: 1 - (-1) = 2 and 0.5 - (-1) = 1.5: mean 1.75, standard error 0.25.
    const gain = pairedGain(up, down);
    expect(gain.gain).toBeCloseTo(1.75, 9);
    expect(gain.se).toBeCloseTo(0.25, 9);
    expect(() => pairedGain(up, withinAuthor([]))).toThrow(/same authors/);
  });
});
