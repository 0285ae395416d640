/**
 * Match counts of text-features.ts's patterns, tried only where a match can start. A global
 * regex tries every position of the text; the hashtag and mention patterns open with a
 * lookbehind over Unicode classes, so every position cost a class test (callgrind,
 * 2026-11-27). The counts equal `countMatches` with the global pattern: a match can begin only
 * at the positions tried, each is tried with the same pattern (sticky, so it matches there or
 * not at all) in increasing order from the end of the previous match, as the global search
 * does.
 */

/** Sticky copy of a global pattern, for `countFrom`. */
export const sticky = (re: RegExp): RegExp => new RegExp(re.source, re.flags.replace('g', '') + 'y');

/**
 * Non-overlapping matches of `re` (sticky, from `sticky`) in `text`, for a pattern whose every
 * match starts with the character `first`.
 */
export function countFrom(re: RegExp, text: string, first: string): number {
  let n = 0;
  let i = text.indexOf(first);
  while (i !== -1) {
    re.lastIndex = i;
    if (re.exec(text) !== null) {
      n++;
      i = text.indexOf(first, re.lastIndex);
    } else i = text.indexOf(first, i + 1);
  }
  return n;
}

/**
 * Non-overlapping matches of `re` (sticky) in `text` for a pattern whose every match contains
 * `word` (lower case) at one of `offsets` (ascending, from the match's start), case aside:
 * `lower` is `text.toLowerCase()` with every character in place, so `word` is found in it at
 * the text's own positions.
 */
export function countAround(
  re: RegExp,
  text: string,
  lower: string,
  word: string,
  offsets: readonly number[],
): number {
  // Every start a match can have, in increasing order (another occurrence's starts can fall
  // before this one's).
  const starts: number[] = [];
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1))
    for (const offset of offsets) if (at >= offset) starts.push(at - offset);
  if (starts.length === 0) return 0;
  starts.sort((a, b) => a - b);
  let n = 0;
  let from = 0;
  for (const start of starts) {
    if (start < from) continue;
    re.lastIndex = start;
    if (re.exec(text) !== null) {
      n++;
      from = re.lastIndex;
    }
  }
  return n;
}

/**
 * Non-overlapping matches of `re` (sticky, multiline) in `text` for a pattern whose every match
 * starts at the start of a line (`^` under the `m` flag).
 */
export function countAtLineStarts(re: RegExp, text: string, global: RegExp): number {
  // Other line terminators also start a line under `m`; such text takes the global pattern.
  if (text.includes('\r') || text.includes('\u2028') || text.includes('\u2029')) {
    global.lastIndex = 0;
    let n = 0;
    while (global.exec(text) !== null) n++;
    global.lastIndex = 0;
    return n;
  }
  let n = 0;
  let from = 0;
  for (let start = 0; start !== -1; ) {
    if (start >= from) {
      re.lastIndex = start;
      if (re.exec(text) !== null) {
        n++;
        from = re.lastIndex;
      }
    }
    const newline = text.indexOf('\n', start);
    start = newline === -1 ? -1 : newline + 1;
  }
  return n;
}
