import type { HookArchetype } from '../../domain/enums.ts';
import { DEFAULT_PLATFORM, hasThreads } from '../../platforms/profiles.ts';
import { rubricFor } from '../rules/rubrics.ts';
import type { BrandContext, GenerateInput, VoiceContext } from '../types.ts';
import { withoutFiller, withTagLinesAtEnd } from './brief-filler.ts';
import { readBrief } from './brief-reading.ts';
import { sameShape } from './draft-checks.ts';
import { experienceQuestion, SHAPE_OF, type Shape, shapeBlocks } from './draft-shapes.ts';
import { upperFirst } from './first-letter.ts';
import { voiceHints } from './voice-offline.ts';

/**
 * Offline generation, assembled from the brief's own words (issue 34): every sentence of a draft
 * is a sentence or clause of the brief (brief-reading.ts takes off its labels and instructions),
 * a marked blank for a fact the brief does not give (only a brief that is a bare label has
 * none), or one of the few connectives draft-shapes.ts lists. Candidates differ by shape: the
 * story in the brief's order, the result first, the points as a list. So every candidate keeps
 * every number and name of the brief, and no hook line is shared by drafts of two briefs.
 *
 * How many: one per shape the brief can take, at most `count` (1-3); news, thanks and
 * congratulations at most two (docs/decisions.md). The brand's description and audience are
 * context for the writer, never sentences of the post; its themes become hashtags.
 */

export interface GenerateContext {
  brand: BrandContext | null;
  voice: VoiceContext | null;
}

/** Shapes when the caller asks for none: the story as told first, then the result, then the list. */
const ORDER: Shape[] = ['story', 'result', 'list', 'question'];
/** News is told, at most two ways (docs/decisions.md, "News is told"). */
const NEWS_MAX = 2;

/** A brand theme as a hashtag: "Billing ops" -> "#BillingOps". */
function hashtag(theme: string): string | null {
  const words = theme.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return null;
  return `#${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

/** Builds up to `count` distinct drafts (1-3); the caller scores and sorts them. */
export function generateOffline(input: GenerateInput, { brand, voice }: GenerateContext): string[] {
  const count = Math.min(3, Math.max(1, input.count ?? 1));
  const hints = voiceHints(voice);
  const brief = withoutFiller(withTagLinesAtEnd(readBrief(input.brief)));
  // The brief's own hashtags always; the brand's themes as hashtags beside them, unless the voice uses none.
  const themeTags = hints.noHashtags
    ? []
    : (brand?.themes ?? [])
        .map(hashtag)
        .filter((t): t is string => t !== null && !input.brief.includes(t))
        .slice(0, 3);
  const tags = [...brief.hashtags, ...themeTags.filter((t) => !brief.hashtags.includes(t))];
  // The links as one block: on a platform with threads they are one part, not a part per link.
  const tail = [
    ...(brief.links.length ? [brief.links.join('\n')] : []),
    ...(tags.length ? [tags.join(' ')] : []),
  ];
  if (brief.topic !== null) return scaffolds(brief.topic, input.archetype, tail).slice(0, count);

  const platform = input.platform ?? DEFAULT_PLATFORM;
  const threads = hasThreads(platform);
  const asked = input.archetype ? SHAPE_OF[input.archetype] : null;
  const order = asked ? [asked, ...ORDER.filter((s) => s !== asked)] : ORDER;
  const closing = brief.question ?? experienceQuestion(brief);
  const drafts: string[] = [];
  const bodies: string[] = [];
  for (const shape of order) {
    const blocks = shapeBlocks(shape, brief, {
      oneIdeaPerLine: hints.oneIdeaPerLine || hints.shortSentences,
    });
    if (!blocks) continue;
    // The brief's own question closes every draft; the reader's-experience question only the story.
    const ends = brief.question ? [brief.question] : closing && shape === 'story' ? [closing] : [];
    const join = (parts: string[]) => {
      const text = parts.filter(Boolean).join('\n\n');
      // On a platform with threads, a draft of several points over one post is one part per point.
      return threads && text.length > rubricFor(platform).maxLength ? onePointPerParagraph(text) : text;
    };
    // Two shapes that come out alike (but for the closing question or a stop) are one draft.
    const body = join([...blocks, ...tail]);
    if (bodies.some((b) => sameShape(input.brief, b, body))) continue;
    bodies.push(body);
    drafts.push(join([...blocks, ...ends, ...tail]));
  }
  return drafts.slice(0, Math.min(count, brief.news ? NEWS_MAX : 3));
}

/** An item said as a sentence: a stop unless it ends on one already (`our new “developers.”`, not `”.`). */
const endsSentence = (s: string) =>
  /[.!?…]["'’”)]*$/u.test(s) || /\p{Extended_Pictographic}$/u.test(s) ? s : `${s}.`;

/** A list's items as paragraphs of their own, so a thread gives each point its own part. */
const onePointPerParagraph = (text: string) =>
  text
    .replace(
      /(^|\n)- ([^\n]+)/g,
      (_m, start: string, item: string) => `${start}\n${endsSentence(upperFirst(item))}`,
    )
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * A brief that only names a topic ("data engineer story", "Tips for remote onboarding") gives no
 * fact to write with: each draft is the topic as the brief named it and marked blanks for what
 * the writer will add, in one of the shapes, so nothing is invented and nothing of the label is pasted.
 */
function scaffolds(topic: string, archetype: HookArchetype | undefined, tail: string[]): string[] {
  const T = upperFirst(topic);
  const drafts: Record<Shape, string[]> = {
    story: [
      `${T}: [one moment you can describe in a sentence].`,
      '[What happened, and what changed.]',
      '[The lesson, in one line.]',
    ],
    list: [`${T}:`, '- [the first thing]\n- [the second thing]\n- [the third thing]'],
    result: [`${T}: [the result, with its number].`, '[How you got there, step by step.]'],
    question: [],
  };
  const order: Shape[] = ['story', 'list', 'result'];
  const first = archetype ? SHAPE_OF[archetype] : null;
  if (first && order.includes(first)) order.unshift(...order.splice(order.indexOf(first), 1));
  return order.map((s) => [...drafts[s], ...tail].join('\n\n'));
}
