/**
 * A signal's label ("Post length", "AI-tells", "\"Not X but Y\" cadence") as it reads inside a
 * sentence: "fix first: post length". Only a first word in title case is lowered; an acronym
 * ("AI-tells"), a name with inner capitals and a quoted word stay as written, so a verdict never
 * says "ai-tells" or "\"not x but y\"".
 */
export function labelInSentence(label: string): string {
  const first = /^[^\s-]+/.exec(label)?.[0] ?? '';
  return /^\p{Lu}(?:\p{Ll}|$)/u.test(first) && !/\p{Ll}\p{Lu}/u.test(first)
    ? label[0]!.toLowerCase() + label.slice(1)
    : label;
}
