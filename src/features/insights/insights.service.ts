import type { Call, Ctx } from '../../context.ts';
import { Invalid } from '../../domain/errors.ts';
import { median } from '../../lib/rank-stats.ts';
import {
  effectSentence,
  featureLabel,
  MIN_EFFECT_POSTS,
  MIN_HISTORY_POSTS,
  SHRINK_POSTS,
  toldEffects,
} from '../../scoring/index.ts';
import { accountZone } from '../account/settings.service.ts';
import { toHistoryEntry } from '../history/history.service.ts';
import { readHistory } from '../history/history-view.ts';
import { loadPersonal, personalModelState } from '../history/personal-models.ts';
import type { Factors, InsightsQuery, InsightsResult } from './insights.schemas.ts';
import { type TimedPost, timingInsights } from './timing.ts';
import { timingGrid } from './timing-grid.ts';

function checkTimeZone(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    throw new Invalid(`Unknown time zone "${timeZone}"; use an IANA name such as Europe/Paris.`, [
      { path: 'querystring.timezone', message: 'Not an IANA time zone' },
    ]);
  }
}

const TOP_FACTORS = 5;

/**
 * What the author's personal model weighs most among the effects its history makes clear, each
 * with its figures: a factor is listed as lifting posts only when the posts with it earned a
 * higher median than those without, the difference is unlikely to be chance and the model weighs
 * it the same way (scoring/personal/told-effects.ts); holding posts back is the mirror. With a
 * small history few or none are listed, and the note says why.
 */
async function factorsOf(ctx: Ctx, withEngagement: number): Promise<Factors> {
  const personal = await loadPersonal(ctx);
  if (!personal) {
    const note =
      withEngagement < MIN_HISTORY_POSTS
        ? `Not enough history for a personal score: ${withEngagement} posts with engagement; ${MIN_HISTORY_POSTS} are needed.`
        : 'Your personal score is being worked out from your history; ask again in a minute.';
    return { basedOn: 0, positive: [], negative: [], note };
  }
  const { model } = personal;
  const told = toldEffects(model).map(({ effect: e, direction }) => ({
    direction,
    factor: {
      feature: e.feature,
      label: featureLabel(e.feature),
      detail: effectSentence(e),
      modelMultiple: e.modelMultiple,
      posts: e.posts,
      multiple: e.multiple,
      withoutPosts: e.withoutPosts,
      without: e.without,
      pValue: e.p,
    },
  }));
  const positive = told.filter((t) => t.direction === 'lifts').map((t) => t.factor);
  const negative = told.filter((t) => t.direction === 'holds back').map((t) => t.factor);
  return {
    basedOn: model.basedOn,
    positive: positive.slice(0, TOP_FACTORS),
    negative: negative.slice(0, TOP_FACTORS),
    note: factorsNote(model.basedOn, positive.length + negative.length),
  };
}

function factorsNote(basedOn: number, told: number): string {
  if (told > 0)
    return `In your ${basedOn} posts with engagement, ${told === 1 ? 'this factor' : 'these factors'} made a clear difference to your results, and your personal score counts ${told === 1 ? 'it' : 'each'} the same way.`;
  const say = Math.round((100 * basedOn) / (basedOn + SHRINK_POSTS));
  return [
    `Your ${basedOn} posts with engagement do not yet show clearly what lifts your results or holds them back.`,
    `A factor is named when at least ${MIN_EFFECT_POSTS} of your posts have it and ${MIN_EFFECT_POSTS} do not, the gap between them is unlikely to be chance, and your personal score counts it the same way.`,
    `With ${basedOn} posts, your history makes up about ${say}% of your personal score, and the general score the rest.`,
  ].join(' ');
}

/** GET /v1/insights: what works for this author, from their history only. */
export async function getInsights({ ctx, input }: Call<InsightsQuery>): Promise<InsightsResult> {
  const timezone = checkTimeZone(input.timezone ?? (await accountZone(ctx.deps.db, ctx.caller.accountId)));
  const rows = await readHistory(ctx.deps.db, ctx.caller.accountId);
  const engaged = rows
    .map((row) => ({ row, engagement: toHistoryEntry(row).engagement }))
    .filter((r): r is { row: typeof r.row; engagement: number } => r.engagement !== null);
  const dated: TimedPost[] = engaged.flatMap(({ row, engagement }) =>
    row.publishedAt === null
      ? []
      : [{ publishedAt: row.publishedAt, timeKnown: row.publishedTimeKnown, engagement }],
  );
  const { days, hours } = timingInsights(dated, timezone);
  return {
    basedOn: {
      posts: rows.length,
      withEngagement: engaged.length,
      withDate: dated.length,
      withTime: dated.filter((p) => p.timeKnown).length,
    },
    medianEngagement: median(engaged.map((r) => r.engagement)),
    timezone,
    days,
    hours,
    grid: timingGrid(dated, timezone),
    personalModel: await personalModelState(ctx),
    factors: await factorsOf(ctx, engaged.length),
  };
}
