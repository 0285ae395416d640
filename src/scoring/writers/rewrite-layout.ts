import { hasThreads } from '../../platforms/profiles.ts';
import { paragraphsOf, splitSentences } from '../text/rewrite-sentences.ts';
import type { RewritePass } from './rewrite-pass.ts';

/**
 * The rewrite's layout passes. All are guided (kept only when the score rates the result
 * higher), so the learned model decides between a hook on its own line and an opening that
 * runs on: among the same authors' posts, a first line shorter than OPENING_RUN characters
 * standing alone went with less engagement (features.ts, text.hook_own_line).
 */

const sentencesIn = (line: string) => splitSentences(line.trim()).length;

/** How long the first line runs before it may end (the learned model's threshold). */
const OPENING_RUN = 160;

/** The opening sentence on its own line, so it lands before the "see more" fold. */
export const hookOnOwnLine: RewritePass = {
  name: 'hook-line',
  dimension: 'hook',
  guided: true,
  apply(text, rubric, original) {
    const paragraphs = paragraphsOf(text);
    const first = paragraphs[0] ?? '';
    const sentences = splitSentences(first.split('\n')[0]!);
    // An opening an earlier pass ran on (openingRunsOn) is not set apart again: the notes would
    // say it was run on and put on its own line.
    if (sentences.length > sentencesIn(original.split('\n')[0]!)) return null;
    if (sentences.length < 2 || sentences[0]!.length > rubric.foldChars) return null;
    paragraphs.splice(0, 1, sentences[0]!, first.slice(first.indexOf(sentences[1]!)));
    return {
      text: paragraphs.join('\n\n'),
      note: 'Put the opening sentence on its own line so it lands before the "see more" fold.',
    };
  },
};

const SENTENCE_END = /[.!?…]["'’”)]*$/u;
/** A line that is not running prose: a list item, a quote, a tag, a mention or a link. */
const NOT_PROSE = /^(?:[-•*–—>▪►✅👉]|\d+[.)]\s|#|@|https?:\/\/)/u;

/**
 * A short opening line that stands alone runs on into the sentences after it until it holds
 * OPENING_RUN characters; what is left of the paragraph it drew from stays where it was, and the
 * post keeps at least one more line. Only prose is joined: a heading ("Five lessons:"), a list
 * or a line of tags keeps its own line.
 */
export const openingRunsOn: RewritePass = {
  name: 'opening-runs-on',
  dimension: 'hook',
  guided: true,
  needsMeasure: true,
  apply(text, rubric) {
    // The measure was learned from long-form posts; a short-form platform's post is a thread
    // whose first part a 160-character line would mostly fill.
    if (hasThreads(rubric.platform)) return null;
    const lines = text.split('\n');
    let opening = lines[0]!.trim();
    if (opening.length >= OPENING_RUN || !SENTENCE_END.test(opening) || NOT_PROSE.test(opening)) return null;
    let at = 1;
    let left = '';
    let gap: string[] = [];
    while (opening.length < OPENING_RUN && at < lines.length) {
      const blank = lines.slice(at).findIndex((l) => l.trim() !== '');
      if (blank === -1) break;
      const line = lines[at + blank]!.trim();
      if (NOT_PROSE.test(line) || !SENTENCE_END.test(line)) break;
      if (gap.length === 0) gap = lines.slice(at, at + blank);
      const sentences = splitSentences(line);
      let k = 0;
      while (k < sentences.length && opening.length < OPENING_RUN) opening += ` ${sentences[k++]}`;
      at += blank + 1;
      left = sentences.slice(k).join(' ');
    }
    // An opening that cannot reach OPENING_RUN, or that would take the whole post into one
    // line, is left as written: a short post made one block only games the measure.
    const rest = lines.slice(at);
    if (opening.length < OPENING_RUN || (!left && !rest.some((l) => l.trim()))) return null;
    const out = [opening, ...(left ? [...gap, left] : []), ...rest];
    return {
      text: out.join('\n'),
      note: 'Ran the short opening line on into the sentence after it: among the same authors, posts whose first line stood alone drew less engagement.',
    };
  },
};

/** Long paragraphs broken into paragraphs of one or two sentences, the opening one running on. */
export const breakParagraphs: RewritePass = {
  name: 'paragraphs',
  dimension: 'structure',
  guided: true,
  apply(text) {
    const out: string[] = [];
    let changed = false;
    for (const p of paragraphsOf(text)) {
      if (p.length <= 300 || p.includes('\n')) {
        out.push(p);
        continue;
      }
      changed = true;
      let chunk = '';
      for (const s of splitSentences(p)) {
        // The post's first line runs on to OPENING_RUN characters: among the same authors' posts,
        // a first line standing alone went with less engagement (features.ts text.hook_own_line).
        const opening = out.length === 0 && chunk.length < OPENING_RUN;
        if (chunk && !opening && (chunk.length + s.length > 220 || splitSentences(chunk).length >= 2)) {
          out.push(chunk);
          chunk = s;
        } else chunk = chunk ? `${chunk} ${s}` : s;
      }
      if (chunk) out.push(chunk);
    }
    return changed
      ? {
          text: out.join('\n\n'),
          note: 'Broke long paragraphs into short ones with white space between them.',
        }
      : null;
  },
};
