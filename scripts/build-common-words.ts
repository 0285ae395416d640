/**
 * Builds src/scoring/text/common-words.json: the words real posts write in lower case far more
 * often than with a capital mid-sentence, so a capital on one of them ("Key Takeaways", "Be
 * Honest:", "our Working Groups") is a heading's or an emphasis's, not a name (names.ts).
 *
 * Read from the training authors' posts only (never the held-out authors: the names feed a
 * learned feature that `npm run eval:scoring` judges on them). For each word, two counts of
 * posts: those that write it in lower case as a word of its own (outside links, hashtags and
 * handles), and those that capitalise it mid-sentence where names.ts looks for names
 * (text-scan.ts `capitalStarts`). A word is common when it is written in lower case in at
 * least MIN_LOWER posts and in at least LOWER_PER_CAPITAL times as many posts as it is
 * capitalised. A name is capitalised wherever it stands ("Stripe", "Priya", "Apple": their lower
 * case is rare), so it stays out of the table.
 *
 * wink-eng-lite-web-model's lexicon (shipped in npm) speaks for the words the posts seldom use:
 * a word they write in lower case in fewer than MIN_LOWER posts (or never, when its lemma is a
 * common word: "hierarchies") and never capitalise mid-sentence is common when wink knows it in
 * lower case with only a common word's parts of speech (no PROPN, not unknown). Capitals that end a line or come before a colon are not
 * counted: those are headings ("Key Takeaways:"), the very thing the table is for.
 *
 * Run: node scripts/build-common-words.ts (needs the data; nothing downloads at run time).
 */

import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { LINK, normalizePost } from '../src/scoring/text/text-features.ts';
import { capitalStarts } from '../src/scoring/text/text-scan.ts';
import { readAllData } from './lib/datasets.ts';

/** Posts that write a word in lower case before it can be a common word. */
export const MIN_LOWER = 3;
/** How many more posts must write it in lower case than capitalise it mid-sentence. */
export const LOWER_PER_CAPITAL = 2;

const OUT = join(import.meta.dirname, '../src/scoring/text/common-words.json');
const WORD = /[\p{L}\p{N}]+/gu;
const LOWER_START = /^\p{Ll}/u;
/** A run that is part of a hashtag, a handle, an address or a file name, not a word of prose. */
const GLUED_BEFORE = /[#@/._\\-]$/;

const posts = readAllData().filter((p) => !p.heldOut);
const lowerPosts = new Map<string, number>();
const bump = (m: Map<string, number>, w: string) => m.set(w, (m.get(w) ?? 0) + 1);
/** Per post, its capitals mid-sentence: the word, and the capitalised word just before it, if any. */
const capitals: { word: string; after: string | null }[][] = [];

for (const post of posts) {
  const text = normalizePost(post.text).replace(LINK, ' ');
  const lower = new Set<string>();
  for (const m of text.matchAll(WORD)) {
    if (!LOWER_START.test(m[0]) || GLUED_BEFORE.test(text.slice(Math.max(0, m.index - 1), m.index))) continue;
    lower.add(m[0].toLowerCase());
  }
  for (const w of lower) bump(lowerPosts, w);
  const found: { word: string; after: string | null }[] = [];
  for (const at of capitalStarts(text)) {
    WORD.lastIndex = at;
    const m = WORD.exec(text);
    if (m?.index !== at) continue;
    // A capital that ends a line or comes before a colon is a heading's ("Key Takeaways:").
    const next = text[at + m[0].length];
    if (next === undefined || next === '\n' || next === ':') continue;
    const before = /(?:^|[^\p{L}\p{N}])(\p{Lu}[\p{L}\p{N}]*) $/u.exec(text.slice(Math.max(0, at - 40), at));
    found.push({ word: m[0].toLowerCase(), after: before ? before[1]!.toLowerCase() : null });
  }
  capitals.push(found);
}

/** The words written in lower case in MIN_LOWER posts and LOWER_PER_CAPITAL times as many as capitalised. */
function commonBy(capitalPosts: Map<string, number>): Set<string> {
  const out = new Set<string>();
  for (const [w, n] of lowerPosts)
    if (!/\d/.test(w) && n >= MIN_LOWER && n >= LOWER_PER_CAPITAL * (capitalPosts.get(w) ?? 0)) out.add(w);
  return out;
}
/** Posts capitalising each word mid-sentence, less those where it follows a capitalised word of `title`. */
function capitalCounts(title: Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const found of capitals) {
    const words = new Set<string>();
    for (const { word, after } of found) if (after === null || !title.has(after)) words.add(word);
    for (const w of words) bump(counts, w);
  }
  return counts;
}
// Twice: a capital just after a capitalised common word is a title's ("Key Takeaways", "The
// Takeaways"), so the second count leaves out those the first table calls common.
const capitalPosts = capitalCounts(commonBy(capitalCounts(new Set())));
const common = commonBy(capitalPosts);

// wink's lexicon: the lexemes, their case and their parts of speech (its read-core-model.js layout).
const require = createRequire(import.meta.url);
const readModel = require('wink-eng-lite-web-model/dist/read-core-model.js') as () => WinkCore;
interface WinkCore {
  packing: { size: number; layout: Record<string, [number, number, number]> };
  lexicon: Uint32Array;
  features: { lexeme: { list: string[] }; posClusters: { list: Set<number>[] } };
  pos: { list: string[] };
}
const core = readModel();
const field = (i: number, name: string) => {
  const [word, mask, shift] = core.packing.layout[name]!;
  return (core.lexicon[i * core.packing.size + word]! & mask) >>> shift;
};
const COMMON_POS = new Set([
  'ADJ',
  'ADV',
  'VERB',
  'NOUN',
  'ADP',
  'AUX',
  'CCONJ',
  'SCONJ',
  'DET',
  'PRON',
  'PART',
  'INTJ',
  'NUM',
]);
const lexemeOf = (i: number) => core.features.lexeme.list[field(i, 'lemma')];
const commonLemma = (i: number) => {
  const lemma = lexemeOf(i);
  return lemma !== undefined && lemma !== core.features.lexeme.list[i] && corpusCommon.has(lemma);
};
const corpusCommon = new Set(common);
let fromWink = 0;
const lexemes = core.features.lexeme.list;
for (let i = 0; i < lexemes.length; i++) {
  const w = lexemes[i]!;
  // Only words the posts write in lower case, too seldom to decide on (a word they never write
  // is left out: the table stays small enough to load with the scorer).
  const lower = lowerPosts.get(w) ?? 0;
  if (common.has(w) || capitalPosts.has(w) || w.length < 3) continue;
  // A word they never write counts when its lemma is common ("hierarchies": "hierarchy").
  if (lower === 0 && !commonLemma(i)) continue;
  // lutCase 1: the lexicon holds the word in lower case.
  if (field(i, 'lutCase') !== 1) continue;
  const tags = [...(core.features.posClusters.list[field(i, 'lexemeCID')] ?? [])].map(
    (t) => core.pos.list[t]!,
  );
  if (tags.length === 0 || !tags.every((t) => COMMON_POS.has(t))) continue;
  if (!COMMON_POS.has(core.pos.list[field(i, 'pos')]!)) continue;
  common.add(w);
  fromWink++;
}

const words = [...common].sort();
writeFileSync(
  OUT,
  `${JSON.stringify({ minLower: MIN_LOWER, lowerPerCapital: LOWER_PER_CAPITAL, words }, null, 2)}\n`,
);
console.log(
  `${words.length} common words (${words.length - fromWink} from ${posts.length} training posts, ${fromWink} from wink's lexicon) -> ${OUT}`,
);
