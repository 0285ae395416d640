import { describe, expect, it } from 'vitest';
import { mannWhitney, spearman } from '../../src/lib/rank-stats.ts';
import { personalScore } from '../../src/scoring/personal/apply.ts';
import {
  fitPersonalModel,
  MIN_HISTORY_POSTS,
  personalPrediction,
  SHRINK_POSTS,
} from '../../src/scoring/personal/fit.ts';

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

/** Features of the global model: a rule, a measure every post has, and one told nowhere. */
const NAMES = ['engagement.personal_story', 'text.length', 'nlp.sentiment'];
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

/** A model fitted on these posts, every one at the same offline score. */
const fitOn = (x: Float64Array[], engagement: number[]) =>
  fitPersonalModel({
    names: NAMES,
    x,
    engagement,
    overall: x.map(() => 60),
    globalWeights: GLOBAL,
    globalVersion: 't',
    reportable: () => true,
  })!;

const fit = (n: number, seed = 1) =>
  fitPersonalModel({
    names: NAMES,
    ...author(n, seed),
    globalWeights: GLOBAL,
    globalVersion: 'test',
    // The offline overall of every post: the global model's prediction on a 0-100 scale.
    overall: author(n, seed).x.map((row) => 60 + 10 * GLOBAL.reduce((s, w, j) => s + w * row[j]!, 0)),
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
    const story = model.effects.find((e) => e.feature === 'engagement.personal_story')!;
    expect(story.multiple).toBeGreaterThan(1.5);
    expect(story.without).toBeLessThan(1);
    expect(story.p).toBeLessThan(0.001);
    // One feature tested: adjusting for it changes nothing.
    expect(story.q).toBe(story.p);
    expect(model.effects.some((e) => e.feature === 'nlp.sentiment')).toBe(false);
    // The fit's one-pass rank sums give the same p as the plain Mann-Whitney test.
    const data = author(200);
    const on = data.engagement.filter((_, r) => data.x[r]![0] !== 0);
    const off = data.engagement.filter((_, r) => data.x[r]![0] === 0);
    expect(story.p).toBeCloseTo(mannWhitney(on, off).p, 4);
    expect(story.posts).toBe(on.length);

    const global = { overall: 60, weights: GLOBAL, scale: 10, names: NAMES };
    const withStory = personalScore(model, Float64Array.from([1, 1, 0.5]), global);
    const without = personalScore(model, Float64Array.from([0, 1, 0.5]), global);
    expect(withStory.overall).toBeGreaterThan(without.overall);
    expect(withStory.basedOn).toBe(200);
    expect(withStory.expected.median).toBeGreaterThan(1.1);
    expect(without.expected.median).toBeLessThan(withStory.expected.median / 1.2);
    expect(withStory.expected.low).toBeLessThan(withStory.expected.median);
    expect(withStory.expected.high).toBeGreaterThan(withStory.expected.median);
    expect(withStory.signals).toHaveLength(1);
    expect(withStory.signals[0]).toMatchObject({
      impact: 'positive',
      rule: 'personal.engagement.personal_story',
      label: 'Your history: Personal stories',
      detail: `Your ${story.posts} posts that tell a personal story or news earned ${story.multiple.toFixed(2)}x your median engagement, and the ${story.withoutPosts} others earned ${story.without.toFixed(2)}x.`,
    });
    expect(without.signals).toEqual([]);
    expect(withStory.note).toMatch(
      /^Based on 200 of your posts with engagement, this post is expected to earn about [\d.]+x your median engagement \(likely [\d.]+x to [\d.]+x\)\.( A post with a personal score of \d+ would earn about your median\.)? Your history rates this post (higher than|lower than|about the same as) the general score does\.$/,
    );
  });

  it('expects less of a post whose score a cap or penalty lowered, as its score says', () => {
    const model = fit(200)!;
    const x = Float64Array.from([1, 1, 0.5]);
    const scored = (overall: number) =>
      personalScore(model, x, { overall, weights: GLOBAL, scale: 10, names: NAMES });
    // The same features, a score 20 points lower (an external link's cap, repeated text): the
    // personal prediction alone cannot see why, the expected multiple follows the score.
    const plain = scored(70);
    const capped = scored(50);
    expect(capped.overall).toBeCloseTo(plain.overall - 20, 5);
    // 20 points at 10 points per standard deviation: two of the author's standard deviations.
    expect(capped.expected.median / plain.expected.median).toBeCloseTo(Math.exp(-2 * model.sdLog!), 1);
    // A post at the author's mean score is expected to earn the author's mean log engagement,
    // and one at the score the note names, about the author's median.
    const moved = plain.overall - 70;
    const atMean = scored(model.meanScore - moved);
    expect(Math.log(atMean.expected.median * (1 + model.medianEngagement))).toBeCloseTo(model.meanLog, 1);
    const named = Number(/a personal score of (\d+) would earn about your median/.exec(plain.note)![1]);
    expect(scored(named - moved).expected.median).toBeCloseTo(1, 1);
  });

  it('adjusts each effect for the features tested with it (Benjamini-Hochberg)', () => {
    const random = rng(11);
    const x = Array.from({ length: 60 }, () =>
      Float64Array.from([random() < 0.5 ? 1 : 0, random() < 0.5 ? 1 : 0, random() < 0.5 ? 1 : 0]),
    );
    // Only the first feature matters.
    const engagement = x.map((row) => Math.round((row[0] ? 60 : 20) * (0.7 + 0.6 * random())));
    const model = fitOn(x, engagement);
    const ps = model.effects.map((e) => e.p);
    expect(ps.length).toBe(3);
    const sorted = [...model.effects].sort((a, b) => a.p - b.p);
    // q_(i) = min over j >= i of p_(j) * m / j, never below p, and in the order of p.
    sorted.forEach((e, i) => {
      const expected = Math.min(...sorted.slice(i).map((f, k) => Math.min(1, (f.p * 3) / (i + k + 1))));
      expect(e.q).toBeCloseTo(expected, 3);
      expect(e.q).toBeGreaterThanOrEqual(e.p);
    });
  });

  it('with no signal in the history stays close to the global model', () => {
    const random = rng(5);
    const x = Array.from({ length: 30 }, () =>
      Float64Array.from([random() < 0.5 ? 1 : 0, random() * 2, random()]),
    );
    const engagement = x.map(() => Math.round(20 + 10 * random()));
    const model = fitOn(x, engagement);
    expect(Math.abs(model.weights[0]!)).toBeLessThan(0.1);
    // A feature with no real effect: its measured p is unremarkable, and the fit's one-pass rank
    // sums give exactly what the plain Mann-Whitney test gives.
    const noise = model.effects.find((e) => e.feature === 'engagement.personal_story')!;
    const on = engagement.filter((_, r) => x[r]![0] !== 0);
    const off = engagement.filter((_, r) => x[r]![0] === 0);
    expect(noise.p).toBeGreaterThan(0.05);
    expect(noise.p).toBeCloseTo(mannWhitney(on, off).p, 4);
    expect(model.globalFactor).toBeGreaterThan(0.5);
  });
});
