import { hasThreads } from '../../platforms/profiles.ts';
import { detectArchetype } from '../rules/hook.ts';
import { type Rubric, rubricFor } from '../rules/rubrics.ts';
import { hasPhrase } from '../text/phrases.ts';
import { PLAIN_PHRASES } from '../text/plain-words.ts';
import { cutAtWord, splitSentences } from '../text/rewrite-sentences.ts';
import { firstSentence, HASHTAG, LINK, normalizePost } from '../text/text-features.ts';
import type { RewriteChange, ScoreInput } from '../types.ts';
import { saysNewsAnywhere } from './news-wording.ts';
import { closingQuestionOf, type FittedText, fitSentences } from './rewrite-fit.ts';
import { trimTags } from './rewrite-hashtags.ts';
import { breakParagraphs, hookOnOwnLine, openingRunsOn } from './rewrite-layout.ts';
import type { RewritePass } from './rewrite-pass.ts';
import { splitThread } from './rewrite-thread.ts';

/**
 * The offline rewrite (SCORING.md): deterministic edits only, so it cannot invent a fact.
 * The edits are a list of passes, each a small function from text to text with the note it
 * reports. Passes that lift a cap or a platform penalty (links, bait, hashtags past the cap)
 * and the length limit always apply; the others are `guided`: kept only when the learned
 * score (the caller's `measure`, the same scorer that grades the result) rates the edited
 * text higher, so the rewrite aims at what the model says matters, not at a fixed recipe. An edit that finds
 * nothing to do reports nothing, and a post that needs none comes back unchanged.
 */

export interface OfflineRewrite {
  /** The post's text (on a thread, its first part). */
  rewrite: string;
  changes: RewriteChange[];
  /** The replies after the post, when it became a thread (on a platform with threads); empty otherwise. */
  thread?: string[];
  /** What to post as the first comment: the links moved out of the body; null when none. */
  firstComment?: string | null;
}

const GREETING = /^(?:hey|hello|hi) (?:everyone|all|linkedin|folks|network)[!,.]*\s*/i;
/** The closing questions, by what the post opens with; the longest sets the room a fit leaves. */
const CLOSING_QUESTIONS = {
  story: 'Has something like this happened to you?',
  contrarian: 'Where do you disagree?',
  other: 'What would you add?',
} as const;
const CLOSING_ROOM = Math.max(...Object.values(CLOSING_QUESTIONS).map((q) => q.length)) + 2;

/**
 * The question that fits the post: a story asks for the reader's own, a contrarian take for
 * disagreement, anything else for what the reader would add. News, thanks and congratulations
 * get none: "What would you add?" under a thank-you is nothing a writer would keep. News is
 * what generate tells as news (news-wording.ts): "My first ..." is a story, asked for the
 * reader's own.
 */
function closingQuestionFor(text: string): string | null {
  if (saysNewsAnywhere(text)) return null;
  const archetype = detectArchetype(firstSentence(text.split('\n')[0] ?? ''));
  return archetype === 'story' || archetype === 'contrarian'
    ? CLOSING_QUESTIONS[archetype]
    : CLOSING_QUESTIONS.other;
}
const LINK_AFTER_COLON = new RegExp(`(?:\\s+(?:here|below))?\\s*:\\s*(?:${LINK.source})`, 'gi');

/** A platform that publishes a long post as a thread: its posts are split, never cut. */
const threaded = (rubric: Rubric) => hasThreads(rubric.platform);

const asksSomething = (text: string) => text.includes('?') || hasPhrase('callsToComment', text);

