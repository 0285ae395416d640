/**
 * Phrase lists the rules match (see phrases.ts for the matcher: one pass over the words for
 * every list at once). Lists are short and generic on purpose: they name well-known
 * patterns, not phrases seen in any one dataset. Case and apostrophe style do not matter;
 * a trailing plural "s" on the last word matches too.
 */

/**
 * Engagement bait: asking for reactions, comments or shares as such. The default platform's feed
 * guidance demotes "engagement bait"; validate warns on it and the score penalises it.
 */
export const ENGAGEMENT_BAIT: readonly string[] = [
  'comment yes',
  'comment "yes"',
  'type yes',
  'comment below and i',
  'comment "',
  'like if you',
  'like this post if',
  'repost if',
  'repost this if',
  'share if you agree',
  'tag someone',
  'tag a friend',
  'tag 3',
  'agree?',
  'follow me for more',
  'follow for more',
  'smash that',
  'double tap',
  'drop a comment',
  'drop your',
  'hit like',
  'give it a like',
  'if you agree, like',
];

/** Phrases that mark machine-written or filler prose (SCORING.md: "AI-tells"). */
export const AI_TELLS: readonly string[] = [
  'delve',
  'delving',
  "in today's fast-paced",
  "in today's digital",
  "in today's rapidly",
  "in today's world",
  'ever-evolving',
  'ever-changing landscape',
  'rapidly evolving landscape',
  'navigate the complexities',
  'navigating the complexities',
  'tapestry',
  'a testament to',
  'game-changer',
  'game changer',
  'unlock the power',
  'unlock the full potential',
  'unleash',
  'harness the power',
  "it's important to note",
  'it is important to note',
  'in conclusion',
  "let's dive in",
  'dive into',
  'dive deep',
  'furthermore',
  'moreover',
  'seamlessly',
  'revolutionize',
  'paradigm shift',
  'embark on a journey',
  'in the realm of',
  'elevate your',
  'supercharge',
  'look no further',
  'buckle up',
];

/** Openers that spend the hook on nothing (hook cliches). */
export const GENERIC_OPENERS: readonly string[] = [
  "in today's",
  'in the ever',
  'have you ever wondered',
  "let's talk about",
  "let's dive",
  "i'm often asked",
  'as we all know',
  'it goes without saying',
  'i wanted to take a moment',
  'hey everyone',
  'hello everyone',
  'hi everyone',
  'hello linkedin',
  'hi linkedin',
];

/** Hook markers of a contrarian take: it sets up a belief in order to challenge it. */
export const CONTRARIAN: readonly string[] = [
  'unpopular opinion',
  'hot take',
  'controversial',
  'stop ',
  "don't ",
  'do not ',
  'nobody ',
  'no one ',
  'is dead',
  'are dead',
  'is overrated',
  'are overrated',
  'myth',
  'wrong',
  'a lie',
  'the truth',
  'hard truth',
  'most people',
  'everyone says',
  'everyone thinks',
  'forget ',
  "isn't",
  "aren't",
  "doesn't",
  'never ',
  "you don't need",
  'the problem with',
  'overrated',
  'mistake',
];

/** Calls to comment that invite a real answer (not bait). */
export const CALLS_TO_COMMENT: readonly string[] = [
  'what do you think',
  'let me know',
  'share your',
  'what would you add',
  'curious what',
  'curious how',
  'how do you',
  "what's your",
  'what is your',
  'in the comments',
  'thoughts?',
  'would love to hear',
  "i'd love to hear",
  'how would you',
  'have you seen',
];

/** Personal news and gratitude: the "story" posts that travel furthest on personal profiles. */
export const PERSONAL_NEWS: readonly string[] = [
  'excited to share',
  'excited to announce',
  'thrilled',
  'honored',
  'honoured',
  'proud to',
  'so proud',
  'grateful',
  'thank you',
  'thanks to',
  'i have decided',
  "i've decided",
  'new chapter',
  'happy to share',
  'happy to announce',
  'starting a new',
  'i joined',
  "i'm joining",
  'my first',
  'milestone',
  'congratulations',
  'congrats',
];

/** Words that stand in for a specific: vague quantities and filler intensifiers. */
export const VAGUE: readonly string[] = [
  'things',
  'stuff',
  'a lot of',
  'lots of',
  'very ',
  'really ',
  'some people',
  'many people',
  'various',
  'etc',
  'and so on',
  'somehow',
];

/** Corporate jargon that reads as a press release rather than a person. */
export const JARGON: readonly string[] = [
  'synergy',
  'synergies',
  'leverage',
  'leveraging',
  'best-in-class',
  'world-class',
  'thought leader',
  'cutting-edge',
  'innovative solution',
  'solutions provider',
  'stakeholders',
  'ecosystem',
  'holistic',
  'value-add',
  'move the needle',
  'circle back',
  'utilize',
  'utilise',
  'empower',
  'robust',
];

/** "not X, but Y" / "It's not X. It's Y." cadence, a common AI-tell when repeated. */
export const NOT_X_BUT_Y =
  /\b(?:not (?:just |only |about )?[^.!?\n]{1,60}?(?:,|;|—|-)\s*(?:but|it['’]s|it is)\b|(?:it['’]s|it is|this is|that['’]s) not [^.!?\n]{1,60}[.!?]\s+(?:it['’]s|it is|this is|that['’]s)\b)/gi;

/** Counts non-overlapping matches of a global regex. */
export function countMatches(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  re.lastIndex = 0;
  return n;
}
