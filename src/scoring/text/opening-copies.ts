/**
 * The opening written again: copies of the post's first sentence, or of its start where the
 * text runs on with no sentence end ("Finally, someone wrote it down: Finally, someone wrote it
 * down: ..."), which the sentence scan (text-scan.ts `sentenceStats`) reads as one sentence and
 * so finds nothing repeated in.
 */

/** A stretch shorter than this repeats by chance ("I think", "The"). */
const MIN_COPY = 20;

/**
 * The stretch at the start of `text` that is written again, or '' when none: the opening
 * sentence `hook` when it recurs, else the text up to where its first MIN_COPY characters
 * recur inside the opening (a run-on opening holds its own copies).
 */
export function repeatedOpening(text: string, hook: string): string {
  if (hook.length < MIN_COPY) return '';
  if (text.indexOf(hook, hook.length) !== -1) return hook;
  const next = text.indexOf(text.slice(0, MIN_COPY), 1);
  if (next === -1 || next >= hook.length) return '';
  const copy = text.slice(0, next).trim();
  return copy.length >= MIN_COPY ? copy : '';
}

/** Where each copy of `copy` after the first starts, in order (none when it is ''). */
export function copiesAfterFirst(text: string, copy: string): number[] {
  const out: number[] = [];
  if (!copy) return out;
  const first = text.indexOf(copy);
  for (let i = text.indexOf(copy, first + copy.length); i !== -1; i = text.indexOf(copy, i + copy.length))
    out.push(i);
  return out;
}

/** Share of the text taken by copies of its opening after the first. */
export function openingRepeats(text: string, hook: string): number {
  const copy = repeatedOpening(text, hook);
  return copy ? (copiesAfterFirst(text, copy).length * copy.length) / text.length : 0;
}
