import type { Call, Ctx } from '../../context.ts';
import type { Platform } from '../../domain/enums.ts';
import { type ErrorDetail, Invalid } from '../../domain/errors.ts';
import { partOf } from '../../lib/part-of.ts';
import { scoreHeuristically } from '../../scoring/index.ts';
import type { BulkDryRunResult } from './bulk.schemas.ts';
import { channelNames } from './bulk-channels.ts';
import { type CsvField, readBulkCsv } from './bulk-csv.ts';
import type { Post } from './core/post.schemas.ts';
import { mediaKindOf } from './core/post-rules.ts';
import { bulkSchedule, checkBulkItems } from './lifecycle.service.ts';
import { BulkScheduleItem } from './posts.schemas.ts';

/**
 * Bulk scheduling from a CSV file, and dry runs of a batch (CSV or JSON). A CSV row becomes
 * the same item the JSON body carries and goes through the same verb (bulkSchedule), so the
 * rules are the JSON batch's; only the paths differ: `row 5.runAt` (the spreadsheet row and
 * the column as the file names it) instead of `items[3].runAt`.
 */

/** One item of a batch as received: its row number, the raw item, what reading it found wrong. */
interface BatchRow {
  row: number;
  item: unknown;
  errors: ErrorDetail[];
}

/** How a batch names an item's fields in paths: `items[3].` + field, or `row 5.` + column. */
interface Labels {
  prefix(index: number): string;
  field(name: string): string;
}

const jsonLabels: Labels = { prefix: (i) => `items[${i}].`, field: (name) => name };

function csvLabels(rows: BatchRow[], columns: Map<CsvField, string>): Labels {
  return {
    prefix: (i) => `row ${rows[i]!.row}.`,
    field: (name) => columns.get(name as CsvField) ?? name,
  };
}

/** `items[3].` + `mediaIds[0]` -> the label's spelling of the field, keeping what follows it. */
const relabel = (labels: Labels, index: number, path: string) =>
  labels.prefix(index) + path.replace(/^[A-Za-z]+/, (field) => labels.field(field));

/**
 * Each row's problems, nothing written: first the schema (the JSON body's), then, for rows
 * the schema accepts, the batch's rules (references, platform limits, time, channel).
 */
async function judge(ctx: Ctx, rows: BatchRow[], labels: Labels) {
  const reports = rows.map((r) => ({ row: r.row, errors: [...r.errors] }));
  const valid: { index: number; item: BulkScheduleItem }[] = [];
  rows.forEach((r, index) => {
    const parsed = BulkScheduleItem.safeParse(r.item);
    const reported = new Set(r.errors.map((e) => e.path));
    if (parsed.success) {
      if (r.errors.length === 0) valid.push({ index, item: parsed.data });
      return;
    }
    for (const issue of parsed.error.issues) {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [undefined];
      for (const key of keys) {
        const segments = key === undefined ? issue.path : [...issue.path, key];
        const tail = segments.map((s, i) =>
          typeof s === 'number' ? `[${s}]` : i ? `.${String(s)}` : String(s),
        );
        // An issue about the item itself (not an object) is named by the item alone.
        const path = tail.length ? relabel(labels, index, tail.join('')) : labels.prefix(index).slice(0, -1);
        if (reported.has(path)) continue;
        reported.add(path);
        reports[index]!.errors.push({
          path,
          message: key === undefined ? issue.message : 'Unknown field; remove it',
        });
      }
    }
  });
  const now = ctx.deps.clock.now();
  const checked = await checkBulkItems(
    ctx,
    valid.map((v) => v.item),
    now,
    () => '',
  );
  valid.forEach((v, j) => {
    for (const problem of checked.problems[j]!)
      reports[v.index]!.errors.push({
        path: relabel(labels, v.index, problem.path),
        message: problem.message,
      });
  });
  return { reports, valid, checked };
}

