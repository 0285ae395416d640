import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MediaKind } from '../../src/domain/enums.ts';
import { parseCsv } from './posts-csv.ts';

/**
 * The real-post sets in ../shared/data/ (see its README), as one row shape for training and
 * evaluation: author, text, media when the export says, and engagement
 * (reactions + comments + reposts, reposts where the file has them).
 */

export interface DataPost {
  file: string;
  author: string;
  text: string;
  media?: MediaKind;
  engagement: number;
  /** log(1 + engagement): what the score is asked to rank within an author. */
  target: number;
  heldOut: boolean;
}

/**
 * The one setting that says where the real posts are: POSTKIT_DATA_DIR, by default ../shared/data
 * beside the project (where the project's own checkouts find them). A fresh clone has none: the
 * suites that read them are skipped with the reason (test/helpers/real-posts.ts), and
 * `npm run train:scoring` / `npm run eval:scoring` stop with it.
 */
export const DATA_DIR = process.env.POSTKIT_DATA_DIR ?? join(import.meta.dirname, '../../../shared/data');
export const DATA_FILES = ['linkedin-creator-posts.csv', 'linkedin-posts-2025.csv'] as const;

/** Why the real posts cannot be read here, or undefined when every data file is in DATA_DIR. */
export function realDataMissing(): string | undefined {
  const missing = DATA_FILES.filter((f) => !existsSync(join(DATA_DIR, f)));
  if (missing.length === 0) return undefined;
  return `${missing.join(' and ')} not found in ${DATA_DIR} (set POSTKIT_DATA_DIR to the folder of real posts; see the README)`;
}

/** Fixed seed of the author split: changing it is choosing a new held-out set. */
export const SPLIT_SEED = 'postkit-score-v2';

/** One author in three is held out, by a seeded hash of file and author: no choice looks at them. */
export function isHeldOut(file: string, author: string): boolean {
  return createHash('sha256').update(`${SPLIT_SEED}:${file}:${author}`).digest()[0]! % 3 === 0;
}

/** Export media labels to the API's media kinds; unlabelled rows stay unknown. */
const MEDIA: Record<string, MediaKind> = {
  'text-only': 'none',
  'text-only post': 'none',
  text: 'none',
  image: 'single-image',
  'meme with extended caption': 'single-image',
  'meme with minimal caption': 'single-image',
  linkedinvideo: 'video',
  video: 'video',
  article: 'link',
  document: 'document',
  poll: 'poll',
};

const int = (s: string | undefined) => {
  const n = Number.parseInt((s ?? '').replace(/,/g, ''), 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

export function readDataFile(file: string): DataPost[] {
  if (!existsSync(join(DATA_DIR, file)))
    throw new Error(
      `${file} not found in ${DATA_DIR}: set POSTKIT_DATA_DIR to the folder of real posts (see the README)`,
    );
  const [header, ...rows] = parseCsv(readFileSync(join(DATA_DIR, file), 'utf8'));
  if (!header) throw new Error(`${file} is empty`);
  const col = (...names: string[]) => {
    for (const n of names) if (header.includes(n)) return header.indexOf(n);
    return -1;
  };
  const [author, text, media, reactions, comments, reposts] = [
    col('author', 'name'),
    col('text', 'content'),
    col('media_type'),
    col('reactions'),
    col('comments'),
    col('reposts'),
  ];
  if (author < 0 || text < 0 || reactions < 0) throw new Error(`${file}: missing author, text or reactions`);
  // The 2025 file's media_type says post / article / repost: the kind of post, not its media.
  const mediaKnown = file === 'linkedin-creator-posts.csv';
  return rows
    .filter((r) => (r[text] ?? '').trim().length > 0 && (r[author] ?? '') !== '')
    .map((r) => {
      const engagement = int(r[reactions]) + int(r[comments]) + (reposts < 0 ? 0 : int(r[reposts]));
      const kind = mediaKnown ? MEDIA[(r[media] ?? '').trim().toLowerCase()] : undefined;
      return {
        file,
        author: r[author]!,
        text: r[text]!,
        ...(kind ? { media: kind } : {}),
        engagement,
        target: Math.log1p(engagement),
        heldOut: isHeldOut(file, r[author]!),
      };
    });
}

export const readAllData = (): DataPost[] => DATA_FILES.flatMap(readDataFile);

/** Posts grouped by author (within one file), keeping authors with at least `min` posts. */
export function byAuthor<T extends { file: string; author: string }>(rows: T[], min = 5): T[][] {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const key = `${r.file}\u0000${r.author}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()].filter((g) => g.length >= min);
}
