/** Labels already put in a sentence: the same few dozen labels are worded for every score. */
const IN_SENTENCE = new Map<string, string>();
/** A bound, in case labels are ever made from input: the map starts over past it. */
const MAX_KEPT = 512;

/**
 * A signal's label ("Post length", "AI-tells", "\"Not X but Y\" cadence") as it reads inside a
 * sentence: "fix first: post length". Only a first word in title case is lowered; an acronym
 * ("AI-tells"), a name with inner capitals and a quoted word stay as written, so a verdict never
 * says "ai-tells" or "\"not x but y\"". Remembered by label (its two Unicode-class patterns were
 * 0.4% of the scorer's time, 2026-11-29).
 */
export function labelInSentence(label: string): string {
  let out = IN_SENTENCE.get(label);
  if (out === undefined) {
    out = lowerTitleCase(label);
    if (IN_SENTENCE.size >= MAX_KEPT) IN_SENTENCE.clear();
    IN_SENTENCE.set(label, out);
  }
  return out;
}

function lowerTitleCase(label: string): string {
  const first = /^[^\s-]+/.exec(label)?.[0] ?? '';
  return /^\p{Lu}(?:\p{Ll}|$)/u.test(first) && !/\p{Ll}\p{Lu}/u.test(first)
    ? label[0]!.toLowerCase() + label.slice(1)
    : label;
}