/** The dry run's answer: every row's problems and, for a good row, its offline score. */
async function dryRun(ctx: Ctx, rows: BatchRow[], labels: Labels): Promise<BulkDryRunResult> {
  const { reports, valid, checked } = await judge(ctx, rows, labels);
  const scores = new Map<number, number>();
  valid.forEach((v, j) => {
    if (reports[v.index]!.errors.length) return;
    const draft = checked.drafts[j]!;
    const types = draft.mediaIds.flatMap((id) => checked.lookup.media.get(id)?.contentType ?? []);
    const result = scoreHeuristically({
      post: draft.text,
      platform: draft.platform as Platform,
      media: mediaKindOf(types),
    });
    scores.set(v.index, Math.round(result.overall));
  });
  const out = reports.map((r, i) => ({
    row: r.row,
    ok: r.errors.length === 0,
    errors: r.errors,
    ...(scores.has(i) ? { score: scores.get(i)! } : {}),
  }));
  return { valid: out.every((r) => r.ok), rows: out };
}

const badRows = (reports: { errors: ErrorDetail[] }[], total: number) => {
  const bad = reports.filter((r) => r.errors.length > 0);
  if (!bad.length) return;
  const rows = partOf(bad.length, total, 'row');
  throw new Invalid(
    `${rows.subject} ${rows.is} invalid; nothing was scheduled. Fix ${bad.length === 1 ? 'it' : 'them'} as listed and send the file again.`,
    bad.flatMap((r) => r.errors),
  );
};

/** A CSV body, and the channel of rows that name none (`?channel=`, a name or an id). */
export interface CsvInput {
  csv: string;
  channel?: string | undefined;
}

/**
 * The file's rows with each channel cell (or the default channel) turned into the caller's
 * channel id; a name no channel of the caller has is that row's problem, at its channel column.
 */
async function csvBatch(ctx: Ctx, input: CsvInput) {
  const { rows, columns } = readBulkCsv(input.csv);
  const names = await channelNames(ctx);
  let fallback: string | undefined;
  if (input.channel !== undefined) {
    const resolved = names.resolve(input.channel);
    if ('error' in resolved)
      throw new Invalid(`${resolved.error}.`, [{ path: 'querystring.channel', message: resolved.error }]);
    fallback = resolved.id;
  }
  const column = columns.get('channelId') ?? 'channel';
  for (const r of rows) {
    const cell = r.item.channelId;
    if (typeof cell !== 'string') {
      if (fallback) r.item.channelId = fallback;
      continue;
    }
    const platform = typeof r.item.platform === 'string' ? r.item.platform : undefined;
    const resolved = names.resolve(cell, platform);
    if ('id' in resolved) r.item.channelId = resolved.id;
    else r.errors.push({ path: `row ${r.row}.${column}`, message: resolved.error });
  }
  return { rows, labels: csvLabels(rows, columns) };
}

/** POST /v1/posts/bulk-schedule?dryRun=true with a CSV body. */
export async function dryRunBulkCsv({ ctx, input }: Call<CsvInput>): Promise<BulkDryRunResult> {
  const { rows, labels } = await csvBatch(ctx, input);
  return dryRun(ctx, rows, labels);
}

/** POST /v1/posts/bulk-schedule?dryRun=true with a JSON body: `row` counts items from 1. */
export async function dryRunBulkItems({ ctx, input }: Call<{ items: unknown[] }>): Promise<BulkDryRunResult> {
  const rows = input.items.map((item, i) => ({ row: i + 1, item, errors: [] }));
  return dryRun(ctx, rows, jsonLabels);
}

/**
 * POST /v1/posts/bulk-schedule with a CSV body: all or nothing. Any bad row fails the file
 * with every row's problems (400, nothing written); otherwise the items go through
 * bulkSchedule exactly as a JSON batch would.
 */
export async function bulkScheduleCsv({ ctx, input }: Call<CsvInput>): Promise<Post[]> {
  const { rows, labels } = await csvBatch(ctx, input);
  const { reports, valid } = await judge(ctx, rows, labels);
  badRows(reports, rows.length);
  try {
    return await bulkSchedule({ ctx, input: { items: valid.map((v) => v.item) } });
  } catch (err) {
    // Something changed between the check and the write (a medium deleted): same report, row paths.
    if (!(err instanceof Invalid)) throw err;
    const details = (err.details ?? []).map((d) => {
      const m = /^items\[(\d+)\]\.(.*)$/.exec(d.path);
      return m ? { path: relabel(labels, Number(m[1]), m[2]!), message: d.message } : d;
    });
    throw new Invalid(err.message, details);
  }
}
