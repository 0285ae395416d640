import { z } from 'zod';
import { DeleteResult, IdParams } from '../../api/schemas.ts';
import { CreatePostRequest, CreatePostResult } from '../../features/posts/posts.schemas.ts';
import { createPost } from '../../features/posts/posts.service.ts';
import {
  QueueResult,
  QueueViewQuery,
  QueueViewResult,
  SetQueueRequest,
  SuggestQuery,
  SuggestResult,
} from '../../features/queues/queues.schemas.ts';
import { dayName, deleteQueue, getQueue, setQueue } from '../../features/queues/queues.service.ts';
import { suggestQueue } from '../../features/queues/suggest.service.ts';
import { CancelSeriesResult, Repeat, SeriesResult } from '../../features/series/series.schemas.ts';
import { cancelSeries, getSeries } from '../../features/series/series.service.ts';
import { changes, defineTool, formatWhen, plural, publishes, readOnly } from '../tool.ts';

/** The channel whose queue a tool reads or writes, as an argument. */
const ChannelId = z.object({
  channelId: IdParams.shape.id.describe('The channel id (chn_…) from list_channels'),
});
const SeriesId = z.object({ id: IdParams.shape.id.describe('The series id (ser_…)') }).strict();

const draftFields = CreatePostRequest.omit({ runAt: true, queue: true, repeat: true });
/** Going out publicly at the slot's time: open world, and each call adds a post. */
const schedulesPublicly = publishes(false, false);

