import { afterEach, describe, expect, it, vi } from 'vitest';
import { heuristicEngine } from '../../src/scoring/engine.ts';
import { scorePost } from '../../src/scoring/scorer.ts';
import { taggerLoaded } from '../../src/scoring/text/tagger.ts';

/**
 * The wink model costs ~45 MB: it is loaded by the first plan or generate that needs themes,
 * never by start-up or by scoring and rewriting (the scorer's hot path), and dropped after 60 s
 * without a call. This file runs in its own module registry, so nothing loaded it before.
 */

const POST =
  'We cut our cloud bill by 40% in three months.\n\nFirst, we deleted unused staging environments. Then we moved batch jobs to spot instances. What would you try first?';
const BRIEF = 'We cut our cloud bill by 40% in three months by deleting unused staging environments.';
const context = { brand: null, voice: null };

afterEach(() => {
  vi.useRealTimers();
});

describe('the tagger loads on demand and is released when idle', () => {
  it('is not loaded by importing the engine, scoring or rewriting', async () => {
    expect(taggerLoaded()).toBe(false);
    let before = await scorePost({ post: POST, platform: 'platformA' }, heuristicEngine.judge);
    for (let i = 0; i < 50; i++)
      before = await scorePost({ post: `${POST} ${i}`, platform: 'platformA' }, heuristicEngine.judge);
    await heuristicEngine.rewrite({ post: POST, platform: 'platformA' }, before);
    await heuristicEngine.distillVoice([POST, `${POST} Again.`]);
    expect(taggerLoaded()).toBe(false);
  });

  it('loads for a plan, stays while used, and is dropped after 60 s idle; the next call loads it again', async () => {
    vi.useFakeTimers();
    await heuristicEngine.plan({ brief: BRIEF, count: 3 }, context);
    expect(taggerLoaded()).toBe(true);

    vi.advanceTimersByTime(50_000);
    // Used again at 50 s: the idle clock starts over.
    await heuristicEngine.generate({ brief: BRIEF, count: 2 }, context);
    vi.advanceTimersByTime(50_000);
    expect(taggerLoaded()).toBe(true);

    vi.advanceTimersByTime(10_001);
    expect(taggerLoaded()).toBe(false);

    const [post] = await heuristicEngine.generate({ brief: BRIEF }, context);
    expect(taggerLoaded()).toBe(true);
    expect(post!.text).toContain('our cloud bill');
    vi.advanceTimersByTime(60_001);
    expect(taggerLoaded()).toBe(false);
  });
});
