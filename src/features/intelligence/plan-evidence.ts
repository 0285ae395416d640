import type { Ctx } from '../../context.ts';
import type { MediaKind, Platform } from '../../domain/enums.ts';
import { median } from '../../lib/rank-stats.ts';
import type { PlanItem } from '../../scoring/index.ts';
import { toHistoryEntry } from '../history/history.service.ts';
import { readHistory } from '../history/history-view.ts';
import { localDayHour, WINDOWS } from '../insights/timing.ts';
import type { QueueRow } from '../queues/queue-assign.ts';
import { type BestWindow, cadenceDay, placeItems } from './plan-when.ts';

/**
 * A plan from the author's own results (issue 34 item 2). With a history of at least
 * MIN_HISTORY posts with engagement on the plan's platform, the items are ordered so the pillars
 * whose posts earned most come first, a format the author's posts did better with replaces one
 * they did worse with, and the items go on the author's best weekly windows (a weekday and
 * 3-hour window, the /v1/insights grid, in the writer's zone) or on the free slots of the
 * channel's queue (plan-when.ts); each item says which of the author's figures it rests on
 * (`evidence`) and the instant it suggests (`when`). Without such a history every item says it
 * rests on published figures, and suggests the queue's next free slots when there is a queue.
 */

export interface PlannedItem extends PlanItem {
  /** The author's figures (or the published ones) the item rests on. */
  evidence: string | null;
  /** The instant the item suggests, epoch ms; null without a window to suggest. */
  when: number | null;
}

export const MIN_HISTORY = 10;
/** Posts a pillar, a format or a window needs before its figure is told. */
const MIN_GROUP = 3;

interface Engaged {
  text: string;
  media: string | null;
  publishedAt: number | null;
  timeKnown: boolean;
  engagement: number;
}

const times = (x: number) => `${x.toFixed(1)}x`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
/** Multiples of the author's median on 1 + engagement, so a median of 0 still divides. */
const multipleOf = (group: number[], all: number) => (1 + median(group)!) / (1 + all);

/** What a post must mention to be on a pillar: its head word ("Shift handovers" -> handover). */
const headOf = (pillar: string) => (pillar.toLowerCase().match(/\p{L}{3,}/gu) ?? []).at(-1) ?? null;
const isOn = (text: string, head: string | null) =>
  head !== null && new RegExp(`\\b${head.replace(/s$/, '')}`, 'i').test(text);

const FORMAT_WORDS: Record<MediaKind, string> = {
  none: 'text-only',
  'single-image': 'single-image',
  'multi-image': 'multi-image',
  document: 'document',
  video: 'video',
  poll: 'poll',
  link: 'link',
};

/** The published figure a format rests on when the author has no history. */
const PUBLISHED =
  'Based on published figures for this platform: import your post history to plan from your own results.';

