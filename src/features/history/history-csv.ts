import { CsvError, parse } from 'csv-parse/sync';
import { MediaKind } from '../../domain/enums.ts';
import { type ErrorDetail, Invalid } from '../../domain/errors.ts';
import { partOf } from '../../lib/part-of.ts';
import { HistoryItemInput, MAX_IMPORT_ITEMS } from './history.schemas.ts';

/**
 * A CSV export read as the items of a history import: another spelling of the same request,
 * validated row by row against the same item schema. Errors name the CSV line (header = line
 * 1, so it matches a spreadsheet's row number) and the column as the file spells it.
 */

type Field = keyof HistoryItemInput;

/** Header names (lower-cased, punctuation and spaces dropped) -> field; the canonical name wins. */
const COLUMNS: Record<string, Field> = {
  text: 'text',
  content: 'text',
  commentary: 'text',
  posttext: 'text',
  platform: 'platform',
  publishedat: 'publishedAt',
  date: 'publishedAt',
  postdate: 'publishedAt',
  postedat: 'publishedAt',
  media: 'media',
  mediatype: 'media',
  reactions: 'reactions',
  likes: 'reactions',
  numlikes: 'reactions',
  comments: 'comments',
  numcomments: 'comments',
  shares: 'shares',
  reposts: 'shares',
  numshares: 'shares',
  numreposts: 'shares',
  impressions: 'impressions',
  views: 'impressions',
  numimpressions: 'impressions',
  clicks: 'clicks',
};

/** Format names seen in exports -> MediaKind. */
const MEDIA_ALIASES: Record<string, MediaKind> = {
  text: 'none',
  textonly: 'none',
  none: 'none',
  image: 'single-image',
  photo: 'single-image',
  singleimage: 'single-image',
  images: 'multi-image',
  multiimage: 'multi-image',
  document: 'document',
  pdf: 'document',
  carousel: 'document',
  video: 'video',
  linkedinvideo: 'video',
  poll: 'poll',
  link: 'link',
  article: 'link',
};

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const COUNTERS = new Set<Field>(['reactions', 'comments', 'shares', 'impressions', 'clicks']);
const MAX_DETAILS = 50;

interface Column {
  index: number;
  name: string;
}

/** Which column feeds each field: the canonical name if present, else the first alias. */
function mapHeader(header: string[]): Map<Field, Column> {
  const out = new Map<Field, Column>();
  header.forEach((raw, index) => {
    const key = squash(raw);
    const field = COLUMNS[key];
    if (!field) return;
    const canonical = key === squash(field);
    if (!out.has(field) || canonical) out.set(field, { index, name: raw.trim() });
  });
  return out;
}

type Cell = { value: unknown } | { error: string };

function readCell(field: Field, raw: string): Cell {
  const s = raw.trim();
  if (field === 'text') return { value: raw };
  if (s === '') return { value: field === 'platform' ? undefined : null };
  if (COUNTERS.has(field)) {
    if (/^\d+$/.test(s)) return { value: Number(s) };
    if (/^\d{1,3}(,\d{3})+$/.test(s)) return { value: Number(s.replace(/,/g, '')) };
    return { error: `"${s}" is not a whole number` };
  }
  if (field === 'publishedAt') return { value: /^\d+$/.test(s) ? Number(s) : s };
  if (field === 'media') {
    const kind = MEDIA_ALIASES[squash(s)];
    if (kind) return { value: kind };
    return {
      error: `"${s}" is not a known format; use one of ${MediaKind.options.join(', ')} (image, video, article, text are accepted too)`,
    };
  }
  return { value: s };
}

function readRows(csv: string): { records: string[][]; lines: number[] } {
  const lines: number[] = [];
  let previousEnd = 0;
  try {
    const records = parse(csv, {
      bom: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return {
      records: records.map((r) => {
        lines.push(previousEnd + 1);
        previousEnd = r.info.lines;
        return r.record;
      }),
      lines,
    };
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines;
    throw new Invalid(`The CSV could not be read: ${err.message}`, [
      { path: line ? `line ${line}` : '(body)', message: err.message },
    ]);
  }
}

/** The CSV body as import items, or Invalid naming every bad line and column (up to 50). */
export function csvToItems(csv: string): HistoryItemInput[] {
  const { records, lines } = readRows(csv);
  const [header, ...rows] = records;
  if (!header || rows.length === 0)
    throw new Invalid('The CSV holds no posts: send a header row and at least one row under it.');
  const columns = mapHeader(header);
  if (!columns.has('text'))
    throw new Invalid('The CSV has no text column: name it text (or content, or commentary).', [
      { path: 'line 1', message: `Found columns: ${header.join(', ').slice(0, 300)}` },
    ]);
  if (rows.length > MAX_IMPORT_ITEMS)
    throw new Invalid(
      `The CSV holds ${rows.length} posts; send at most ${MAX_IMPORT_ITEMS} per request (split the file).`,
    );

  const items: HistoryItemInput[] = [];
  const details: ErrorDetail[] = [];
  let badRows = 0;
  rows.forEach((row, i) => {
    const line = lines[i + 1]!;
    const item: Record<string, unknown> = {};
    const rowErrors: ErrorDetail[] = [];
    for (const [field, column] of columns) {
      const cell = readCell(field, row[column.index] ?? '');
      if ('error' in cell) rowErrors.push({ path: `line ${line}.${column.name}`, message: cell.error });
      else if (cell.value !== undefined) item[field] = cell.value;
    }
    // The schema judges the cells that were read (a bad date, an empty text) in the same pass.
    const parsed = HistoryItemInput.safeParse(item);
    if (parsed.success && rowErrors.length === 0) items.push(parsed.data);
    else if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'text') as Field;
        rowErrors.push({ path: `line ${line}.${columns.get(field)?.name ?? field}`, message: issue.message });
      }
    if (rowErrors.length) {
      badRows++;
      details.push(...rowErrors);
    }
  });
  const invalid = partOf(badRows, rows.length, 'CSV row');
  if (badRows)
    throw new Invalid(
      `${invalid.subject} ${invalid.is} invalid; nothing was imported. Fix ${badRows === 1 ? 'it' : 'them'} as listed and send the file again.`,
      details.slice(0, MAX_DETAILS),
    );
  return items;
}
