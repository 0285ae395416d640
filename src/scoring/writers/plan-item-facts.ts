import { NUMBER, withoutNames } from '../text/numbers.ts';
import { tagText } from '../text/tagger.ts';
import { readBrief } from './brief-reading.ts';
import { USE_FIGURES } from './plan-hooks.ts';
import { CADENCE_PREFIX } from './plan-offline.ts';

/**
 * "Turn into drafts" (issue 34 item 3): the draft of a plan item is its hook, its angle as a
 * marked blank (what to write there, for the writer to replace) and the brief's facts for that
 * item, never the whole brief. A fact is a content sentence of the brief (brief-reading.ts:
 * labels and instructions are no facts). Each fact goes to the one item it shares most with: its
 * numbers count most, then the content words (nouns, names, verbs, adjectives, by wink-nlp's
 * lemmas) of the item's pillar and hook, then the brief's own layout (the hook's paragraph, the
 * sentence right after the hook's). The angle's and a blank's words are Postkit's template
 * ("a result, with its number", "one example a reader can check"), not the brief's: they pick
 * nothing. A fact that shares too little with every item goes to none, so an item that matched
 * nothing keeps its blank and no stray sentence; two items tied for a fact do not both say it
 * (the one with fewer facts so far takes it, then the earlier slot), except the brief's only
 * fact; a sentence that is an item's hook is said by that item only.
 */

export interface DraftableItem {
  slot: number;
  pillar: string;
  hook: string;
  angle: string;
}

/** Facts a draft holds at most besides its hook: a post, not the brief again. */
export const MAX_FACTS = 3;
const KEEP_POS = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ']);

const numbersOf = (text: string) =>
  new Set([...withoutNames(text).matchAll(NUMBER)].map((m) => m[0].toLowerCase()));

/** The tagger leaves a name's plural as written ("Handovers" at the start of a sentence). */
const singular = (w: string) => (w.length > 4 && /[^s]s$/.test(w) ? w.slice(0, -1) : w);

/** Content words as lemmas ("handovers" and "handover" are one word). */
function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of tagText(text))
    if (KEEP_POS.has(t.pos) && !t.stop && /\p{L}{3,}/u.test(t.normal))
      out.add(singular(t.lemma.toLowerCase()));
  return out;
}

const shared = (a: Set<string>, b: Set<string>) => {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
};

/** Same sentence, give or take case, spacing and the closing mark. */
const same = (a: string, b: string) => {
  const key = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return key(a) === key(b) || key(b).includes(key(a));
};

/** How much a fact shares with an item: a shared number outweighs any number of words. */
function affinity(fact: { numbers: Set<string>; words: Set<string> }, item: Key): number {
  return (
    100 * shared(fact.numbers, item.numbers) +
    2 * shared(fact.words, item.pillar) +
    shared(fact.words, item.rest)
  );
}

interface Key {
  numbers: Set<string>;
  pillar: Set<string>;
  rest: Set<string>;
}

/** A marked blank ("[a result, with its number]") is Postkit's wording, not the brief's. */
const withoutBlanks = (text: string) => text.replace(/\[[^\]]*\]/g, ' ');

/** A shared paragraph says as much as this many shared words: the brief wrote them together. */
const SAME_PARAGRAPH = 3;
/** The sentence after the hook's own goes on with it: as much as one shared pillar word. */
const NEXT_SENTENCE = 2;
/** Less than this is one word in common: too little to say a fact is about the item. */
const MIN_AFFINITY = 2;

/** The paragraph of the brief a sentence is in (-1 when it is found in none as written). */
const paragraphOf = (paragraphs: string[], sentence: string) =>
  paragraphs.findIndex((p) => p.includes(sentence));

