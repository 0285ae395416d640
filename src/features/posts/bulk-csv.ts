import { CsvError, parse } from 'csv-parse/sync';
import { type ErrorDetail, Invalid } from '../../domain/errors.ts';
import { unescapeCell } from './csv-cells.ts';

/**
 * A CSV file read as the items of a bulk schedule: each row becomes the same item object the
 * JSON body carries (`{text, runAt, channelId, ...}`), so the same schema and the same verb
 * judge it; the channel cell may hold a channel's name, which bulk-channels.ts turns into its id. Rows are numbered as a spreadsheet shows them (the header is row 1, the first post
 * row 2), and every problem is reported at `row N.<column as the file spells it>`.
 */

export const MAX_CSV_ROWS = 1000;

/** The item fields a column can feed. */
export type CsvField =
  | 'text'
  | 'runAt'
  | 'queue'
  | 'channelId'
  | 'brandId'
  | 'platform'
  | 'firstComment'
  | 'mediaIds'
  | 'thread';

/** Header names (lower-cased, punctuation and spaces dropped) -> field; the canonical name wins. */
const COLUMNS: Record<string, CsvField> = {
  text: 'text',
  content: 'text',
  runat: 'runAt',
  scheduledfor: 'runAt',
  queue: 'queue',
  channelid: 'channelId',
  channel: 'channelId',
  channelname: 'channelId',
  handle: 'channelId',
  brandid: 'brandId',
  platform: 'platform',
  firstcomment: 'firstComment',
  mediaids: 'mediaIds',
  media: 'mediaIds',
  thread: 'thread',
};

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** One data row: its spreadsheet row number, the item it spells, and what could not be read. */
export interface CsvRow {
  row: number;
  item: Record<string, unknown>;
  errors: ErrorDetail[];
}

export interface CsvBatch {
  rows: CsvRow[];
  /** field -> the column name as the file spells it, for error paths. */
  columns: Map<CsvField, string>;
}

/** `2027-01-12T09:30:00+01:00`, `…Z`, seconds and milliseconds optional: an instant, never a local time. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['', 'false', 'no', 'n', '0']);

type Cell = { value: unknown } | { error: string };

function readCell(field: CsvField, raw: string): Cell {
  const s = raw.trim();
  switch (field) {
    case 'text':
      return { value: unescapeCell(raw) };
    case 'firstComment':
      return { value: s === '' ? undefined : unescapeCell(raw) };
    case 'runAt': {
      if (s === '') return { value: undefined };
      if (/^\d+$/.test(s)) return { value: Number(s) };
      const at = ISO_INSTANT.test(s) ? Date.parse(s.replace(' ', 'T')) : Number.NaN;
      if (Number.isFinite(at)) return { value: at };
      return {
        error: `"${s}" is not a time: write epoch milliseconds or an ISO 8601 time with its offset, e.g. 2027-01-12T09:30:00+01:00`,
      };
    }
    case 'queue': {
      const v = s.toLowerCase();
      if (TRUE.has(v)) return { value: true };
      if (FALSE.has(v)) return { value: undefined };
      return { error: `"${s}" is not yes or no: write true to take the channel's next free queue slot` };
    }
    case 'mediaIds': {
      const ids = unescapeCell(s)
        .split(/[\s,;|]+/)
        .filter(Boolean);
      return { value: ids.length ? ids : undefined };
    }
    case 'thread': {
      if (s === '') return { value: undefined };
      try {
        const parts = JSON.parse(unescapeCell(s)) as unknown;
        if (Array.isArray(parts) && parts.every((p) => typeof p === 'string')) return { value: parts };
      } catch {
        // reported below
      }
      return { error: 'Write the follow-up parts as a JSON list of texts, e.g. ["Part 2", "Part 3"]' };
    }
    default:
      return { value: s === '' ? undefined : unescapeCell(s) };
  }
}

function readRecords(csv: string): string[][] {
  try {
    return parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines;
    throw new Invalid(`The CSV could not be read: ${err.message}`, [
      { path: line ? `line ${line}` : '(body)', message: err.message },
    ]);
  }
}

/**
 * The CSV body as rows of bulk items. A file that cannot be a batch at all (unreadable, no
 * header, no text column, no rows, more than MAX_CSV_ROWS) is refused whole; a bad cell is
 * reported on its row, so a dry run can show every row.
 */
export function readBulkCsv(csv: string): CsvBatch {
  const [header, ...records] = readRecords(csv);
  if (!header || records.length === 0)
    throw new Invalid('The CSV holds no posts: send a header row and at least one row under it.');
  const columns = new Map<CsvField, { index: number; name: string }>();
  header.forEach((raw, index) => {
    const key = squash(raw);
    const field = COLUMNS[key];
    if (!field) return;
    if (!columns.has(field) || key === squash(field)) columns.set(field, { index, name: raw.trim() });
  });
  if (!columns.has('text'))
    throw new Invalid('The CSV has no text column: name the column holding each post text "text".', [
      { path: 'row 1', message: `Found columns: ${header.join(', ').slice(0, 300)}` },
    ]);
  if (records.length > MAX_CSV_ROWS)
    throw new Invalid(
      `The CSV holds ${records.length} posts; send at most ${MAX_CSV_ROWS} per request (split the file).`,
    );
  const rows = records.map((record, i): CsvRow => {
    const row = i + 2;
    const item: Record<string, unknown> = {};
    const errors: ErrorDetail[] = [];
    for (const [field, column] of columns) {
      const cell = readCell(field, record[column.index] ?? '');
      if ('error' in cell) errors.push({ path: `row ${row}.${column.name}`, message: cell.error });
      else if (cell.value !== undefined) item[field] = cell.value;
    }
    const timed =
      item.runAt !== undefined || errors.some((e) => e.path === `row ${row}.${columns.get('runAt')?.name}`);
    if (!timed && item.queue !== true)
      errors.push({
        path: `row ${row}.${columns.get('runAt')?.name ?? 'runAt'}`,
        message:
          'No time given: write when to publish (epoch ms or ISO 8601 with its offset), or set queue to true',
      });
    return { row, item, errors };
  });
  return { rows, columns: new Map([...columns].map(([field, c]) => [field, c.name])) };
}
