import { HASHTAG, LINK, normalizePost } from './features.ts';
import { hasPhrase } from './phrases.ts';
import { rubricFor } from './rubrics.ts';
import type { RewriteChange, ScoreInput } from './types.ts';

/**
 * The offline rewrite (SCORING.md): deterministic edits only, so it cannot invent a fact.
 * Each edit that changes the text reports a RewriteChange; an edit that finds nothing to
 * do reports nothing, and a post that needs none comes back unchanged.
 */

/** Stock phrases and plain replacements ('' drops the phrase). */
const PLAIN: [RegExp, string][] = [
  [
    /\bin today['’]s (?:fast-paced|digital|rapidly changing|ever-changing) (?:world|age|landscape),?\s*/gi,
    '',
  ],
  [/\bin today['’]s world,?\s*/gi, ''],
  [/\bit['’]s important to note that\s*/gi, ''],
  [/\bin conclusion,?\s*/gi, ''],
  [/\blet['’]s dive in[.!]?\s*/gi, ''],
  [/\bdelv(?:e|ing) into\b/gi, 'dig into'],
  [/\bdelv(?:e|es|ing)\b/gi, 'dig'],
  [/\bdive (?:deep )?into\b/gi, 'look at'],
  [/\b(?:unlock|harness) the (?:full )?(?:power|potential) of\b/gi, 'use'],
  [/\bnavigat(?:e|ing) the complexities of\b/gi, 'handle'],
  [/\bembark on a journey\b/gi, 'start'],
  [/\ba testament to\b/gi, 'proof of'],
  [/\bgame[- ]changer\b/gi, 'big shift'],
  [/\b(?:furthermore|moreover),\s*/gi, 'also, '],
  [/\bseamlessly\b/gi, 'smoothly'],
  [/\brevolutioni[sz]e\b/gi, 'change'],
  [/\bleverag(?:e|ing)\b/gi, 'use'],
  [/\butili[sz](?:e|ing)\b/gi, 'use'],
];

const GREETING = /^(?:hey|hello|hi) (?:everyone|all|linkedin|folks|network)[!,.]*\s*/i;
/** Sentence ends: terminal punctuation (plus closing quotes) followed by white space. */
const SENTENCE_BREAK = /(?<=[.!?…]["'’”)]*)\s+/u;
const CLOSING_QUESTION = 'What would you add?';
const LINK_AFTER_COLON = new RegExp(`(?:\\s+(?:here|below))?\\s*:\\s*(?:${LINK.source})`, 'gi');

export const splitSentences = (line: string) =>
  line
    .split(SENTENCE_BREAK)
    .map((s) => s.trim())
    .filter(Boolean);

/** Applies a stock-phrase replacement, keeping an initial capital and re-capitalising after a drop. */
function replacePhrase(text: string, re: RegExp, replacement: string): string {
  const MARK = '\uE000';
  const out = text.replace(re, (match: string, ...rest: unknown[]) => {
    const offset = rest.at(-2) as number;
    const atStart = offset === 0 || /(?:[.!?…]\s+|\n\s*)$/.test(text.slice(Math.max(0, offset - 4), offset));
    if (replacement === '') return atStart ? MARK : '';
    return /^\p{Lu}/u.test(match) ? replacement[0]!.toUpperCase() + replacement.slice(1) : replacement;
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

/** The longest run of leading sentences (paragraph breaks kept) within `budget` characters. */
function keepLeading(paragraphs: string[], budget: number): string {
  const kept: string[] = [];
  let length = 0;
  for (const p of paragraphs) {
    const sentences: string[] = [];
    for (const s of splitSentences(p)) {
      const add = s.length + (sentences.length ? 1 : kept.length ? 2 : 0);
      if (length + add > budget) {
        if (sentences.length) kept.push(sentences.join(' '));
        // Not even the first sentence fits: cut it at a word boundary rather than return nothing.
        if (kept.length === 0) return `${s.slice(0, budget - 1).replace(/\s+\S*$/u, '')}…`;
        return kept.join('\n\n');
      }
      sentences.push(s);
      length += add;
    }
    kept.push(sentences.join(' '));
  }
  return kept.join('\n\n');
}

export interface OfflineRewrite {
  rewrite: string;
  changes: RewriteChange[];
}

export function rewriteOffline(input: ScoreInput): OfflineRewrite {
  const rubric = rubricFor(input.platform);
  const changes: RewriteChange[] = [];
  let text = normalizePost(input.post);

  // 1. External links out of the body (the first comment keeps them without the reach cost).
  const links = text.match(LINK) ?? [];
  if (links.length) {
    // "Read it here: <link>" becomes "Read it in the first comment"; a bare link just goes.
    let pointed = false;
    text = text.replace(LINK_AFTER_COLON, (...args: unknown[]) => {
      pointed = true;
      const after = (args.at(-1) as string).slice((args.at(-2) as number) + (args[0] as string).length);
      // Close the sentence when the next one starts right after the link.
      return /^\s*\p{Lu}/u.test(after) ? ' in the first comment.' : ' in the first comment';
    });
    text = mapLines(text.replace(LINK, ''), (l) =>
      l
        .replace(/\s+([.,;:!?])/g, '$1')
        .replace(/[ \t]{2,}/g, ' ')
        .trimEnd(),
    )
      .split('\n')
      .filter((l) => !/^\s*(?:[\p{L}\s]{0,40}:|[-–—•]\s*)$/u.test(l) || l.trim() === '')
      .join('\n');
    if (!pointed) text = `${text.trim()}\n\n(Link in the first comment.)`;
    changes.push({
      dimension: 'algorithmFit',
      note: `Moved ${links.length} external link(s) out of the body; post ${links.join(' ')} as the first comment to avoid the ~26% reach cut.`,
    });
  }

  // 2. Engagement bait: drop the sentences that ask for reactions as such.
  let dropped = 0;
  text = mapLines(text, (line) =>
    splitSentences(line)
      .filter((s) => {
        const bait = hasPhrase('bait', s);
        if (bait) dropped++;
        return !bait;
      })
      .join(' '),
  );
  if (dropped)
    changes.push({
      dimension: 'algorithmFit',
      note: `Removed ${dropped} engagement-bait sentence(s); the feed demotes them.`,
    });

  // 3. AI-tells and stock openers.
  const before = text;
  text = text.replace(GREETING, '');
  for (const [re, replacement] of PLAIN) text = replacePhrase(text, re, replacement);
  const dashes = text.match(/—/g)?.length ?? 0;
  if (dashes >= 3) text = text.replace(/\s*—\s*/g, ', ');
  if (text !== before) {
    text = mapLines(text, (l) => capitalise(l.replace(/ {2,}/g, ' ').trim()));
    changes.push({
      dimension: 'voice',
      note: 'Replaced stock phrases and dash stacks that read as machine-written with plain words.',
    });
  }

  // 4. Hashtags past the cap: keep the first three on a closing line.
  const tags = text.match(HASHTAG) ?? [];
  if (tags.length >= rubric.hashtagCapFrom) {
    const keep = tags.slice(0, 3);
    text = mapLines(text.replace(HASHTAG, ''), (l) => l.replace(/[ \t]{2,}/g, ' ').trimEnd());
    text = `${text.trim()}\n\n${keep.join(' ')}`;
    changes.push({
      dimension: 'algorithmFit',
      note: `Trimmed hashtags from ${tags.length} to ${keep.length}; six or more cap algorithm fit.`,
    });
  }

  // 5. Hook on its own line, then short paragraphs with white space.
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  let restructured = false;
  const first = paragraphs[0] ?? '';
  const firstSentences = splitSentences(first.split('\n')[0] ?? '');
  if (firstSentences.length > 1 && firstSentences[0]!.length <= rubric.foldChars) {
    const rest = first.slice(first.indexOf(firstSentences[1]!));
    paragraphs.splice(0, 1, firstSentences[0]!, rest);
    changes.push({
      dimension: 'hook',
      note: 'Put the opening sentence on its own line so it lands before the "see more" fold.',
    });
  }
  const out: string[] = [];
  for (const p of paragraphs) {
    if (p.length <= 300 || p.includes('\n')) {
      out.push(p);
      continue;
    }
    restructured = true;
    let chunk = '';
    for (const s of splitSentences(p)) {
      if (chunk && (chunk.length + s.length > 220 || splitSentences(chunk).length >= 2)) {
        out.push(chunk);
        chunk = s;
      } else chunk = chunk ? `${chunk} ${s}` : s;
    }
    if (chunk) out.push(chunk);
  }
  if (restructured)
    changes.push({
      dimension: 'structure',
      note: 'Broke long paragraphs into one- and two-sentence paragraphs with white space.',
    });
  text = out.join('\n\n');

  // 6. Over the platform limit: keep leading sentences, paragraph by paragraph, that fit.
  if (text.length > rubric.maxLength) {
    text = keepLeading(out, rubric.maxLength - CLOSING_QUESTION.length - 2);
    changes.push({
      dimension: 'algorithmFit',
      note: `Cut to ${text.length} characters to fit ${rubric.platform}'s ${rubric.maxLength}-character limit.`,
    });
  }

  // 7. A closing question when the post asks nothing.
  if (
    !text.includes('?') &&
    !hasPhrase('callsToComment', text) &&
    text.length + CLOSING_QUESTION.length + 2 <= rubric.maxLength
  ) {
    const lines = text.split('\n\n');
    const tail = lines.length > 1 && /^(?:#\S+\s*)+$/.test(lines.at(-1)!) ? lines.pop()! : null;
    lines.push(CLOSING_QUESTION);
    if (tail) lines.push(tail);
    text = lines.join('\n\n');
    changes.push({
      dimension: 'engagement',
      note: 'Ended with a question readers can answer from their own experience.',
    });
  }
  return { rewrite: text.trim(), changes };
}