export async function withEvidence(
  ctx: Ctx,
  platform: Platform,
  items: PlanItem[],
  fits: (archetype: PlanItem['archetype']) => MediaKind[],
  /** A cadence has labelled each slot's day: the order stays. */
  keepOrder: boolean,
  /** The writer's zone (the queue's, else the account's) and the channel's queue, if it has slots. */
  place: { zone: string; queue: QueueRow | null },
): Promise<{ items: PlannedItem[]; basedOn: number }> {
  const rows = (await readHistory(ctx.deps.db, ctx.caller.accountId)).filter((r) => r.platform === platform);
  const engaged: Engaged[] = rows.flatMap((row) => {
    const e = toHistoryEntry(row).engagement;
    return e === null
      ? []
      : [
          {
            text: row.text,
            media: row.media,
            publishedAt: row.publishedAt,
            timeKnown: row.publishedTimeKnown,
            engagement: e,
          },
        ];
  });
  // A cadence labelled each item's day in its angle: the suggested time must agree with it.
  const daysOf = (list: PlanItem[]) => (keepOrder ? list.map((i) => cadenceDay(i.angle)) : null);
  if (engaged.length < MIN_HISTORY) {
    // No windows of the author's own: the queue's next free slots, when the channel has a queue.
    const slots = await placeItems(ctx, place.zone, [], place.queue, items.length, daysOf(items));
    return {
      items: items.map((item, k) => ({
        ...item,
        evidence: slots[k] ? `${PUBLISHED} ${slots[k].said}` : PUBLISHED,
        when: slots[k]?.at ?? null,
      })),
      basedOn: engaged.length,
    };
  }

  const all = median(engaged.map((p) => p.engagement))!;
  const pillarFigure = new Map<string, { n: number; x: number }>();
  for (const pillar of new Set(items.map((i) => i.pillar))) {
    const on = engaged.filter((p) => isOn(p.text, headOf(pillar)));
    if (on.length >= MIN_GROUP)
      pillarFigure.set(pillar, {
        n: on.length,
        x: multipleOf(
          on.map((p) => p.engagement),
          all,
        ),
      });
  }
  const formatFigure = new Map<string, { n: number; x: number }>();
  for (const media of new Set(engaged.map((p) => p.media ?? 'none'))) {
    const with_ = engaged.filter((p) => (p.media ?? 'none') === media);
    if (with_.length >= MIN_GROUP)
      formatFigure.set(media, {
        n: with_.length,
        x: multipleOf(
          with_.map((p) => p.engagement),
          all,
        ),
      });
  }
  // The author's best weekly windows: cells of the insights grid with enough posts, best first.
  const local = localDayHour(place.zone);
  const cells = new Map<string, { day: number; window: number; values: number[] }>();
  for (const p of engaged) {
    if (p.publishedAt === null || !p.timeKnown) continue;
    const { day, hour } = local(p.publishedAt);
    const window = Math.floor(hour / (24 / WINDOWS.length));
    const key = `${day}:${window}`;
    const cell = cells.get(key) ?? { day, window, values: [] };
    cell.values.push(p.engagement);
    cells.set(key, cell);
  }
  const windows: BestWindow[] = [...cells.values()]
    .filter((c) => c.values.length >= MIN_GROUP)
    .map((c) => ({ day: c.day, window: c.window, n: c.values.length, x: multipleOf(c.values, all) }))
    .filter((c) => c.x > 1)
    .sort((a, b) => b.x - a.x || b.n - a.n);

  // Pillars whose posts earned most first (stable: the plan's own order breaks ties).
  const ranked = items
    .map((item, k) => ({ item, k, x: pillarFigure.get(item.pillar)?.x ?? 1 }))
    .sort((a, b) => (keepOrder ? 0 : b.x - a.x) || a.k - b.k)
    .map((r) => r.item);
  const slots = await placeItems(ctx, place.zone, windows, place.queue, ranked.length, daysOf(ranked));
  const bestFormat = [...formatFigure]
    .filter(([, f]) => f.x > 1)
    .sort((a, b) => b[1].x - a[1].x)
    .map(([m]) => m as MediaKind);

  const out = ranked.map((item, k): PlannedItem => {
    const said: string[] = [];
    const pillar = pillarFigure.get(item.pillar);
    if (pillar)
      said.push(
        `Your ${plural(pillar.n, 'post')} about ${headOf(item.pillar)} earned ${times(pillar.x)} your median.`,
      );
    // A format the author did better with, where it suits the hook.
    const current = formatFigure.get(item.format);
    const better = bestFormat.find(
      (m) => fits(item.archetype).includes(m) && formatFigure.get(m)!.x > (current?.x ?? 1),
    );
    const format = better ?? item.format;
    const f = formatFigure.get(format);
    if (f) said.push(`Your ${plural(f.n, `${FORMAT_WORDS[format]} post`)} earned ${times(f.x)} your median.`);
    const slot = slots[k];
    if (slot) said.push(slot.said);
    if (!said.length)
      said.push(
        `None of your ${plural(engaged.length, 'post')} with engagement is on this theme yet: a new pillar.`,
      );
    return { ...item, format, evidence: said.join(' '), when: slot?.at ?? null };
  });
  return { items: out.map((item, k) => ({ ...item, slot: k + 1 })), basedOn: engaged.length };
}
