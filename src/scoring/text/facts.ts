import { LINK, MENTION } from './text-features.ts';

/**
 * The "never invent facts" check. A fact token is a number, a link, an @mention or a name
 * (a capitalised word or acronym that does not open a sentence). A rewrite may drop or
 * reorder them but must not introduce one the source lacks; generate checks numbers and
 * links against the brief and context the same way.
 */

export interface FactCheckOptions {
  /** Also treat capitalised words (names, products, places) as facts; rewrite does, generate does not. */
  names: boolean;
}

const NUMBER = /\d+(?:[.,]\d+)*/g;
/** Mid-sentence capitalised words: the space before them follows a word, not a sentence end. */
const CAPITALISED = /(?<=[\p{L}\p{N},;)"'’] )\p{Lu}[\p{L}\p{N}'’&.-]*[\p{L}\p{N}]/gu;
/** Capitalised words that are grammar, not facts. */
const COMMON = new Set(
  'I Im Ive Id Ill The A An And But Or So If When Then This That These Those It Its We You They He She My Our Your Their Here There What Why How Who Which Not No Yes Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(
    ' ',
  ),
);

const normaliseNumber = (n: string) => n.replace(/,/g, '').replace(/\.0+$/, '');

function numbers(text: string): Set<string> {
  return new Set((text.match(NUMBER) ?? []).map(normaliseNumber));
}

function links(text: string): Set<string> {
  return new Set((text.match(LINK) ?? []).map((l) => l.toLowerCase().replace(/[.,;:!?]+$/, '')));
}

function mentions(text: string): Set<string> {
  return new Set((text.match(MENTION) ?? []).map((m) => m.toLowerCase()));
}

/** Every word of the source, lower-cased, so a name the source wrote in lower case still counts. */
function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’&.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? []);
}

function names(text: string): string[] {
  return (text.match(CAPITALISED) ?? []).filter((w) => !COMMON.has(w.replace(/['’]/g, '')));
}

/**
 * Fact tokens in `candidateText` that `sourceText` does not contain; empty means nothing
 * invented. Numbers are compared digit-for-digit ("10,000" equals "10000").
 */
export function inventedFacts(
  sourceText: string,
  candidateText: string,
  options: FactCheckOptions = { names: true },
): string[] {
  // Compared in compatibility form: "𝗞𝗻𝗼𝘄𝗹𝗲𝗱𝗴𝗲" written in plain letters is the same word, not a new name.
  const source = sourceText.normalize('NFKC');
  const candidate = candidateText.normalize('NFKC');
  const out: string[] = [];
  const srcNumbers = numbers(source);
  for (const n of numbers(candidate)) if (!srcNumbers.has(n)) out.push(n);
  const srcLinks = links(source);
  for (const l of links(candidate)) if (!srcLinks.has(l)) out.push(l);
  const srcMentions = mentions(source);
  for (const m of mentions(candidate)) if (!srcMentions.has(m)) out.push(m);
  if (options.names) {
    const srcWords = words(source);
    for (const name of names(candidate)) {
      if (!srcWords.has(name.toLowerCase()) && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

const wordsOf = (text: string) =>
  text
    .replace(LINK, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu) ?? [];

/** The share of `source`'s words (counted with repeats) that `candidate` still has: 1 keeps them all. */
export function wordsKept(source: string, candidate: string): number {
  const left = new Map<string, number>();
  for (const w of wordsOf(candidate)) left.set(w, (left.get(w) ?? 0) + 1);
  const all = wordsOf(source);
  let kept = 0;
  for (const w of all) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      kept++;
      left.set(w, n - 1);
    }
  }
  return all.length ? kept / all.length : 1;
}

/** Links of `source` that `candidate` no longer has anywhere. */
export function linksLost(source: string, candidate: string): string[] {
  const have = links(candidate);
  return [...links(source)].filter((l) => !have.has(l));
}