/** Applies a stock-phrase replacement, keeping an initial capital and re-capitalising after a drop. */
function replacePhrase(text: string, re: RegExp, replacement: string): string {
  const MARK = '\uE000';
  const out = text.replace(re, (match: string, ...rest: unknown[]) => {
    const groups = rest.slice(0, -2) as (string | undefined)[];
    const offset = rest.at(-2) as number;
    const atStart = offset === 0 || /(?:[.!?…]\s+|\n\s*)$/.test(text.slice(Math.max(0, offset - 4), offset));
    if (replacement === '') return atStart ? MARK : '';
    const plain = replacement.replace(/\$(\d)/g, (_m, g: string) => groups[Number(g) - 1] ?? '');
    return /^\p{Lu}/u.test(match) ? plain[0]!.toUpperCase() + plain.slice(1) : plain;
  });
  return out.replace(/\uE000\s*(\p{Ll})?/gu, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
}

const capitalise = (s: string) =>
  s.replace(/^(\W*)(\p{Ll})/u, (_m, pre: string, c: string) => pre + c.toUpperCase());

function mapLines(text: string, fn: (line: string) => string): string {
  return text
    .split('\n')
    .map((l) => (l.trim() ? fn(l) : l))
    .join('\n');
}

/** External links out of the body: the first comment keeps them without the reach cost. */
const moveLinks: RewritePass = {
  name: 'links',
  dimension: 'algorithmFit',
  guided: false,
  apply(text) {
    const links = text.match(LINK) ?? [];
    if (!links.length) return null;
    // "Read it here: <link>" becomes "Read it in the first comment"; a bare link just goes.
    let pointed = false;
    let out = text.replace(LINK_AFTER_COLON, (...args: unknown[]) => {
      pointed = true;
      const after = (args.at(-1) as string).slice((args.at(-2) as number) + (args[0] as string).length);
      // Close the sentence when the next one starts right after the link.
      return /^\s*\p{Lu}/u.test(after) ? ' in the first comment.' : ' in the first comment';
    });
    out = mapLines(out.replace(LINK, ''), (l) =>
      l
        .replace(/\(\s*\)|\[\s*\]/g, '')
        .replace(/\s+([.,;:!?])/g, '$1')
        .replace(/[ \t\u00a0]{2,}/g, ' ')
        .trimEnd(),
    )
      .split('\n')
      // Lines the link was the point of ("Read more:", a bullet, a stray quote) go with it.
      .filter(
        (l) =>
          l.trim() === '' ||
          (!/^\s*(?:[\p{L}\s]{0,40}:|[-–—•]\s*)$/u.test(l) &&
            /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(l)),
      )
      .join('\n')
      .replace(/\n{3,}/g, '\n\n');
    const many = links.length > 1;
    if (!pointed) out = `${out.trim()}\n\n(${many ? 'Links' : 'Link'} in the first comment.)`;
    return {
      text: out,
      moved: links,
      note: many
        ? `Moved ${links.length} external links out of the body into the first comment, which keeps them without the reach cut a link in the post costs.`
        : 'Moved the external link out of the body into the first comment, which keeps it without the reach cut a link in the post costs.',
    };
  },
};

/** Engagement bait: the sentences that ask for reactions as such go. */
const dropBait: RewritePass = {
  name: 'bait',
  dimension: 'algorithmFit',
  guided: false,
  apply(text) {
    let dropped = 0;
    const out = mapLines(text, (line) =>
      splitSentences(line)
        .filter((s) => {
          const bait = hasPhrase('bait', s);
          if (bait) dropped++;
          return !bait;
        })
        .join(' '),
    ).replace(/\n{3,}/g, '\n\n');
    if (!dropped) return null;
    const what = dropped === 1 ? 'an engagement-bait sentence' : `${dropped} engagement-bait sentences`;
    return { text: out, note: `Removed ${what}; the feed demotes posts that ask for reactions.` };
  },
};

/** AI-tells and stock openers, replaced by plain words of the same grammatical form. */
const plainWords: RewritePass = {
  name: 'plain-words',
  dimension: 'voice',
  guided: true,
  apply(text) {
    let out = text.replace(GREETING, '');
    for (const [re, replacement] of PLAIN_PHRASES) out = replacePhrase(out, re, replacement);
    if ((out.match(/—/g)?.length ?? 0) >= 3) out = out.replace(/\s*—\s*/g, ', ');
    if (out === text) return null;
    out = mapLines(out, (l) => capitalise(l.replace(/ {2,}/g, ' ').trim()));
    return {
      text: out,
      note: 'Replaced stock phrases and dash stacks that read as machine-written with plain words.',
    };
  },
};

/**
 * Styled letters: the mathematical bold and italic lookalikes (and the letterlike symbols that
 * fill their gaps, such as italic h) inside a styled run become the plain letters they stand
 * for. A lone symbol such as ℝ, with no styled letter beside it, stays.
 */
const STYLED_RUN =
  /(?:[\u{1D400}-\u{1D7FF}]|[\u210A-\u2113\u2102\u2115\u2119-\u211D\u2124\u2128\u212C\u212D\u212F-\u2131\u2133\u2134])+/gu;
const STYLED_LETTER = /[\u{1D400}-\u{1D7FF}]/u;

const plainLetters: RewritePass = {
  name: 'plain-letters',
  dimension: 'voice',
  guided: true,
  apply(text) {
    let count = 0;
    const out = text.replace(STYLED_RUN, (run) => {
      if (!STYLED_LETTER.test(run)) return run;
      count += [...run].length;
      return run.normalize('NFKC');
    });
    if (!count) return null;
    return {
      text: out,
      note: `Turned ${count === 1 ? 'one styled letter' : `${count} styled letters`} (bold or italic lookalikes) into plain ones, which every reader, screen reader and search can read.`,
    };
  },
};

/**
 * Hashtags past the cap (rewrite-hashtags.ts): a tag that is a word of its sentence keeps the
 * word, appended tags leave the text, and the first of them return on a closing line.
 */
const trimHashtags: RewritePass = {
  name: 'hashtags',
  dimension: 'algorithmFit',
  guided: false,
  apply(text, rubric) {
    const tags = text.match(HASHTAG) ?? [];
    if (tags.length < rubric.hashtagCapFrom) return null;
    // Under the cap, which each platform's profile sets (hashtagCapFrom).
    const keep = Math.min(3, rubric.hashtagCapFrom - 1);
    const trimmed = trimTags(text, keep);
    const left = trimmed.text.match(HASHTAG)?.length ?? 0;
    return { text: trimmed.text, note: hashtagNote(tags.length, left, trimmed.worded, rubric) };
  },
};

/** What the hashtag pass did, in one or two sentences whose counts agree. */
function hashtagNote(from: number, left: number, worded: number, rubric: Rubric): string {
  const why = `${rubric.hashtagCapFrom} or more hashtags cap algorithm fit on ${rubric.platform}`;
  const inText =
    worded === 1
      ? 'One hashtag inside a sentence stays as a plain word'
      : `${worded} hashtags inside sentences stay as plain words`;
  // Every tag was a word of its sentence: only the marks went.
  if (!left) return `${inText}, without the "#": ${why}.`;
  const cut = `Trimmed the hashtags from ${from} to ${left}, on a closing line of their own: ${why}.`;
  return worded ? `${cut} ${inText} without the "#".` : cut;
}

/** A sentence quoted in a note: its first words. */
const quote = (s: string) => `"${s.length <= 60 ? s : cutAtWord(s, 60)}"`;

/** What the length fit cut, in words a reader can check against the original. */
function limitNote({ text, dropped, unit, truncated }: FittedText, rubric: Rubric): string {
  const limit = `to fit ${rubric.platform}'s ${rubric.maxLength}-character limit (${text.length} characters now)`;
  const shown = dropped.slice(0, 3).map(quote).join(', ');
  const more = dropped.length > 3 ? ` and ${dropped.length - 3} more` : '';
  const cut = dropped.length
    ? `Cut ${dropped.length === 1 ? `one ${unit}` : `${dropped.length} ${unit}s`} ${limit}: ${shown}${more}.`
    : `Cut ${limit}.`;
  return truncated ? `${cut} The opening sentence alone was too long and is cut short.` : cut;
}

/**
 * Over the platform limit: whole lines or sentences go, generic ones before specific ones, the
 * opening and the author's closing question last (rewrite-fit.ts). Always applies.
 */
const fitLimit: RewritePass = {
  name: 'limit',
  dimension: 'algorithmFit',
  guided: false,
  apply(text, rubric) {
    if (text.length <= rubric.maxLength || threaded(rubric)) return null;
    // Room for the closing-question pass only when the post asks nothing of its own.
    const budget = asksSomething(text) ? rubric.maxLength : rubric.maxLength - CLOSING_ROOM;
    const fitted = fitSentences(text, budget);
    return { text: fitted.text, note: limitNote(fitted, rubric) };
  },
};

/**
 * A closing question when the post asks nothing. Never in place of the author's own closing
 * question (one a pass removed as bait aside): a generic question does not replace a specific one.
 */
const closingQuestion: RewritePass = {
  name: 'closing-question',
  dimension: 'engagement',
  guided: true,
  apply(text, rubric, original) {
    if (asksSomething(text)) return null;
    const own = closingQuestionOf(original);
    if (own && !hasPhrase('bait', own)) return null;
    const question = closingQuestionFor(original);
    if (!question) return null;
    if (!threaded(rubric) && text.length + question.length + 2 > rubric.maxLength) return null;
    const blocks = text.split('\n\n');
    const tail = blocks.length > 1 && /^(?:#\S+\s*)+$/.test(blocks.at(-1)!) ? blocks.pop()! : null;
    blocks.push(question);
    if (tail) blocks.push(tail);
    return {
      text: blocks.join('\n\n'),
      note: 'Ended with a question readers can answer from their own experience.',
    };
  },
};

/** In order: what must go first (links, bait), then wording, then layout, then the limit. */
export const REWRITE_PASSES: readonly RewritePass[] = [
  moveLinks,
  dropBait,
  plainWords,
  plainLetters,
  trimHashtags,
  openingRunsOn,
  hookOnOwnLine,
  breakParagraphs,
  fitLimit,
  closingQuestion,
];

/**
 * Over a threaded platform's limit: the post becomes a thread of parts, each within it (or one
 * part, when only a closing line of hashtags made it too long and no part has room for them).
 */
function asThread(text: string, rubric: Rubric): { parts: string[]; changes: RewriteChange[] } {
  const { parts, overflow, droppedTags } = splitThread(rubric.platform, text, rubric.maxLength);
  const changes: RewriteChange[] = [];
  const limit = `${rubric.platform}'s ${rubric.maxLength}-character limit`;
  if (parts.length > 1) {
    const lost = overflow.length
      ? ` The last ${overflow.length === 1 ? 'part' : `${overflow.length} parts`} did not fit in a thread of ${parts.length} parts and ${overflow.length === 1 ? 'was' : 'were'} left out.`
      : '';
    changes.push({
      dimension: 'algorithmFit',
      note: `Split the post into a thread of ${parts.length} parts, each within ${limit}, with your words in their order.${lost}`,
    });
  }
  if (droppedTags) {
    const many = (droppedTags.match(/#/g)?.length ?? 0) > 1;
    changes.push({
      dimension: 'algorithmFit',
      note: `Left out the closing ${many ? 'hashtags' : 'hashtag'} ${droppedTags.trim()}: no part had room for ${many ? 'them' : 'it'} within ${limit}.`,
    });
  }
  return { parts, changes };
}

/**
 * Runs the passes. `measure` scores a candidate text (the learned offline score with the
 * request's context); without it every pass applies, as a fixed recipe.
 */
export function rewriteOffline(input: ScoreInput, measure?: (text: string) => number): OfflineRewrite {
  const rubric = rubricFor(input.platform);
  const changes: RewriteChange[] = [];
  const original = normalizePost(input.post);
  const moved: string[] = [];
  let text = original;
  let score = measure ? measure(text) : 0;
  for (const pass of REWRITE_PASSES) {
    if (pass.needsMeasure && !measure) continue;
    const result = pass.apply(text, rubric, original);
    if (!result) continue;
    const next = result.text.trim();
    if (measure && pass.guided) {
      const nextScore = measure(next);
      if (nextScore <= score) continue;
      score = nextScore;
    } else if (measure) score = measure(next);
    text = next;
    moved.push(...(result.moved ?? []));
    changes.push({ dimension: pass.dimension, note: result.note });
  }
  const firstComment = moved.length ? moved.join('\n') : null;
  const thread = threaded(rubric) && text.length > rubric.maxLength ? asThread(text.trim(), rubric) : null;
  if (thread) changes.push(...thread.changes);
  return {
    rewrite: thread ? thread.parts[0]! : text.trim(),
    changes,
    thread: thread ? thread.parts.slice(1) : [],
    firstComment,
  };
}
