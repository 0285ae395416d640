import { Readable } from 'node:stream';
import { addCsvBodyParser } from '../../api/csv-body.ts';
import { DeleteResult, errorResponses, IdParams } from '../../api/schemas.ts';
import { Invalid } from '../../domain/errors.ts';
import type { FeatureRoutes } from '../feature-routes.ts';
import { BulkDryRunResult, BulkScheduleQuery, PostExportQuery } from './bulk.schemas.ts';
import { bulkScheduleCsv, dryRunBulkCsv, dryRunBulkItems } from './bulk.service.ts';
import { MAX_CSV_ROWS } from './bulk-csv.ts';
import { getCalendar } from './calendar.service.ts';
import type { Post } from './core/post.schemas.ts';
import { PostConflict, PostResult } from './core/post.schemas.ts';
import { exportPosts } from './export.service.ts';
import { bulkSchedule, cancelPost, schedulePost } from './lifecycle.service.ts';
import {
  BulkScheduleRequest,
  CalendarQuery,
  CalendarResult,
  CreatePostRequest,
  CreatePostResult,
  MAX_BULK_ITEMS,
  PostErrorResult,
  PostListQuery,
  PostListResult,
  ReviseScheduledRequest,
  SchedulePostRequest,
  UpdatePostRequest,
} from './posts.schemas.ts';
import { createPost, deletePost, getPost, listPosts, updatePost } from './posts.service.ts';
import { publishNow } from './publishing/publish-now.service.ts';
import { reviseScheduled } from './revise.service.ts';

const tags = ['posts'];

/** 1,000 CSV rows of up to a few thousand characters each. */
const BULK_BODY_LIMIT = 16 * 1024 * 1024;

const isCsv = (contentType: string | undefined) => /^text\/csv\b/i.test(contentType ?? '');

/** A JSON body a dry run can report on item by item: `{items: [...]}` within the batch size. */
function dryRunnableItems(body: unknown): unknown[] | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { items, ...rest } = body as { items?: unknown };
  if (Object.keys(rest).length || !Array.isArray(items)) return undefined;
  return items.length >= 1 && items.length <= MAX_BULK_ITEMS ? items : undefined;
}

