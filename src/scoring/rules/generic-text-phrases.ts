import { AI_TELLS, ENGAGEMENT_BAIT, GENERIC_OPENERS } from '../text/lexicon.ts';
import { tokenize } from '../text/phrases.ts';
import { registerWord } from '../text/word-facts.ts';

/**
 * The phrases the generic-text rule points at (generic-text.ts), as patterns that give their
 * place in the text. The lexicon's lists are reused as they are (engagement bait, AI-tells and
 * generic openers: validate and the other rules read the same lists); what they lack is here:
 * bait that asks for a repost, a save or an emoji, and the stock lines of filler posts. Each is
 * a phrase in wide use, not one seen in any dataset.
 */

/** Asking for reactions as such, beyond the lexicon's ENGAGEMENT_BAIT. */
const MORE_BAIT: readonly string[] = [
  'repost to help',
  'repost this to',
  'repost for',
  'reshare if',
  'save this post',
  'save this for later',
  'bookmark this',
  'like and share',
  'like and comment',
  'comment below if',
  'follow me for',
];

/**
 * The announcement frame, "I'm thrilled to share", in its common words: one stock line whatever
 * the adjective, since "excited to share" says no more than "thrilled to share" did.
 */
const ANNOUNCING: readonly string[] = [
  'thrilled',
  'excited',
  'proud',
  'happy',
  'delighted',
  'pleased',
  'honored',
  'honoured',
  'humbled',
].flatMap((feeling) => ['share', 'announce', 'celebrate'].map((verb) => `${feeling} to ${verb}`));

/** Stock lines of filler posts: platitudes, announcement boilerplate, broetry's closers. */
const STOCK: readonly string[] = [
  ...ANNOUNCING,
  'next chapter',
  'what the future holds',
  'more to come',
  'just the beginning',
  'the journey continues',
  'not have been possible without',
  "wouldn't have been possible without",
  'incredible team',
  'amazing team',
  'so grateful',
  'if i can do it, so can you',
  'exciting times ahead',
  "let's delve",
  'let that sink in',
  'read that again',
  "here's the thing",
  'the best is yet to come',
  'onward and upward',
  'onwards and upwards',
  'stay tuned',
  'never give up',
  'never stop learning',
  'learning never stops',
  'simple as that',
  'your network is your net worth',
  'journey, not a destination',
  'mindset is everything',
  'consistency is key',
  'consistency is everything',
  'the rest will follow',
  'hard work pays off',
  'your future self will thank you',
  'believe in yourself',
  'comfort zone',
  'nobody is coming to save you',
  'done is better than perfect',
  'humbled and honored',
  'honored and humbled',
  'the only limit',
  'take the leap',
  'be the reason someone smiles',
  'kindness matters',
  'every. single. day',
  'simple but powerful',
  'the secret to success',
  'the secret of success',
  'grateful for this journey',
  'along this journey',
  'what an incredible journey',
  'add value',
  'show up every day',
];

export type GenericKind = 'bait' | 'stock';

/** A phrase's pattern and what it is; `text` patterns read the post as written, the rest its lower case. */
export interface GenericPattern {
  kind: GenericKind;
  source: string;
  onText?: boolean;
  /**
   * For a phrase's pattern that opens with a word boundary and then a letter or digit: that code
   * unit, and the pattern sticky. Every match starts at a run of letters and digits of the
   * lower-cased text (TextFeatures.runs: the code point before a match is no letter or digit) on
   * that unit, so it is tried only there (`matchesAtRuns`) instead of at every position.
   */
  opens?: { unit: number; sticky: RegExp };
}

const WORD_START = '(?<![\\p{L}\\p{N}])';

/** A phrase of the lists as a pattern over lower-cased text, tried at runs when it can be. */
function phrasePattern(kind: GenericKind, phrase: string): GenericPattern {
  const source = pattern(phrase);
  const unit = phrase.trim().charCodeAt(0);
  const alnum = (unit >= 97 && unit <= 122) || (unit >= 48 && unit <= 57);
  // The boundary, then the phrase's first character as itself (pattern() escapes only
  // punctuation, and a quantifier follows a first character only as the plural's "s?").
  if (!alnum || !source.startsWith(WORD_START) || source.charCodeAt(WORD_START.length) !== unit)
    return { kind, source };
  return { kind, source, opens: { unit, sticky: new RegExp(source, 'uy') } };
}

/**
 * The matches of `p` (which `opens`) in the lower-cased text `lower`, whose runs of letters and
 * digits are `runs` (starts and ends), as the global search finds them: in order, each from the
 * end of the last, tried at the runs that start on `p`'s first unit.
 */
export function matchesAtRuns(
  p: GenericPattern & { opens: { unit: number; sticky: RegExp } },
  lower: string,
  runs: readonly number[],
  found: (start: number, end: number) => void,
): void {
  const { unit, sticky } = p.opens;
  let from = 0;
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r]!;
    if (start < from || lower.charCodeAt(start) !== unit) continue;
    sticky.lastIndex = start;
    if (!sticky.test(lower)) continue;
    from = sticky.lastIndex;
    found(start, from);
  }
  sticky.lastIndex = 0;
}

/** One phrase as a pattern over lower-cased text: any apostrophe, any run of spaces, a plural last word. */
function pattern(phrase: string): string {
  const trimmed = phrase.trim();
  const body = trimmed
    .split(/\s+/)
    .map((w) =>
      w
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/'/g, "['’]")
        .replace(/"/g, '["“”]'),
    )
    .join('\\s+');
  // A word boundary only where the phrase starts or ends with a word character ("agree?" ends in "?").
  const start = /^[\p{L}\p{N}]/u.test(trimmed) ? '(?<![\\p{L}\\p{N}])' : '';
  const end = /[\p{L}\p{N}]$/u.test(trimmed) ? 's?(?![\\p{L}\\p{N}])' : '';
  return `${start}${body}${end}`;
}

