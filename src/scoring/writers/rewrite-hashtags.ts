/**
 * Hashtags past the platform's cap. A tag is either a word of its sentence ("We build #AI tools
 * for clinics", "I work in #fintech") or appended to it ("... most excited about? #digitalhealth
 * #future"). A word of a sentence keeps its word and loses only the "#" (dropping it would break
 * the sentence); an appended tag goes from the text whole, never left behind as a bare word run
 * into the sentence, and the first few appended tags return on a closing line, under the cap.
 */

const TAG_RUN = /#[\p{L}\p{N}_]+(?:[ \t]*#[\p{L}\p{N}_]+)*/gu;
const TAG = /#[\p{L}\p{N}_]+/gu;
/** Words after which a tag must be the sentence's own word ("in #AI", "the #future of"). */
const NEEDS_OBJECT =
  /\b(?:a|an|the|of|in|on|at|to|for|with|from|by|about|into|and|or|our|my|your|their|his|her|its|this|that|is|are|was|were|be|love|use|using|build|building)$/i;
/** Only punctuation, emoji or white space up to the end of the line. */
const NOTHING_AFTER = /^(?:[\s\p{P}\p{S}\p{Extended_Pictographic}]|\uFE0F|\u200D)*$/u;
const SENTENCE_END = /(?:[.!?…:)"”'’]|\p{Extended_Pictographic}\uFE0F?)$/u;

export interface TrimmedTags {
  text: string;
  /** Appended tags, in order, that left the text. */
  removed: string[];
  /** Tags kept in their sentence as words. */
  worded: number;
}

/** One line: appended runs go (their tags collected), tags inside a sentence become words. */
function trimLine(line: string, removed: string[]): { line: string; worded: number } {
  let worded = 0;
  const out = line.replace(TAG_RUN, (run: string, offset: number) => {
    const before = line.slice(0, offset).trimEnd();
    const after = line.slice(offset + run.length);
    const tags = run.match(TAG) ?? [];
    const ends = NOTHING_AFTER.test(after);
    const startsSentence = before === '' || SENTENCE_END.test(before);
    const nextSentence = /^\s*\p{Lu}/u.test(after) && startsSentence;
    // "I work in #AI #ML": the first tag completes the sentence, the rest is appended.
    const inside = !startsSentence && (!ends || NEEDS_OBJECT.test(before));
    if (!inside && (ends || nextSentence)) {
      removed.push(...tags);
      return '';
    }
    if (inside && ends && tags.length > 1) {
      removed.push(...tags.slice(1));
      worded++;
      return tags[0]!.slice(1);
    }
    worded += tags.length;
    return run.replace(/#(?=[\p{L}\p{N}_])/gu, '');
  });
  if (out === line) return { line, worded };
  const tidy = out
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trimEnd();
  return { line: tidy, worded };
}

/** Trims the tags of `text` so that at most `keep` remain, all on a closing line. */
export function trimTags(text: string, keep: number): TrimmedTags {
  const removed: string[] = [];
  let worded = 0;
  const lines = text.split('\n').map((l) => {
    if (!l.includes('#')) return l;
    const r = trimLine(l, removed);
    worded += r.worded;
    // A line left with no word (the tags were all it held) goes.
    return /[\p{L}\p{N}]/u.test(r.line) ? r.line : '\u0000';
  });
  const body = lines
    .filter((l) => l !== '\u0000')
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const closing = [...new Set(removed)].slice(0, keep);
  return { text: closing.length ? `${body}\n\n${closing.join(' ')}` : body, removed, worded };
}
