/**
 * What a hook claim needs to be true of the text (issue 32: never false). One source of truth:
 * the archetype detector (hook.ts) calls an opening "story" or "contrarian" only when these say
 * so, and the story rule reads the same checks, so `hookArchetype`, its note, the hook signal and
 * the story signal never disagree. A story tells an event in the first person; a contrarian
 * opening sets itself against a view.
 */

/**
 * Past-tense and perfect verbs a first-person event is told with ("I shipped", "we lost", "I've
 * left"). "read" and "put" are not among them: their present is spelt the same, and in an opening
 * they tell a habit or hearsay ("I read every morning", "I read somewhere that...").
 */
const EVENT_VERB =
  '(?:(?!(?:need|feed|proceed|succeed|exceed|embed)(?![\\p{L}]))\\p{L}{2,}ed|was|were|had|got|did|made|cut|hit|took|went|left|joined|started|quit|built|shipped|launched|lost|won|ran|became|moved|spent|sold|met|saw|found|hired|finished|wrote|gave|told|began|came|broke|drove|flew|fell|felt|heard|kept|knew|led|paid|said|sat|sent|stood|taught|thought|woke|been|done|seen|taken|become|written|given|begun|grown|learnt)';
/** News told as it happens: "I'm leaving", "we're launching" (but "we're moving beyond X" is no news). */
const NEWS_NOW =
  "(?:(?:I['’]m|I am) (?:leaving|joining|starting|moving|retiring|stepping)|(?:I['’]m|I am|[Ww]e['’]re|[Ww]e are) (?:launching|releasing|opening|celebrating|hiring))";

/**
 * An opening that is itself a first-person event: "I shipped", "We lost our biggest client",
 * "I've left", "I'm leaving". A sentence that only starts with "I" ("I think...", "I am
 * worried...") tells no event.
 */
const SUBJECT_EVENT = new RegExp(
  `^[^\\p{L}]{0,3}(?:(?:I|We)(?: (?:just|finally|recently|once|first|then|never|quietly|almost))? ${EVENT_VERB}|(?:I|We)['’](?:ve|d) (?:just |finally |recently |never |already )?${EVENT_VERB}|${NEWS_NOW})(?![\\p{L}])`,
  'u',
);

/**
 * A moment the opening places itself in ("Last week", "Years ago", "When I"), or the writer's
 * own thing ("My first...", "Our revenue..."). A cue, not an event: "This week, stay conscious
 * of..." and "Last week, NVIDIA unveiled..." tell no event of the writer's, "My new definition
 * of love is..." none at all. It opens a story only beside a first-person word and an event in
 * the same opening ("My biggest lesson came late", "Last week I lost...").
 */
const MOMENT =
  /^[^\p{L}]{0,3}(?:My|Our|When (?:I|we)|Last (?:week|month|year|night|quarter)|Yesterday|This (?:morning|week|year)|Today|(?:\d+|A few|Two|Three|Ten|Many) (?:years|months|weeks|days) ago|Years ago|In (?:19|20)\d\d|Back in|After (?:\d+|two|three|five|ten) (?:years|months|weeks))(?![\p{L}])/u;