/** The brief's facts of each item, by slot, in the brief's order (no item's hook among them). */
export function factsByItem(brief: string, items: readonly DraftableItem[]): Map<number, string[]> {
  const paragraphs = brief.split(/\n\s*\n/);
  const sentences = readBrief(brief).sentences;
  // A hook made of a brief sentence (or of a clause of one) comes from that sentence.
  const isHook = (s: string, item: DraftableItem) => same(s, item.hook) || same(item.hook, s);
  // A hook with a blank is a pillar's headline: no sentence of the brief is its home.
  const homes = items.map((item) =>
    item.hook.includes('[') ? -1 : sentences.findIndex((s) => isHook(s, item)),
  );
  const facts = sentences
    .map((text, at) => ({
      text,
      at,
      numbers: numbersOf(text),
      words: wordsOf(text),
      paragraph: paragraphOf(paragraphs, text),
    }))
    // A hook's own sentence is that item's opening line: said again in a draft, it would repeat.
    .filter((f) => !items.some((item) => isHook(f.text, item)))
    // A line that introduces a list ("Highlights:") says nothing without the list.
    .filter((f) => !/:$/.test(f.text));
  const keys = items.map((item, k): Key & { paragraph: number; home: number } => {
    const hook = withoutBlanks(item.hook);
    return {
      // The angle's figures are the brief's; its words are the template's.
      numbers: new Set([...numbersOf(hook), ...numbersOf(withoutBlanks(item.angle))]),
      pillar: wordsOf(item.pillar),
      rest: wordsOf(hook),
      paragraph: homes[k]! < 0 ? -1 : paragraphOf(paragraphs, sentences[homes[k]!]!),
      home: homes[k]!,
    };
  });
  const out = new Map<number, { text: string; score: number; at: number }[]>(items.map((i) => [i.slot, []]));
  for (const fact of facts) {
    const scores = keys.map(
      (key) =>
        affinity(fact, key) +
        (paragraphs.length > 1 && key.paragraph >= 0 && key.paragraph === fact.paragraph
          ? SAME_PARAGRAPH
          : 0) +
        (key.home >= 0 && fact.at === key.home + 1 && key.paragraph === fact.paragraph ? NEXT_SENTENCE : 0),
    );
    const best = Math.max(0, ...scores);
    if (best < MIN_AFFINITY) continue;
    const tied = items.filter((_, k) => scores[k] === best);
    // The brief's only fact may open every draft it fits; any other is said once in the plan.
    const takers =
      facts.length === 1
        ? tied
        : [tied.reduce((a, b) => (out.get(b.slot)!.length < out.get(a.slot)!.length ? b : a))];
    for (const item of takers) out.get(item.slot)!.push({ text: fact.text, score: best, at: fact.at });
  }
  return new Map(
    [...out].map(([slot, found]) => [
      slot,
      found
        .sort((a, b) => b.score - a.score || a.at - b.at)
        .slice(0, MAX_FACTS)
        .sort((a, b) => a.at - b.at)
        .map((f) => f.text),
    ]),
  );
}

/**
 * The angle as the draft's marked blank: what to write under the hook, for the writer to
 * replace, without the cadence day a plan puts before it (the schedule is the post's own).
 */
export function angleBlank(angle: string, draft: readonly string[] = []): string | null {
  let said = angle.replace(CADENCE_PREFIX, '').trim();
  // Asking for figures the draft's hook and facts already hold says them twice.
  const at = said.indexOf(USE_FIGURES);
  if (at >= 0) {
    const held = numbersOf(draft.join(' '));
    const asked = numbersOf(said.slice(at));
    if ([...asked].every((n) => held.has(n))) said = said.slice(0, at).trim();
  }
  return said ? `[${said}]` : null;
}

/**
 * A draft per item: the hook, the angle's blank, then its facts, one paragraph each. With
 * `maxChars` (a platform without threads) what would take the draft past it is left out rather
 * than cut: the blank first, then each fact that does not fit.
 */
export function planItemDrafts(
  brief: string,
  items: readonly DraftableItem[],
  maxChars = Number.POSITIVE_INFINITY,
): Map<number, string> {
  const facts = factsByItem(brief, items);
  const fits = (draft: string, more: string) => draft.length + 2 + more.length <= maxChars;
  return new Map(
    items.map((item) => {
      const own = facts.get(item.slot) ?? [];
      const blank = angleBlank(item.angle, [item.hook, ...own]);
      const opening = blank && fits(item.hook, blank) ? `${item.hook}\n\n${blank}` : item.hook;
      return [
        item.slot,
        own.reduce((draft, fact) => (fits(draft, fact) ? `${draft}\n\n${fact}` : draft), opening),
      ];
    }),
  );
}
