import { type Concept, Concept as ConceptEnum } from '../domain/enums.ts';

/**
 * The writer-facing concepts: the closed set of things a score can say about a post. Every
 * deterministic rule and every learned feature belongs to exactly one concept, and a post gets
 * at most one signal per concept (learned/explain.ts nets a concept's effects into one signal).
 * Signal.concept carries it on the wire (OpenAPI, /v1/meta `concepts`, the generated client);
 * docs/scoring.md tabulates the set with the rules and features of each.
 *
 * Adding a concept is a contract extension: add it to the enumeration (domain/enums.ts
 * `Concept`, the wire's), describe it here, and list it in docs/scoring.md. Adding a rule means registering its name in RULE_CONCEPTS below (a test
 * fails for a rule without one); a learned feature states its concept in its own row
 * (learned/features.ts).
 */

export const CONCEPTS: readonly Concept[] = ConceptEnum.options;
export type { Concept };

/** What each concept covers, as /v1/meta and docs/scoring.md describe it to a writer. */
export const CONCEPT_DESCRIPTIONS: Record<Concept, string> = {
  opening: 'The first line: its hook, and its length against the fold.',
  length: 'How long the post is against the length that does best, and against the platform limit.',
  layout:
    'Line breaks, paragraphs, lists and styled letters: how the post looks on a screen, the first line standing on its own or not included.',
  sentences: 'How many sentences the post has, how long they are, and whether they read as sentences.',
  repetition: 'Text that repeats itself instead of saying something new.',
  specifics: 'Numbers, names and concrete detail against vague wording and jargon.',
  voice: 'Who is speaking and how: first person, company "we", "you", tone, emoji and exclamations.',
  story: 'A moment, a milestone or news from the writer’s own life, told in the first person.',
  questions: 'Questions and calls to reply: what the post gives readers to answer.',
  tags: 'People tagged with @.',
  hashtags: 'How many hashtags the post carries and where.',
  links: 'External links in the body.',
  format: 'The media format: text, image, document, video, poll or link card.',
  timing: 'The planned day and hour of publishing.',
  generic:
    'Text that could be anyone’s: platitudes, phrases that read as machine-written and engagement bait, which the feed demotes.',
  word_choice: 'Particular words the writer chose that went with more or less engagement.',
};

/**
 * The concept of every deterministic rule, by its stable name. One registration per rule: a
 * rule's hit takes its concept from here (rules/rule-kit.ts `hit`).
 */
export const RULE_CONCEPTS: Readonly<Record<string, Concept>> = {
  'length.over_limit': 'length',
  'length.thin': 'length',
  'length.short': 'length',
  'length.sweet_spot': 'length',
  'length.long': 'length',
  'link.external': 'links',
  'hashtags.excess': 'hashtags',
  'format.multiplier': 'format',
  'mentions.excess': 'tags',
  'mentions.tagged': 'tags',
  'engagement.bait': 'generic',
  'timing.midweek': 'timing',
  'timing.weekend': 'timing',
  'timing.peak_hour': 'timing',
  'timing.off_hours': 'timing',
  'hook.fold': 'opening',
  'hook.archetype': 'opening',
  'hook.generic_opener': 'opening',
  'structure.wall_of_text': 'layout',
  'structure.long_paragraph': 'layout',
  'structure.white_space': 'layout',
  'structure.sentence_band': 'sentences',
  'structure.few_sentences': 'sentences',
  'structure.long_sentences': 'sentences',
  'structure.list': 'layout',
  'specificity.numbers': 'specifics',
  'specificity.names': 'specifics',
  'specificity.vague': 'specifics',
  'specificity.jargon': 'specifics',
  'voice.ai_tells': 'generic',
  'voice.em_dash_stack': 'generic',
  'voice.not_x_but_y': 'generic',
  'voice.first_person': 'voice',
  'voice.corporate_we': 'voice',
  'voice.lecturing': 'voice',
  'engagement.personal_story': 'story',
  'engagement.call_to_comment': 'questions',
  'engagement.closing_question': 'questions',
  'engagement.question_overload': 'questions',
  'writing.repetition': 'repetition',
  'writing.word_order': 'sentences',
  'generic.text': 'generic',
};

const CONCEPT_SET: ReadonlySet<string> = new Set(CONCEPTS);
export const isConcept = (s: string): s is Concept => CONCEPT_SET.has(s);

/** A rule's concept; throws for a rule nobody registered, so a new rule cannot go unsorted. */
export function conceptOfRule(rule: string): Concept {
  const c = RULE_CONCEPTS[rule];
  if (c === undefined) throw new Error(`scoring: rule ${rule} has no concept (src/scoring/concepts.ts)`);
  return c;
}
