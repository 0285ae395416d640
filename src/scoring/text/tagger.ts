import { createRequire } from 'node:module';
import type { ItemEntity, ItemSentence, ItsFunction, Model, PartOfSpeech, WinkMethods } from 'wink-nlp';

/**
 * Part-of-speech tags for offline plan and generate, from wink-nlp and its English model
 * (wink-eng-lite-web-model, shipped in npm: nothing is fetched at run time).
 *
 * The model costs ~45 MB of resident memory, so it is loaded on the first call that needs
 * tags, never at start-up, and never by the scorer (its hot path stays free of it), and it is
 * dropped once no call has needed it for IDLE_MS, so a service that planned once does not
 * carry it for ever. The next call loads it again (~150 ms).
 */

const IDLE_MS = 60_000;
/** wink's pipe, less what themes do not read (negation, sentiment, custom entities). */
const PIPE = ['sbd', 'pos', 'ner'];
/** Entities that are quantities or times, never a theme: "three months", "40%", "next week". */
const QUANTITY = new Set(['DATE', 'TIME', 'DURATION', 'PERCENT', 'MONEY', 'CARDINAL']);

export interface Tagged {
  /** As written. */
  value: string;
  /** Lower-cased. */
  normal: string;
  /** Universal POS tag (NOUN, PROPN, VERB, ADJ, DET, PRON, PART, X, ...). */
  pos: PartOfSpeech;
  lemma: string;
  /** False when the token is glued to the one before ("12-person", "Maria's"). */
  spaced: boolean;
  /** A wink stop word ("more", "other", "some"). */
  stop: boolean;
  /** Part of a quantity or time entity ("40%", "three months"). */
  quantity: boolean;
  /** The wink entity the token is part of ("PERCENT", "DURATION", "ORDINAL", ...), if any. */
  entity: string | null;
  /** Index of its sentence. */
  sentence: number;
}

let nlp: WinkMethods | null = null;
/**
 * The first id wink gives a word its lexicon does not hold: it numbers such words after the
 * lexicon's own as it meets them, so a word with a smaller id is one wink knows. Read from a
 * word no lexicon holds, first thing after each load.
 */
let firstUnknownId = 0;
let lastUse = 0;
let releaseTimer: NodeJS.Timeout | null = null;
/** The last text tagged: a plan reads the same brief several times. */
let last: { text: string; tokens: Tagged[] } | null = null;

/** True while the model is in memory (tests and the memory bench read it). */
export const taggerLoaded = (): boolean => nlp !== null;

/** Whether wink's English lexicon holds `word` as written (a cut "sm" it does not, "small" it does). */
export function winkKnows(word: string): boolean {
  nlp ??= load();
  lastUse = Date.now();
  scheduleRelease();
  const ids = nlp.readDoc(word).tokens().out(nlp.its.uniqueId) as number[];
  return ids.length === 1 && ids[0]! < firstUnknownId;
}

function load(): WinkMethods {
  // A fresh require each time: the modules are taken out of the cache below, so a release
  // frees the model and a later load reads it again.
  const require = createRequire(import.meta.url);
  const model = require('wink-eng-lite-web-model') as Model;
  // wink reads the core model once, as a copy of the JSON the package required; handing it a
  // one-shot reader lets that JSON be collected rather than kept beside the copy (~9 MB).
  let readCore: (() => unknown) | null = model.core as () => unknown;
  const once = {
    ...model,
    core: () => {
      if (!readCore) throw new Error('wink read its core model twice');
      const core = readCore();
      readCore = null;
      return core;
    },
  } as Model;
  const made = (require('wink-nlp') as (m: Model, pipe: string[]) => WinkMethods)(once, PIPE);
  for (const path of Object.keys(require.cache))
    if (/[\\/]node_modules[\\/]wink-(?:nlp|eng-lite-web-model)[\\/]/.test(path)) delete require.cache[path];
  firstUnknownId = made.readDoc('qxzvqj').tokens().out(made.its.uniqueId)[0] as number;
  return made;
}

/** Drops the model once it has been idle IDLE_MS; the timer never keeps the process alive. */
function scheduleRelease() {
  if (releaseTimer) return;
  const wait = Math.max(0, lastUse + IDLE_MS - Date.now());
  releaseTimer = setTimeout(() => {
    releaseTimer = null;
    if (Date.now() - lastUse < IDLE_MS) return scheduleRelease();
    nlp = null;
    last = null;
  }, wait);
  releaseTimer.unref?.();
}

/** The tagged tokens of a text, in order (fresh objects: callers may change them). */
export function tagText(text: string): Tagged[] {
  nlp ??= load();
  lastUse = Date.now();
  scheduleRelease();
  if (last?.text !== text) last = { text, tokens: tag(nlp, text) };
  return last.tokens.map((t) => ({ ...t }));
}

/**
 * How wink reads a word written in lower case: its part of speech and lemma. A word that opens a
 * sentence is tagged a name for its capital alone ("Nurses are tired"); in lower case wink says
 * whether it knows it as an inflected common noun ("nurses" -> "nurse"). The last text's cache is
 * left alone.
 */
export function lowerCaseReading(word: string): { pos: PartOfSpeech; lemma: string } {
  nlp ??= load();
  lastUse = Date.now();
  scheduleRelease();
  const t = tag(nlp, word.toLowerCase())[0];
  return t ? { pos: t.pos, lemma: t.lemma } : { pos: 'X' as PartOfSpeech, lemma: word.toLowerCase() };
}

function tag(nlp: WinkMethods, text: string): Tagged[] {
  const its = nlp.its;
  const doc = nlp.readDoc(text);
  const tokens = doc.tokens();
  const values = tokens.out() as string[];
  const pos = tokens.out(its.pos) as PartOfSpeech[];
  const lemma = tokens.out(its.lemma as ItsFunction<string>) as string[];
  const normal = tokens.out(its.normal) as string[];
  const spaces = tokens.out(its.precedingSpaces) as string[];
  const stop = tokens.out(its.stopWordFlag) as boolean[];
  const quantity = new Array<boolean>(values.length).fill(false);
  const entity = new Array<string | null>(values.length).fill(null);
  doc.entities().each((e: ItemEntity) => {
    const type = e.out(its.type) as string;
    const [from, to] = e.out(its.span) as unknown as [number, number];
    for (let k = from; k <= to; k++) {
      entity[k] = type;
      quantity[k] = QUANTITY.has(type);
    }
  });
  const sentence = new Array<number>(values.length).fill(0);
  doc.sentences().each((s: ItemSentence, n: number) => {
    const [from, to] = s.out(its.span) as unknown as [number, number];
    for (let k = from; k <= to; k++) sentence[k] = n;
  });
  return values.map((value, k) => ({
    value,
    normal: normal[k]!,
    pos: pos[k]!,
    lemma: lemma[k]!,
    spaced: k === 0 || spaces[k] !== '',
    stop: stop[k]!,
    quantity: quantity[k]!,
    entity: entity[k]!,
    sentence: sentence[k]!,
  }));
}
