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
  return countFromSplit(re, text, first, 0).all;
}

/**
 * Non-overlapping matches of `re` (sticky) in `text` for a pattern whose every match contains
 * `word` (lower case) at one of `offsets` (from the match's start) and starts with one of the
 * characters of `opens` (lower case), case aside: `lower` is `text.toLowerCase()` with every
 * character in place, so `word` is found in it at the text's own positions. `opens` spares
 * trying the pattern where no match can start (most offsets of most occurrences).
 */
export function countAround(
  re: RegExp,
  text: string,
  lower: string,
  word: string,
  offsets: readonly number[],
  opens: string,
): number {
  const starts: number[] = [];
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1))
    for (const offset of offsets)
      if (at >= offset && opens.includes(lower[at - offset]!)) starts.push(at - offset);
  return countAtStarts(re, text, starts);
}

/**
 * `countFrom`, and how many of those matches start before `end`: the matches of `text.slice(0,
 * end)` when no match can run across `end` (its character is one no match holds), as the text
 * without its closing hashtags ends (text-features.ts): one search instead of two.
 */
export function countFromSplit(
  re: RegExp,
  text: string,
  first: string,
  end: number,
): { all: number; before: number } {
  let all = 0;
  let before = 0;
  let i = text.indexOf(first);
  while (i !== -1) {
    re.lastIndex = i;
    if (re.test(text)) {
      all++;
      if (i < end) before++;
      i = text.indexOf(first, re.lastIndex);
    } else i = text.indexOf(first, i + 1);
  }
  return { all, before };
}

/**
 * Non-overlapping matches of `re` (sticky) in `text` when `starts` holds every position a match
 * can start at (in any order, repeats allowed; it is sorted in place).
 */
export function countAtStarts(re: RegExp, text: string, starts: number[]): number {
  if (starts.length === 0) return 0;
  if (starts.length > 1) starts.sort((a, b) => a - b);
  let n = 0;
  let from = 0;
  for (const start of starts) {
    if (start < from) continue;
    re.lastIndex = start;
    if (re.test(text)) {
      n++;
      from = re.lastIndex;
    }
  }
  return n;
}

/**
 * Every position a match of text-features.ts's LINK pattern can start at, or undefined when
 * lower-casing moved characters (the caller then runs the global pattern). Each of its forms
 * holds a "/" at a fixed distance from its start ("http://" 5, "https://" 6, "t.co/" 4,
 * "bit.ly/" 6, "lnkd.in/" and "buff.ly/" 7) but "www.", found in `lower` (`text.toLowerCase()`:
 * under the pattern's `i` flag, without `u`, only "W" and "w" match "w"). The global pattern
 * tried every position of the text (2% of the scorer's time in a CPU profile, 2026-11-29).
 */
export function linkStarts(text: string, lower: string): number[] | undefined {
  if (lower.length !== text.length) return undefined;
  const starts: number[] = [];
  for (let at = text.indexOf('/'); at !== -1; at = text.indexOf('/', at + 1)) {
    if (at >= 1 && text.charCodeAt(at - 1) === 58) {
      if (at >= 5) starts.push(at - 5);
      if (at >= 6) starts.push(at - 6);
    }
    if (at >= 4) starts.push(at - 4);
    if (at >= 6) starts.push(at - 6);
    if (at >= 7) starts.push(at - 7);
  }
  for (let at = lower.indexOf('www.'); at !== -1; at = lower.indexOf('www.', at + 1)) starts.push(at);
  return starts;
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
      if (re.test(text)) {
        n++;
        from = re.lastIndex;
      }
    }
    const newline = text.indexOf('\n', start);
    start = newline === -1 ? -1 : newline + 1;
  }
  return n;
}
