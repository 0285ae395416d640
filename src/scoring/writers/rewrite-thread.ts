import { MAX_THREAD_PARTS, textLimitFor } from '../../platforms/profiles.ts';
import { paragraphsOf, splitSentences } from '../text/rewrite-sentences.ts';

/**
 * A post over a threaded platform's limit becomes a thread instead of losing what
 * does not fit: every word stays, in order, split where a reader expects a pause. A part is
 * whole paragraphs when they fit, else whole lines (a list keeps every item), else whole
 * sentences, and only a sentence longer than a part on its own is split between words. Each
 * part is counted the platform's way (where the profile says, a URL counts a fixed weight) and by plain length, since
 * the scorer counts characters.
 */

export interface Thread {
  /** Part 1 is the post; the rest are its replies, in order. */
  parts: string[];
  /** Parts past the platform's most (25): they did not fit even as a thread. */
  overflow: string[];
  /** A closing line of hashtags no part had room for, left out rather than sent as a reply alone. */
  droppedTags: string | null;
}

const TAGS_ONLY = /^(?:#[\p{L}\p{N}_]+\s*)+$/u;

/** Whether `text` fits one part of `platform`. */
export function fitsPart(platform: string, text: string, max: number): boolean {
  const limit = textLimitFor(platform, 'reply');
  return text.length <= max && (!limit || limit.length(text) <= limit.max);
}

/** Words of `text` in chunks that fit, for a sentence longer than a whole part. */
function wordChunks(text: string, fits: (s: string) => boolean): string[] {
  const out: string[] = [];
  let chunk = '';
  for (const word of text.split(/\s+/)) {
    const next = chunk ? `${chunk} ${word}` : word;
    if (fits(next) || !chunk) chunk = next;
    else {
      out.push(chunk);
      chunk = word;
    }
  }
  if (chunk) out.push(chunk);
  return out;
}

/** The pieces of a block at the finest level needed: the block, its lines, sentences, words. */
function piecesOf(block: string, fits: (s: string) => boolean): { text: string; sep: string }[] {
  if (fits(block)) return [{ text: block, sep: '\n\n' }];
  const lines = block
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.flatMap((line, i) => {
    const lineSep = i === 0 ? '\n\n' : '\n';
    if (fits(line)) return [{ text: line, sep: lineSep }];
    return splitSentences(line).flatMap((s, j) =>
      wordChunks(s, fits).map((c, k) => ({ text: c, sep: j === 0 && k === 0 ? lineSep : ' ' })),
    );
  });
}

/** Splits `text` into parts of at most `max` characters for `platform`, losing no word. */
export function splitThread(platform: string, text: string, max: number): Thread {
  const fits = (s: string) => fitsPart(platform, s, max);
  const parts: string[] = [];
  let current = '';
  const paragraphs = paragraphsOf(text);
  // A closing line of hashtags is no reply of its own: it closes the last part that has room.
  const tags = paragraphs.length > 1 && TAGS_ONLY.test(paragraphs.at(-1)!) ? paragraphs.pop()! : null;
  for (const paragraph of paragraphs) {
    // A paragraph that fits a part of its own starts one rather than straddling two.
    if (current && !fits(`${current}\n\n${paragraph}`) && fits(paragraph)) {
      parts.push(current);
      current = '';
    }
    for (const { text: piece, sep } of piecesOf(paragraph, fits)) {
      const joined = current ? `${current}${sep}${piece}` : piece;
      if (fits(joined)) current = joined;
      else {
        if (current) parts.push(current);
        current = piece;
      }
    }
  }
  if (current) parts.push(current);
  const at = tags ? [parts.length - 1, 0].find((i) => i >= 0 && fits(`${parts[i]}\n\n${tags}`)) : undefined;
  if (tags && at !== undefined) parts[at] = `${parts[at]}\n\n${tags}`;
  const unique = dedupe(parts, fits);
  return {
    parts: unique.slice(0, MAX_THREAD_PARTS + 1),
    overflow: unique.slice(MAX_THREAD_PARTS + 1),
    droppedTags: tags && at === undefined ? tags : null,
  };
}

/**
 * The platform refuses a thread with two identical parts: a repeat joins the part before it when
 * the two fit together (a repeat that cannot is left for validation to name).
 */
function dedupe(parts: string[], fits: (s: string) => boolean): string[] {
  const out: string[] = [];
  for (const part of parts) {
    const seen = out.some((p) => p.trim() === part.trim());
    const joined = out.length ? `${out.at(-1)}\n\n${part}` : part;
    if (seen && fits(joined)) out[out.length - 1] = joined;
    else out.push(part);
  }
  return out;
}

/**
 * A draft written as one point per paragraph (generate on a platform with threads) as a thread
 * of one part per paragraph, when every paragraph fits a part and the thread is within the
 * platform's most; else splitThread's packing. A closing line of hashtags joins the last part.
 */
export function threadOfParagraphs(platform: string, text: string, max: number): string[] {
  const fits = (s: string) => fitsPart(platform, s, max);
  const paragraphs = paragraphsOf(text);
  const tags = paragraphs.length > 1 && TAGS_ONLY.test(paragraphs.at(-1)!) ? paragraphs.pop()! : null;
  if (paragraphs.length > MAX_THREAD_PARTS + 1 || !paragraphs.every(fits))
    return splitThread(platform, text, max).parts;
  if (tags && fits(`${paragraphs.at(-1)}\n\n${tags}`)) paragraphs[paragraphs.length - 1] += `\n\n${tags}`;
  return dedupe(paragraphs, fits);
}