export const postRoutes: FeatureRoutes = async (app) => {
  app.get(
    '/v1/posts',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'List posts',
        description:
          'Newest first; optionally only one status, only the occurrences of one series (`seriesId`), or only the posts of one post group (`groupId`).',
        querystring: PostListQuery,
        response: { 200: PostListResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => listPosts({ ctx: request.ctx, input: request.query }),
  );

  app.post(
    '/v1/posts',
    {
      config: { scope: 'write', idempotent: true },
      schema: {
        tags,
        summary: 'Create a post',
        description:
          'A draft, or a scheduled post when `runAt` (epoch ms, in the future) is given; scheduling needs a `channelId`. With `queue: true` instead of `runAt`, the post takes the channel’s next free queue slot (`slot` says which; 409 queue_empty when the channel has no slots). With `repeat`, the post is the first occurrence of a series (`series`): `runAt` + `repeat.every` repeats every n days, weeks or months at the same local time; `queue: true` + `repeat.minGapDays` re-queues the text (evergreen). `until` and `count` end a series. Every reference must be the caller’s; the text, each `thread` part (only on a platform with threads) and the `firstComment` must fit the platform, each problem reported at its part (`thread[2]`). Honours `Idempotency-Key`.',
        body: CreatePostRequest,
        response: { 201: CreatePostResult, ...errorResponses(400, 401, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPost({ ctx: request.ctx, input: request.body })),
  );

  addCsvBodyParser(app, { bodyLimit: BULK_BODY_LIMIT, label: ({ record }) => `row ${record}` });

  app.post(
    '/v1/posts/bulk-schedule',
    {
      config: { scope: 'publish', idempotent: true },
      bodyLimit: BULK_BODY_LIMIT,
      // A CSV body, and a JSON dry run, report bad rows themselves instead of failing at the schema.
      attachValidation: true,
      schema: {
        tags,
        summary: 'Schedule many posts',
        description: `JSON \`{items}\` (1-${MAX_BULK_ITEMS}) or \`text/csv\` (up to ${MAX_CSV_ROWS} rows, RFC 4180; UTF-8 unless the Content-Type names \`charset=windows-1252\` or \`iso-8859-1\`, a BOM dropped; bytes that do not decode are a 400 naming the row and byte offset) with a header row naming the columns \`text, runAt, channel, platform, firstComment, mediaIds\` (also \`brandId\`, \`thread\` as a JSON list, and \`queue\`; other columns, such as an export's \`id\` and \`status\`, are ignored). \`runAt\` is epoch ms or ISO 8601 with its offset; \`channel\` (also \`channelId\`, \`handle\`) is one of the caller's channels by its name as the console shows it (\`@sandy\`, any case, the \`@\` optional, or the name and its platform in brackets, \`@sandy (<platform>)\`, when two platforms share the name; the row's \`platform\` also tells them apart) or by its id, and \`?channel=\` names the channel of rows that name none (a name not found is a 400 at the row, listing the caller's channels); \`mediaIds\` are separated by spaces or commas; a cell starting with \`'\` before \`=\`, \`+\`, \`-\` or \`@\` loses that one quote (an export's formula escape). Every item is validated on its own; any problem fails the whole batch with per-item details (\`items[2].runAt\`, or \`row 4.runAt\` for a CSV: the spreadsheet row, header = row 1) and nothing is created. \`?dryRun=true\` answers 200 with every row's problems and the offline score of each good row, and writes nothing. Honours \`Idempotency-Key\` (the query is part of the request it is bound to).`,
        consumes: ['application/json', 'text/csv'],
        querystring: BulkScheduleQuery,
        body: BulkScheduleRequest,
        response: {
          200: BulkDryRunResult,
          201: PostListResult,
          ...errorResponses(400, 401, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      // Validation stops at a body it refuses (a CSV body), leaving the query unread: read it here.
      const raw = (request.query as { dryRun?: unknown }).dryRun;
      if (![undefined, true, false, 'true', 'false'].includes(raw as never))
        throw new Invalid('The query parameters did not validate: fix the listed fields.', [
          { path: 'querystring.dryRun', message: 'Must be true or false' },
        ]);
      const dryRun = raw === true || raw === 'true';
      const channel = (request.query as { channel?: unknown }).channel;
      if (
        channel !== undefined &&
        (typeof channel !== 'string' || channel.length < 1 || channel.length > 300)
      )
        throw new Invalid('The query parameters did not validate: fix the listed fields.', [
          { path: 'querystring.channel', message: 'Must be a channel’s name or id (1-300 characters)' },
        ]);
      let posts: Post[];
      if (isCsv(request.headers['content-type'])) {
        const csv = String(request.body ?? '');
        const input = { csv, channel };
        if (dryRun) return reply.status(200).send(await dryRunBulkCsv({ ctx, input }));
        posts = await bulkScheduleCsv({ ctx, input });
      } else {
        if (channel !== undefined)
          throw new Invalid(
            'The channel parameter applies to a CSV body; give each JSON item its channelId.',
            [{ path: 'querystring.channel', message: 'Only with a text/csv body' }],
          );
        const items = dryRunnableItems(request.body);
        if (dryRun && items) return reply.status(200).send(await dryRunBulkItems({ ctx, input: { items } }));
        if (request.validationError) throw request.validationError;
        posts = await bulkSchedule({ ctx, input: request.body });
      }
      return reply
        .status(201)
        .send({ posts, pagination: { limit: posts.length, offset: 0, hasMore: false } });
    },
  );

  app.get(
    '/v1/posts/export',
    {
      config: {
        scope: 'read',
        rawResponses: {
          200: {
            description: 'Every matching post, newest first: CSV (with a BOM) or `{"posts": [Post, ...]}`',
            types: ['text/csv', 'application/json'],
          },
        },
      },
      schema: {
        tags,
        summary: 'Export posts',
        description:
          'Every post of the account matching the list filters (`status`), newest first, streamed. `format=csv` (default) has the bulk import’s columns first (`text, runAt, channelId, platform, firstComment, mediaIds, thread`, then `id, status, publishedAt, platformUrl, createdAt`, times in ISO 8601 UTC), so the file can be edited and imported again; a cell starting with `=`, `+`, `-` or `@` is prefixed with `\'` so a spreadsheet shows it as text. `format=json` answers `{"posts": [...]}`.',
        querystring: PostExportQuery,
        response: errorResponses(400, 401, 429),
      },
    },
    async (request, reply) => {
      const csv = request.query.format === 'csv';
      const stamp = new Date(request.ctx.deps.clock.now()).toISOString().slice(0, 10);
      return reply
        .header('content-type', csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="posts-${stamp}.${request.query.format}"`)
        .send(Readable.from(exportPosts({ ctx: request.ctx, input: request.query })) as never);
    },
  );

  app.get(
    '/v1/posts/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Get a post',
        params: IdParams,
        response: { 200: PostResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ post: await getPost({ ctx: request.ctx, input: request.params }) }),
  );

  app.patch(
    '/v1/posts/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Edit a draft',
        description: 'Drafts only (409 not_draft otherwise); only the fields present change.',
        params: IdParams,
        body: UpdatePostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await updatePost({
        ctx: request.ctx,
        input: { id: request.params.id, changes: request.body ?? {} },
      }),
    }),
  );

  app.patch(
    '/v1/posts/:id/scheduled',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: 'Edit a scheduled post',
        description:
          'An extension (PATCH /v1/posts/{id} stays drafts only): changes the text, thread, first comment or media of a scheduled post until its publish starts; only the fields present change, and they must fit the platform as on create. Its channel, brand and time stay (POST /schedule moves it). 409 publish_started once the publish has claimed the post (or a part of it was published before a retry), 409 not_scheduled for a draft, 409 post_terminal for a finished post; each carries the post.',
        params: IdParams,
        body: ReviseScheduledRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await reviseScheduled({
        ctx: request.ctx,
        input: { id: request.params.id, changes: request.body ?? {} },
      }),
    }),
  );

  app.delete(
    '/v1/posts/:id',
    {
      config: { scope: 'write' },
      schema: {
        tags,
        summary: 'Delete a post',
        description:
          'Any state; a scheduled post’s pending job goes with it. A published post stays on the platform.',
        params: IdParams,
        response: { 200: DeleteResult, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => deletePost({ ctx: request.ctx, input: request.params }),
  );

  app.post(
    '/v1/posts/:id/publish',
    {
      // An extension: a replay with the same Idempotency-Key answers the first publish's post.
      config: { scope: 'publish', idempotent: true },
      schema: {
        tags,
        summary: 'Publish now',
        description:
          'Claims the post (draft or scheduled -> publishing) and publishes it exactly once: with a thread or a first comment, each part once, in order, each recorded before the next is sent (a part that fails for good fails the post with an error naming it; the parts before it stay in `platformPostIds`). A second or concurrent call gets 409 not_claimable with the post; one with the same `Idempotency-Key` as an earlier successful call (an extension) answers that call’s post again. Channel problems give 409 (channel_revoked, channel_expired, channel_error) and a platform rejection 502 publish_failed, each with the failed post; also 502 publish_failed when the platform never answered the create and cannot say whether it has the post (the post’s `error` then opens with publish_outcome_unknown). A transient platform outage gives 503 platform_unavailable with the post back in `scheduled` for an automatic retry. 400 when the post has no channel.',
        params: IdParams,
        response: {
          200: PostResult,
          409: PostErrorResult,
          502: PostErrorResult,
          ...errorResponses(400, 401, 404, 429, 503),
        },
      },
    },
    async (request) => ({ post: await publishNow({ ctx: request.ctx, input: request.params }) }),
  );

  app.post(
    '/v1/posts/:id/schedule',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: 'Schedule a post',
        description:
          "draft -> scheduled, or a new time for a scheduled post (its pending job is replaced). `runAt` must be in the future and the post needs a channel; `queue: true` instead (an extension) takes the channel's next free queue slot (409 queue_empty without slots).",
        params: IdParams,
        body: SchedulePostRequest,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => ({
      post: await schedulePost({
        ctx: request.ctx,
        input: { id: request.params.id, ...request.body },
      }),
    }),
  );

  app.post(
    '/v1/posts/:id/cancel',
    {
      config: { scope: 'publish' },
      schema: {
        tags,
        summary: 'Cancel a post',
        description:
          'Any non-terminal post not yet sent to the platform becomes canceled (a no-op when already canceled). 409 post_terminal for published or failed posts, 409 post_publishing once the create is on its way.',
        params: IdParams,
        response: { 200: PostResult, 409: PostConflict, ...errorResponses(401, 404, 429) },
      },
    },
    async (request) => ({ post: await cancelPost({ ctx: request.ctx, input: request.params }) }),
  );

  app.get(
    '/v1/calendar',
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Calendar',
        description:
          'Scheduled (and in-flight) posts at their scheduled time and published posts at their published time, chronological. `from` inclusive, `to` exclusive, both epoch ms and optional.',
        querystring: CalendarQuery,
        response: { 200: CalendarResult, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => ({ calendar: await getCalendar({ ctx: request.ctx, input: request.query }) }),
  );
};
