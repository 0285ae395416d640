import { createHash } from 'node:crypto';
import { MediaKind, type Platform } from '../../src/domain/enums.ts';
import { withPersonal } from '../../src/features/history/personal-score.ts';
import { heuristicJudge } from '../../src/scoring/judge/heuristic-judge.ts';
import type { Judge } from '../../src/scoring/judge/judge.ts';
import { scoreModel } from '../../src/scoring/learned/model.ts';
import {
  FEATURE_NAMES,
  globalWeights,
  offlineScored,
  reportable,
} from '../../src/scoring/personal/features.ts';
import { fitPersonalModel, type PersonalModel } from '../../src/scoring/personal/fit.ts';
import { scorePost, scorePostKeeping } from '../../src/scoring/scorer.ts';
import { normalizePost } from '../../src/scoring/text/text-features.ts';
import type { ScoreInput } from '../../src/scoring/types.ts';
import { byAuthor, type DataPost, readAllData } from './datasets.ts';

/**
 * What the scorer returns for the real posts, as SHA-256 digests: the exact output of every
 * post of ../shared/data through the scorer (global score), and through the personal path for
 * authors with a model fitted on their own posts, with the offline judge and with a stand-in
 * for a language-model judge (different grades, so the personal features must be re-read with
 * the offline judge's). Optimisations must leave every digest unchanged
 * (test/intelligence/score-golden.test.ts); a deliberate change to scoring regenerates them
 * with `node scripts/score-golden.ts` (and bumps RULES_VERSION).
 */

const MEDIA: readonly MediaKind[] = MediaKind.options;

/** A varied, deterministic request for the i-th post: both platforms, every media kind and context field. */
export function goldenInput(p: DataPost, i: number): ScoreInput {
  const platform: Platform = i % 2 === 0 ? 'platformA' : 'platformB';
  return {
    post: normalizePost(p.text),
    platform,
    ...(p.media ? { media: p.media } : i % 3 === 0 ? { media: MEDIA[i % MEDIA.length]! } : {}),
    ...(i % 5 === 0 ? { hasExternalLink: i % 10 === 0 } : {}),
    ...(i % 7 === 0 ? { hashtagCount: i % 9 } : {}),
    ...(i % 4 === 0 ? { dayOfWeek: i % 7, hourLocal: (i * 5) % 24 } : {}),
  };
}

/** A deterministic judge whose grades differ from the offline one's, as a model's would. */
const standInModelJudge: Judge = {
  id: 'golden:stand-in',
  grade: async (input, rules) => {
    const seed = createHash('sha256').update(input.post).digest();
    return {
      scores: {
        hook: seed[0]! % 101,
        specificity: seed[1]! % 101,
        voice: seed[2]! % 101,
        engagement: (seed[3]! + rules.hits.length) % 101,
      },
      signals: [
        {
          dimension: 'voice',
          impact: seed[4]! % 2 === 0 ? 'positive' : 'negative',
          weight: 1 + (seed[5]! % 5),
          label: 'Stand-in judge note',
          detail: `Graded ${seed[6]! % 10} by the stand-in judge.`,
        },
      ],
      by: 'model',
    };
  },
};

/** The personal model fitted on an author's posts, stored and read back as the service does (JSON). */
function fitAuthor(posts: DataPost[]): { version: number; model: PersonalModel } | null {
  const global = scoreModel();
  const read = posts.map((p, i) => offlineScored(goldenInput(p, i), global));
  const model = fitPersonalModel({
    names: FEATURE_NAMES,
    x: read.map((r) => r.x),
    engagement: posts.map((p) => p.engagement),
    overall: read.map((r) => r.overall),
    globalWeights: globalWeights(global),
    globalVersion: global.version,
    reportable,
  });
  return model ? { version: 1, model: JSON.parse(JSON.stringify(model)) as PersonalModel } : null;
}

export interface GoldenDigests {
  posts: number;
  global: string;
  personalPosts: number;
  personal: string;
  personalModelJudge: string;
}

const PERSONAL_AUTHORS = 6;
const PERSONAL_POSTS_PER_AUTHOR = 60;

export async function goldenDigests(): Promise<GoldenDigests> {
  const all = readAllData();
  const global = createHash('sha256');
  for (let i = 0; i < all.length; i++)
    global.update(JSON.stringify(await scorePost(goldenInput(all[i]!, i), heuristicJudge))).update('\n');

  const personal = createHash('sha256');
  const personalModelJudge = createHash('sha256');
  let personalPosts = 0;
  const authors = byAuthor(all, 40).slice(0, PERSONAL_AUTHORS);
  for (const posts of authors) {
    const stored = fitAuthor(posts);
    if (!stored) throw new Error(`no personal model for ${posts[0]!.author}`);
    for (let i = 0; i < Math.min(posts.length, PERSONAL_POSTS_PER_AUTHOR); i++) {
      const input = goldenInput(posts[i]!, i);
      for (const [judge, hash] of [
        [heuristicJudge, personal],
        [standInModelJudge, personalModelJudge],
      ] as const) {
        const scored = withPersonal(await scorePostKeeping(input, judge), stored);
        hash.update(JSON.stringify(scored)).update('\n');
      }
      personalPosts++;
    }
  }
  return {
    posts: all.length,
    global: global.digest('hex'),
    personalPosts,
    personal: personal.digest('hex'),
    personalModelJudge: personalModelJudge.digest('hex'),
  };
}
