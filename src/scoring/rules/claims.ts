/**
 * What a hook claim needs to be true of the text (issue 32: never false). The archetype detector
 * (hook.ts) sorts openings for the model and the writers by their first words; a signal that
 * says "story" or "contrarian" to a writer checks here that the opening really is one: a story
 * tells an event in the first person, a contrarian opening sets itself against a view.
 */

/** Past-tense and perfect verbs a first-person event is told with ("I shipped", "we lost", "I've left"). */
const EVENT_VERB =
  '(?:(?!(?:need|feed|proceed|succeed|exceed|embed)(?![\\p{L}]))\\p{L}{2,}ed|was|were|had|got|did|made|cut|hit|took|went|left|joined|started|quit|built|shipped|launched|lost|won|ran|became|moved|spent|sold|met|saw|found|hired|finished|wrote|gave|told|began|came|broke|drove|flew|fell|felt|heard|kept|knew|led|paid|put|read|said|sat|sent|stood|taught|thought|woke|been|done|seen|taken|become|written|given|begun|grown|learnt)';
/**
 * A story opening: an event told in the first person ("I shipped", "We lost our biggest
 * client", "My first...", "When I..."), or a moment in time ("Last week", "Years ago"). A
 * sentence that only starts with "I" ("I think...", "I am worried...") tells no event.
 */
export const STORY_OPENING = new RegExp(
  `^[^\\p{L}]{0,3}(?:(?:I|We)(?: (?:just|finally|recently|once|first|then|never|quietly|almost))? ${EVENT_VERB}|(?:I|We)['’](?:ve|d) (?:just |finally |recently |never |already )?${EVENT_VERB}|I['’]m (?:leaving|joining|starting|moving|retiring|stepping)|My (?:first|last|new)|When (?:I|we)|Last (?:week|month|year|night|quarter)|Yesterday|This (?:morning|week|year)|Today (?:I|we)|(?:\\d+|A few|Two|Three|Ten|Many) (?:years|months|weeks|days) ago|Years ago|In (?:19|20)\\d\\d|Back in|After (?:\\d+|two|three|five|ten) (?:years|months|weeks))(?![\\p{L}])`,
  'u',
);

/** An event told in the first person inside the opening ("My notes on how we cut our bill", "What I learned"). */
const FIRST_PERSON_EVENT = new RegExp(
  `(?<![\\p{L}'’])(?:I|we)(?: (?:just|finally|recently|once|first|then|never|quietly|almost))? ${EVENT_VERB}(?![\\p{L}])`,
  'u',
);

/** Whether an opening tells an event in the first person (or a moment in time, "Last week ..."). */
export const tellsEvent = (hook: string): boolean =>
  STORY_OPENING.test(hook.trim()) || FIRST_PERSON_EVENT.test(hook);

/**
 * Markers of a view being challenged. A plain negation ("isn't", "never", "do not") or a result
 * that went wrong states what happened, against no view.
 */
const AGAINST =
  /unpopular opinion|hot take|controversial|(?<![\p{L}])stop(?![\p{L}])|nobody|no one|is dead|are dead|overrated|myth|(?:is|are|all|get|gets|got) (?:it |this |that )?wrong|a lie(?![\p{L}])|the truth|hard truth|most (?:people|advice)|everyone (?:says|thinks)|(?<![\p{L}])forget(?![\p{L}])|you don['’]t need|the problem with|(?:biggest|common) mistake|is a mistake/iu;

/** Whether an opening sets itself against a view. */
export const setsAgainstAView = (hook: string): boolean => AGAINST.test(hook);
