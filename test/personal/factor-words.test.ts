import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/scoring/learned/features.ts';
import { factorWords, toldFeatureNames } from '../../src/scoring/personal/factor-words.ts';
import type { MeasuredEffect } from '../../src/scoring/personal/fit.ts';
import { CLEAR_Q, effectSentence, toldDirection } from '../../src/scoring/personal/told-effects.ts';

/** link-parser (Debian's link-grammar), an independent grammar check, when it is installed. */
const LINK_PARSER = '/usr/bin/link-parser';

const effect = (over: Partial<MeasuredEffect>): MeasuredEffect => ({
  feature: 'link.external',
  posts: 12,
  multiple: 0.6,
  without: 1.3,
  withoutPosts: 30,
  p: 0.001,
  q: 0.01,
  modelMultiple: 0.8,
  ...over,
});

describe('the features whose effect is told, and how', () => {
  it('are features of the global model a writer can see in a post: no judge grade, no text-only baseline', () => {
    const byName = new Map(FEATURES.map((f) => [f.name, f]));
    for (const name of toldFeatureNames()) {
      expect(byName.get(name), name).toBeDefined();
      expect(byName.get(name)!.kind, name).not.toBe('judge');
    }
    for (const never of [
      'judge.hook',
      'media.none',
      'text.length',
      'nlp.sentiment',
      'text.word_choice',
      'hook.fold',
    ])
      expect(factorWords(never), never).toBeUndefined();
  });

  it('is told only where the figures, the test and the personal model agree', () => {
    expect(toldDirection(effect({}))).toBe('holds back');
    expect(toldDirection(effect({ multiple: 1.3, without: 0.6, modelMultiple: 1.2 }))).toBe('lifts');
    // The posts with it did better, but the model weighs it down: not told either way.
    expect(toldDirection(effect({ multiple: 1.3, without: 0.6 }))).toBeNull();
    // The model weighs it down, the figures say the opposite (the defect of issue 32).
    expect(toldDirection(effect({ multiple: 1.24, without: 0.78, modelMultiple: 0.9 }))).toBeNull();
    expect(toldDirection(effect({ multiple: 0.78, without: 1.24, modelMultiple: 1.02 }))).toBeNull();
    // Equal medians, or a difference that may well be chance.
    expect(toldDirection(effect({ multiple: 1, without: 1 }))).toBeNull();
    expect(toldDirection(effect({ q: CLEAR_Q }))).toBeNull();
    // A feature no words are written for.
    expect(toldDirection(effect({ feature: 'text.word_choice' }))).toBeNull();
  });

  it('says each as one sentence with its figures, which link-parser accepts', () => {
    const lines = toldFeatureNames().map((feature) => effectSentence(effect({ feature })));
    for (const line of lines)
      expect(line).toMatch(
        /^Your 12 .+ earned 0\.60x your median engagement, and the 30 others earned 1\.30x\.$/,
      );
    if (!existsSync(LINK_PARSER)) return;
    const out = execFileSync(LINK_PARSER, ['en', '-batch'], {
      input: `!null=0\n!echo\n${lines.join('\n')}\n`,
      maxBuffer: 1 << 24,
      stdio: ['pipe', 'pipe', 'ignore'],
    }).toString();
    const rejected = out
      .split('\n')
      .flatMap((l, i, all) => (l.startsWith('+++++ error') ? [all[i - 1]] : []));
    expect(rejected).toEqual([]);
  });
});