/** The writer speaking: "I", "me", "my", "we", "us", "our" (and their contractions). */
const FIRST_PERSON_WORD = /(?<![\p{L}'’])(?:I|[Mm]e|[Mm]y|[Ww]e|us|[Oo]ur)(?![\p{L}])/u;
const EVENT_WORD = new RegExp(`(?<![\\p{L}'’])${EVENT_VERB}(?![\\p{L}])|${NEWS_NOW}`, 'u');

/** An event told in the first person inside the opening ("My notes on how we cut our bill", "What I learned"). */
const FIRST_PERSON_EVENT = new RegExp(
  `(?<![\\p{L}'’])(?:I|we)(?: (?:just|finally|recently|once|first|then|never|quietly|almost))? ${EVENT_VERB}(?![\\p{L}])`,
  'u',
);

/** Whether an opening speaks in the first person. */
export const speaksAsWriter = (text: string): boolean => FIRST_PERSON_WORD.test(text);

/**
 * Whether an opening tells an event in the first person: it opens on one ("I shipped"), holds
 * one ("What I learned"), or places a moment and tells the writer's event in it ("Last week I
 * lost...", "Yesterday was my first day...").
 */
export function tellsEvent(hook: string): boolean {
  const h = hook.trim();
  // Every FIRST_PERSON_EVENT match opens with "I " or "we ": where neither stands it is not run
  // (it tried its lookbehind at every position of the opening).
  if (SUBJECT_EVENT.test(h) || ((h.includes('I ') || h.includes('we ')) && FIRST_PERSON_EVENT.test(h)))
    return true;
  return MOMENT.test(h) && FIRST_PERSON_WORD.test(h) && EVENT_WORD.test(h);
}

/**
 * Markers of a view being challenged. A plain negation ("isn't", "never", "do not") or a result
 * that went wrong states what happened, against no view. "Nobody" or "no one" alone opposes
 * nothing ("Nobody talks about this, but...", "No one knows this about me" tease a secret); only
 * "nobody needs X" denies what others hold, as "you don't need X" does.
 */
const AGAINST =
  /unpopular opinion|hot take|controversial|(?<![\p{L}])stop(?![\p{L}])|(?<![\p{L}])(?:nobody|no one) needs(?![\p{L}])|is dead|are dead|overrated|myth|(?:is|are|all|got) (?:it |this |that )?wrong|a lie(?![\p{L}])|the truth|hard truth|most (?:people|(?:[\p{L}-]+ ){0,3}advice)|(?<!to )(?:get|gets) (?:[\p{L}'’]+ ){0,3}wrong|everyone (?:says|thinks)|(?<![\p{L}])forget(?![\p{L}])|you don['’]t need|the problem with|(?:biggest|common) mistake|is a mistake/iu;

/** Whether an opening sets itself against a view. */
export const setsAgainstAView = (hook: string): boolean => AGAINST.test(hook);

/** "Thanks to rising rates, ..." gives a cause, not thanks: no news in it. */
const OWED_TO = 'thanks to';

/**
 * Whether the writer tells their own news: a sentence holding one of `phrases` (the personal-news
 * phrases found in `text`, "thrilled", "grateful", "my first", ...) speaks in the first person.
 * News or thanks with no "I", "my", "we" or "our" in its sentence is someone else's.
 */
export function newsInFirstPerson(
  text: string,
  phrases: readonly string[],
  /**
   * `text.toLowerCase()` and the text's sentences (TextFeatures `lower`, `sentenceRanges`), when
   * the caller has them: the sentences holding a phrase are then found from the phrase's places
   * in the whole lower-cased text, and only those are tested for a first-person word.
   */
  scanned?: { lower: string; sentences: readonly number[] },
): boolean {
  const news = phrases.filter((p) => p !== OWED_TO);
  if (news.length === 0) return false;
  if (scanned !== undefined && inPlace(text, scanned.lower) && news.every(isTrimmedWord))
    return newsInSentences(text, news, scanned.lower, scanned.sentences);
  for (const sentence of text.split(/(?<=[.!?…])\s+|\n+/u)) {
    if (!FIRST_PERSON_WORD.test(sentence)) continue;
    const lower = sentence.toLowerCase().replaceAll('’', "'");
    if (news.some((p) => lower.includes(p))) return true;
  }
  return false;
}

/**
 * Lower-casing kept every character in place (no "İ", no final sigma to choose): a sentence's
 * lower case is then its stretch of the whole text's.
 */
const inPlace = (text: string, lower: string) => lower.length === text.length && !text.includes('Σ');

/** A phrase that neither starts nor ends with white space and is not empty. */
const isTrimmedWord = (p: string) => p.length > 0 && p.trim() === p;

/**
 * `newsInFirstPerson` from the sentence scan's sentences (text-scan.ts `sentenceStats`: the
 * pieces of the split above that hold a letter or digit, trimmed, which changes neither test):
 * a sentence holds a phrase exactly where an occurrence of it in the whole straightened lower
 * case lies inside the sentence, so each phrase is searched for once in the whole text and only
 * the sentences holding one are tested for a first-person word.
 */
function newsInSentences(
  text: string,
  news: readonly string[],
  lower: string,
  sentences: readonly number[],
): boolean {
  const straight = lower.includes('’') ? lower.replaceAll('’', "'") : lower;
  const tested = new Uint8Array(sentences.length >> 1);
  for (const p of news) {
    let k = 0;
    for (let at = straight.indexOf(p); at !== -1; at = straight.indexOf(p, at + 1)) {
      while (k < sentences.length && sentences[k + 1]! < at + p.length) k += 2;
      if (k === sentences.length) break;
      if (sentences[k]! > at || tested[k >> 1] === 1) continue;
      tested[k >> 1] = 1;
      if (FIRST_PERSON_WORD.test(text.slice(sentences[k]!, sentences[k + 1]!))) return true;
    }
  }
  return false;
}
