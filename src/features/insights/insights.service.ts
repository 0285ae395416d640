import type { Call, Ctx } from '../../context.ts';
import { Invalid } from '../../domain/errors.ts';
import { labelInSentence } from '../../lib/label-in-sentence.ts';
import { median } from '../../lib/rank-stats.ts';
import { featureLabel, MIN_HISTORY_POSTS } from '../../scoring/index.ts';
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

/** The personal model's strongest re-weighted features, each with its effect measured in the history. */
async function factorsOf(ctx: Ctx, withEngagement: number): Promise<Factors> {
  const personal = await loadPersonal(ctx);
  if (!personal) {
    const note =
      withEngagement < MIN_HISTORY_POSTS
        ? `Not enough history for a personal model: ${withEngagement} posts with engagement; ${MIN_HISTORY_POSTS} are needed.`
        : 'Your personal model is being fitted from your history; ask again in a minute.';
    return { basedOn: 0, positive: [], negative: [], note };
  }
  const all = personal.model.effects.map((e) => ({
    feature: e.feature,
    label: featureLabel(e.feature),
    modelMultiple: e.modelMultiple,
    posts: e.posts,
    multiple: e.multiple,
    withoutPosts: e.withoutPosts,
    without: e.without,
    pValue: e.p,
  }));
  const strength = (f: { modelMultiple: number }) => Math.abs(Math.log(f.modelMultiple));
  const positive = all
    .filter((f) => f.modelMultiple > 1.01)
    .sort((a, b) => strength(b) - strength(a))
    .slice(0, TOP_FACTORS);
  const negative = all
    .filter((f) => f.modelMultiple < 0.99)
    .sort((a, b) => strength(b) - strength(a))
    .slice(0, TOP_FACTORS);
  const top = positive[0];
  const note = top
    ? `From ${personal.model.basedOn} posts: what lifts your posts most is ${labelInSentence(top.label)} (your ${top.posts} posts with it earned ${top.multiple}x your median; without it ${top.without}x).`
    : `From ${personal.model.basedOn} posts: no feature moves your results clearly yet; the personal model stays close to the general one.`;
  return { basedOn: personal.model.basedOn, positive, negative, note };
}

/** GET /v1/insights: what works for this author, from their history only. */
export async function getInsights({ ctx, input }: Call<InsightsQuery>): Promise<InsightsResult> {
  const timezone = checkTimeZone(input.timezone);
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