/**
 * "Comment 'YES'": the lexicon's 'comment yes' reads words only, so a word in capitals, quoted
 * or not, after "comment" or "type" is matched here, on the text as written.
 */
const QUOTED_ANSWER: GenericPattern = {
  kind: 'bait',
  source:
    '(?<![\\p{L}\\p{N}])(?:[Cc]omment|COMMENT|[Tt]ype|TYPE)\\s+["“”\'‘’]?\\p{Lu}{2,}(?![\\p{L}\\p{N}])["“”\'‘’]?',
  onText: true,
};
/** "Agree?" on its own: a one-word question that asks only for a yes ("Do you agree?" is a question). */
const AGREE: GenericPattern = { kind: 'bait', source: '(?<![\\p{L}\\p{N}][ \\t]*)agree[ \\t]*\\?' };

/** "Drop a 🔥": a reaction asked for as an emoji ("drop a comment" is in the lexicon). */
const DROP_EMOJI: GenericPattern = {
  kind: 'bait',
  source: '(?<![\\p{L}\\p{N}])drop\\s+(?:a|an|your)\\s+(?:\\p{Extended_Pictographic}|heart|emoji)',
};

/**
 * A phrase under its longest word (the rarest, near enough: "the", "in" and "a" start many
 * phrases and most sentences), with the word ids of all its words, its last with an "s" too.
 */
interface Entry {
  pattern: GenericPattern;
  words: number[];
  /** Where the anchor stands among `words`. */
  at: number;
  plural: number;
}

const BY_ANCHOR = new Map<number, Entry[]>();

function add(words: string[], p: GenericPattern) {
  if (words.length === 0) return;
  const at = words.reduce((best, w, i) => (w.length > words[best]!.length ? i : best), 0);
  const ids = words.map((w) => registerWord(w).id);
  const anchor = ids[at]!;
  const list = BY_ANCHOR.get(anchor) ?? [];
  list.push({ pattern: p, words: ids, at, plural: registerWord(`${words.at(-1)}s`).id });
  BY_ANCHOR.set(anchor, list);
}

for (const [kind, phrases] of [
  ['bait', [...ENGAGEMENT_BAIT.filter((p) => p !== 'agree?'), ...MORE_BAIT]],
  ['stock', [...AI_TELLS, ...STOCK]],
] as const)
  for (const phrase of phrases) add(tokenize(phrase), phrasePattern(kind, phrase));
add(['agree'], AGREE);
add(['drop'], DROP_EMOJI);
add(['comment'], QUOTED_ANSWER);
add(['type'], QUOTED_ANSWER);

/** Every pattern of the phrase lists, for tests that read them all. */
export const allPhrasePatterns = (): GenericPattern[] => [
  ...new Set([...BY_ANCHOR.values()].flatMap((entries) => entries.map((e) => e.pattern))),
];

/** Anchor words by id, as a table: the check every post gets is one read per token. */
const ANCHORS = new Uint8Array(Math.max(...BY_ANCHOR.keys()) + 1);
for (const id of BY_ANCHOR.keys()) ANCHORS[id] = 1;

/**
 * The patterns whose words stand in a post's tokens in order (`ids`, the scan's word ids): the
 * only ones worth reading the text for. Tokens skip punctuation, so a candidate can still find
 * nothing in the text ("drop. Your"); only what a pattern finds is counted.
 */
export function candidatePatterns(ids: readonly number[]): GenericPattern[] {
  const out: GenericPattern[] = [];
  const n = ids.length;
  const size = ANCHORS.length;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (id < 0 || id >= size || ANCHORS[id] === 0) continue;
    for (const e of BY_ANCHOR.get(id)!) {
      const from = i - e.at;
      const words = e.words;
      const last = words.length - 1;
      let ok = from >= 0 && from + last < n;
      for (let j = 0; j <= last && ok; j++) {
        const t = ids[from + j];
        ok = t === words[j] || (j === last && t === e.plural);
      }
      if (ok && !out.includes(e.pattern)) out.push(e.pattern);
    }
  }
  return out;
}

/** Generic openers, which count only where the post starts (as hook.generic_opener reads them). */
export const GENERIC_OPENING = new RegExp(`^(?:${GENERIC_OPENERS.map(pattern).join('|')})`, 'iu');

/**
 * The compiled patterns by source, one map per flags: the source is the key as it is (a string
 * kept by its pattern, hashed once), where a key made by joining a flag to it was a new string
 * to hash, all of its length, on every call (1.5% of the scorer's time, 2026-12-03).
 */
const COMPILED = new Map<string, RegExp>();
const COMPILED_CASE_BLIND = new Map<string, RegExp>();
/** A pattern compiled once per flags: case-blind when it reads a text whose lower case is not in place. */
export function compiled(source: string, caseBlind: boolean): RegExp {
  const found = caseBlind ? COMPILED_CASE_BLIND.get(source) : COMPILED.get(source);
  if (found) return found;
  const re = new RegExp(source, caseBlind ? 'giu' : 'gu');
  // Each map written by its own name, so test/foundation/module-state.test.ts sees both.
  if (caseBlind) COMPILED_CASE_BLIND.set(source, re);
  else COMPILED.set(source, re);
  return re;
}
