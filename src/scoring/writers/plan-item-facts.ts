import { NUMBER, withoutNames } from '../text/numbers.ts';
import { tagText } from '../text/tagger.ts';
import { readBrief } from './brief-reading.ts';

/**
 * "Turn into drafts" (issue 34 item 3): the draft of a plan item is its hook followed by the
 * brief's facts for that item, never the whole brief. A fact is a content sentence of the brief
 * (brief-reading.ts: labels and instructions are no facts). Each fact goes to the item, or the
 * items, it shares most with: its numbers count most, then the content words (nouns, names,
 * verbs, adjectives, by wink-nlp's lemmas) of the item's pillar, hook and angle; a fact that
 * shares nothing with any item goes to none. So a fact about one item never reaches another
 * item's draft, and a brief of several facts is spread over the plan rather than pasted into
 * every draft.
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

/** A shared paragraph says as much as this many shared words: the brief wrote them together. */
const SAME_PARAGRAPH = 3;
/** Less than this is one word in common: too little to say a fact is about the item. */
const MIN_AFFINITY = 2;

/** The paragraph of the brief a sentence is in (-1 when it is found in none as written). */
const paragraphOf = (paragraphs: string[], sentence: string) =>
  paragraphs.findIndex((p) => p.includes(sentence));

/** The brief's facts of each item, by slot, in the brief's order (the hook's own sentence left out). */
export function factsByItem(brief: string, items: readonly DraftableItem[]): Map<number, string[]> {
  const paragraphs = brief.split(/\n\s*\n/);
  const sentences = readBrief(brief).sentences;
  const facts = sentences.map((text) => ({
    text,
    numbers: numbersOf(text),
    words: wordsOf(text),
    paragraph: paragraphOf(paragraphs, text),
  }));
  const keys = items.map((item): Key & { paragraph: number } => {
    const said = `${item.hook} ${item.angle}`;
    // A hook made of a brief sentence sits in that sentence's paragraph.
    const home = sentences.find((s) => same(s, item.hook) || same(item.hook, s));
    return {
      numbers: numbersOf(said),
      pillar: wordsOf(item.pillar),
      rest: wordsOf(said),
      paragraph: home === undefined ? -1 : paragraphOf(paragraphs, home),
    };
  });
  const out = new Map<number, { text: string; score: number; at: number }[]>(items.map((i) => [i.slot, []]));
  facts.forEach((fact, at) => {
    const scores = keys.map(
      (key) =>
        affinity(fact, key) +
        (paragraphs.length > 1 && key.paragraph >= 0 && key.paragraph === fact.paragraph
          ? SAME_PARAGRAPH
          : 0),
    );
    const best = Math.max(0, ...scores);
    if (best < MIN_AFFINITY) return;
    items.forEach((item, k) => {
      // A fact the hook already says is the hook, not a fact to add.
      if (scores[k] === best && !same(fact.text, item.hook) && !same(item.hook, fact.text))
        out.get(item.slot)!.push({ text: fact.text, score: best, at });
    });
  });
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
 * A draft per item: the hook, then its facts, one paragraph each; with `maxChars` (a platform
 * without threads) a fact that would take the draft past it is left out rather than cut.
 */
export function planItemDrafts(
  brief: string,
  items: readonly DraftableItem[],
  maxChars = Number.POSITIVE_INFINITY,
): Map<number, string> {
  const facts = factsByItem(brief, items);
  return new Map(
    items.map((item) => [
      item.slot,
      (facts.get(item.slot) ?? []).reduce(
        (draft, fact) => (draft.length + 2 + fact.length <= maxChars ? `${draft}\n\n${fact}` : draft),
        item.hook,
      ),
    ]),
  );
}