export const queueTools = [
  defineTool({
    name: 'set_queue',
    title: "Set a channel's queue",
    description:
      "Replaces a channel's weekly posting slots: `timezone` (IANA, e.g. Europe/Paris) and `slots` [{day: ISO weekday 1-7, Monday = 1, time: 'HH:MM'}], at most 100, each once. Slots keep their local time across daylight-saving changes. Posts already scheduled keep their times. Use suggest_queue first to pick slots from the author's own results. Free.",
    input: ChannelId.extend(SetQueueRequest.shape).strict(),
    output: QueueResult,
    annotations: changes(false, true),
    scope: 'publish',
    run: async (ctx, { channelId, ...queue }) => ({
      queue: await setQueue({ ctx, input: { channelId, queue } }),
    }),
    summarize: ({ queue }) =>
      `Queue set: ${plural(queue.slots.length, 'slot')} a week in ${queue.timezone}${
        queue.slots.length
          ? ` (${queue.slots
              .slice(0, 7)
              .map((s) => `${dayName(s.day)} ${s.time}`)
              .join(', ')}${queue.slots.length > 7 ? ', …' : ''})`
          : ''
      }.`,
  }),
  defineTool({
    name: 'get_queue',
    title: "Get a channel's queue",
    description:
      "A channel's weekly slots and its next `count` (1-100, default 10) slot times, each with the id of the post scheduled there or null when free. Use it before queue_post to see where a post would land, or to find gaps. Free.",
    input: ChannelId.extend(QueueViewQuery.shape).strict(),
    output: QueueViewResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => getQueue({ ctx, input }),
    summarize: ({ queue, upcoming }) =>
      `${plural(queue.slots.length, 'slot')} a week in ${queue.timezone}; next: ${
        upcoming.length === 0
          ? 'none'
          : upcoming
              .slice(0, 10)
              .map((u) => `${formatWhen(u.at)} ${u.postId ?? 'free'}`)
              .join('; ')
      }.`,
  }),
  defineTool({
    name: 'suggest_queue',
    title: 'Suggest queue slots',
    description:
      "Proposes weekly slots for a channel from the author's own results on its platform (the best weekday and 3-hour windows, each with the number of posts and the multiple of the author's median behind it), or the general figures when the history is thin; `source` says which. Writes nothing: pass the slots you keep to set_queue. Free.",
    input: ChannelId.extend(SuggestQuery.shape).strict(),
    output: SuggestResult,
    annotations: readOnly,
    scope: 'read',
    run: (ctx, input) => suggestQueue({ ctx, input }),
    summarize: ({ source, slots, note }) =>
      `${source === 'history' ? 'From your history' : 'General figures'}: ${slots
        .map(
          (s) =>
            `${dayName(s.day)} ${s.time}${s.posts === null ? '' : ` (${s.posts} posts, ${s.multiple}x)`}`,
        )
        .join(', ')}. ${note}`,
  }),
  defineTool({
    name: 'clear_queue',
    title: "Clear a channel's queue",
    description:
      "Removes every slot of a channel's queue. Posts already scheduled keep their times; queue_post then fails with queue_empty until set_queue adds slots again. Free.",
    input: ChannelId.strict(),
    output: DeleteResult,
    annotations: changes(true, true),
    scope: 'publish',
    run: (ctx, input) => deleteQueue({ ctx, input }),
    summarize: ({ deleted }) => (deleted ? 'Queue cleared.' : 'The channel had no queue.'),
  }),
  defineTool({
    name: 'queue_post',
    title: 'Queue a post',
    description:
      "Creates a post scheduled at its channel's next free queue slot (no other scheduled or published post of the channel at that time); `slot` says which. Needs `channelId`; fails with queue_empty when the channel has no slots (set_queue). The post then goes out publicly on the channel’s social account at that time, exactly once, where everyone can see it: confirm the text with the person first. With `repeat: {minGapDays, count?, until?}` the text is evergreen: re-queued again and again, never twice on the channel within minGapDays. Pass an idempotencyKey when you might retry. No quota.",
    input: draftFields.extend({ repeat: Repeat.optional() }).strict(),
    output: CreatePostResult,
    annotations: schedulesPublicly,
    scope: 'publish',
    idempotentAs: { method: 'POST', url: '/v1/posts', status: 201 },
    run: (ctx, input) => createPost({ ctx, input: { ...input, queue: true } }),
    summarize: ({ post, slot, series }) =>
      `Queued post ${post.id} for ${formatWhen(post.scheduledFor)}${slot ? ` (${dayName(slot.day)} ${slot.time} ${slot.timezone})` : ''}${series ? `, evergreen series ${series.id}` : ''}.`,
  }),
  defineTool({
    name: 'schedule_series',
    title: 'Schedule a recurring post',
    description:
      'Creates a recurring series: the first post at `runAt` (epoch ms, future), then one every `repeat.every` {unit: day, week or month, n} at the same local time (repeat.timezone, default the channel queue’s zone, else the account’s), until `repeat.until` or `repeat.count` occurrences. Each occurrence is its own post (seriesId set), created up to 28 days ahead and published publicly on the channel’s social account exactly once (confirm the text and rhythm with the person first); cancel one with cancel_post, all future ones with cancel_series. Pass an idempotencyKey when you might retry. No quota.',
    input: draftFields
      .extend({
        runAt: z.number().int().min(0).describe('Epoch ms of the first occurrence, in the future'),
        repeat: Repeat,
      })
      .strict(),
    output: CreatePostResult,
    annotations: schedulesPublicly,
    scope: 'publish',
    idempotentAs: { method: 'POST', url: '/v1/posts', status: 201 },
    run: (ctx, input) => createPost({ ctx, input }),
    summarize: ({ post, series }) =>
      `Series ${series?.id ?? ''} started: first post ${post.id} for ${formatWhen(post.scheduledFor)}, ${plural(series?.occurrences ?? 1, 'occurrence')} created so far.`,
  }),
  defineTool({
    name: 'get_series',
    title: 'Get a series',
    description:
      'Reads a recurring or evergreen series: its rule, status (active, ended, canceled), how many occurrences exist and when the next is due. List its occurrences with list_posts and seriesId. Free.',
    input: SeriesId,
    output: SeriesResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx, input) => ({ series: await getSeries({ ctx, input }) }),
    summarize: ({ series }) =>
      `Series ${series.id}: ${series.status}, ${plural(series.occurrences, 'occurrence')}${series.nextAt ? `, next ${formatWhen(series.nextAt)}` : ''}.`,
  }),
  defineTool({
    name: 'cancel_series',
    title: 'Cancel a series',
    description:
      'Stops a recurring or evergreen series: no more occurrences are created and every occurrence not yet sent to the platform is canceled (published ones stay). Repeating it changes nothing more. To skip a single occurrence, use cancel_post on it instead. Free.',
    input: SeriesId,
    output: CancelSeriesResult,
    annotations: changes(true, true),
    scope: 'publish',
    run: (ctx, input) => cancelSeries({ ctx, input }),
    summarize: ({ series, canceled }) =>
      `Series ${series.id} canceled; ${plural(canceled.length, 'occurrence')} canceled.`,
  }),
];
