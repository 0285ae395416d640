import { describe, expect, it } from 'vitest';
import { mannWhitney, spearman } from '../../src/lib/rank-stats.ts';
import { personalScore } from '../../src/scoring/personal/apply.ts';
import {
  fitPersonalModel,
  MIN_HISTORY_POSTS,
  personalPrediction,
  SHRINK_POSTS,
} from '../../src/scoring/personal/fit.ts';
import type { RuleOutcome } from '../../src/scoring/rules/rules.ts';

/** A deterministic stream in [0, 1) (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['rule.story', 'measure.length', 'measure.noise'];
/** The global model believes length matters and the story rule does not. */
const GLOBAL = [0, 0.5, 0];

/** An author for whom a story (feature 0) triples engagement and length does nothing. */
function author(n: number, seed = 1) {
  const random = rng(seed);
  const x: Float64Array[] = [];
  const engagement: number[] = [];
  for (let i = 0; i < n; i++) {
    const story = random() < 0.4 ? 1 : 0;
    const row = Float64Array.from([story, random() * 2, random()]);
    x.push(row);
    engagement.push(Math.round(20 * (story ? 3 : 1) * Math.exp(0.3 * (random() - 0.5))));
  }
  return { x, engagement };
}

const fit = (n: number, seed = 1) =>
  fitPersonalModel({
    names: NAMES,
    ...author(n, seed),
    globalWeights: GLOBAL,
    globalVersion: 'test',
    reportable: (j) => j === 0,
  });

describe('personal model fit', () => {
  it('needs 10 posts with engagement', () => {
    expect(MIN_HISTORY_POSTS).toBe(10);
    expect(fit(9)).toBeNull();
    expect(fit(10)?.basedOn).toBe(10);
  });

  it('is deterministic', () => {
    expect(fit(200)).toEqual(fit(200));
  });

  it('moves from the global model toward the author as history grows', () => {
    const small = fit(12)!;
    const large = fit(1_000)!;
    // The author's true story effect is log(3) = 1.1 per unit; the global model says 0. The data
    // has n / (n + SHRINK_POSTS) of the say: about 2% at 12 posts, two thirds at 1,000.
    const share = (n: number) => n / (n + SHRINK_POSTS);
    expect(small.weights[0]).toBeGreaterThan(0);
    expect(small.weights[0]).toBeLessThan(large.weights[0]! * 0.2);
    expect(large.weights[0]).toBeGreaterThan(1.1 * share(1_000) * 0.8);
    expect(large.weights[0]).toBeLessThan(1.1 * share(1_000) * 1.2);
    // Length does nothing for this author: its weight shrinks away from the global 0.5.
    expect(Math.abs(large.weights[1]!)).toBeLessThan(Math.abs(small.weights[1]!));
    // And it ranks this author's unseen posts far better than the global weights would.
    const unseen = author(300, 99);
    const personal = unseen.x.map((x) => personalPrediction(large, x));
    const global = unseen.x.map((x) => GLOBAL.reduce((s, w, j) => s + w * x[j]!, 0));
    expect(spearman(personal, unseen.engagement)!).toBeGreaterThan(
      spearman(global, unseen.engagement)! + 0.3,
    );
  });

  it('measures effects from the author’s data and shows them on a post that has the feature', () => {
    const model = fit(200)!;
    const story = model.effects.find((e) => e.feature === 'rule.story')!;
    expect(story.multiple).toBeGreaterThan(1.5);
    expect(story.without).toBeLessThan(1);
    expect(story.p).toBeLessThan(0.001);
    expect(model.effects.some((e) => e.feature === 'measure.noise')).toBe(false);
    // The fit's one-pass rank sums give the same p as the plain Mann-Whitney test.
    const data = author(200);
    const on = data.engagement.filter((_, r) => data.x[r]![0] !== 0);
    const off = data.engagement.filter((_, r) => data.x[r]![0] === 0);
    expect(story.p).toBeCloseTo(mannWhitney(on, off).p, 4);
    expect(story.posts).toBe(on.length);

    const rules = { hits: [{ rule: 'rule.story', label: 'Personal story' }] } as unknown as RuleOutcome;
    const global = { overall: 60, weights: GLOBAL, scale: 10, names: NAMES };
    const withStory = personalScore(model, Float64Array.from([1, 1, 0.5]), rules, global);
    const without = personalScore(model, Float64Array.from([0, 1, 0.5]), rules, global);
    expect(withStory.overall).toBeGreaterThan(without.overall);
    expect(withStory.basedOn).toBe(200);
    expect(withStory.expected.median).toBeGreaterThan(1.1);
    expect(without.expected.median).toBeLessThan(withStory.expected.median / 1.2);
    expect(withStory.expected.low).toBeLessThan(withStory.expected.median);
    expect(withStory.expected.high).toBeGreaterThan(withStory.expected.median);
    expect(withStory.signals).toHaveLength(1);
    expect(withStory.signals[0]).toMatchObject({ impact: 'positive', rule: 'personal.rule.story' });
    expect(withStory.signals[0]!.detail).toMatch(
      /^Your \d+ posts with this \(personal story\) earned [\d.]+x your median engagement; the \d+ without it, [\d.]+x\.$/,
    );
    expect(without.signals).toEqual([]);
    expect(withStory.note).toMatch(/^Based on 200 of your posts with engagement/);
  });

  it('with no signal in the history stays close to the global model', () => {
    const random = rng(5);
    const x = Array.from({ length: 30 }, () =>
      Float64Array.from([random() < 0.5 ? 1 : 0, random() * 2, random()]),
    );
    const engagement = x.map(() => Math.round(20 + 10 * random()));
    const model = fitPersonalModel({
      names: NAMES,
      x,
      engagement,
      globalWeights: GLOBAL,
      globalVersion: 't',
      reportable: () => true,
    })!;
    expect(Math.abs(model.weights[0]!)).toBeLessThan(0.1);
    // A feature with no real effect: its measured p is unremarkable, and the fit's one-pass rank
    // sums give exactly what the plain Mann-Whitney test gives.
    const noise = model.effects.find((e) => e.feature === 'rule.story')!;
    const on = engagement.filter((_, r) => x[r]![0] !== 0);
    const off = engagement.filter((_, r) => x[r]![0] === 0);
    expect(noise.p).toBeGreaterThan(0.05);
    expect(noise.p).toBeCloseTo(mannWhitney(on, off).p, 4);
    expect(model.globalFactor).toBeGreaterThan(0.5);
  });
});
