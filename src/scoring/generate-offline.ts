import type { HookArchetype } from '../domain/enums.ts';
import { detectArchetype } from './hook.ts';
import { splitSentences } from './rewrite-offline.ts';
import { rubricFor } from './rubrics.ts';
import { normalizePost } from './text-features.ts';
import { isNounPhrases, phraseOf, themesOf } from './themes.ts';
import type { BrandContext, GenerateInput, VoiceContext } from './types.ts';
import { voiceHints } from './voice-offline.ts';

/**
 * Offline generation: templates filled only with the brief, the brand and the voice's
 * habits. A template adds framing ("Here is what ... taught me"), never a number, name or
 * claim that is not in the brief or the brand, so the output can be trusted as a draft.
 */

export interface GenerateContext {
  brand: BrandContext | null;
  voice: VoiceContext | null;
}

/** Archetype preference when the caller does not ask for one: best calibration medians first. */
const ORDER: HookArchetype[] = ['story', 'statement', 'contrarian', 'pure-number', 'question'];

const stripEnd = (s: string) => s.replace(/[.!?…:;,]+$/u, '').trim();
/** Lower-cases the first letter unless the first word looks like a name or an acronym. */
const lowerFirst = (s: string) =>
  /^\p{Lu}[\p{Ll}\s]/u.test(s) && !/^I\b/.test(s) ? s[0]!.toLowerCase() + s.slice(1) : s;
const upperFirst = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

function hashtag(theme: string): string | null {
  const words = theme.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!words.length) return null;
  return `#${words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`;
}

interface Parts {
  /** The brief's first sentence, end punctuation stripped. */
  topic: string;
  /** How the topic reads: a question-word clause, a bare noun phrase, or a full sentence. */
  kind: 'clause' | 'phrase' | 'sentence';
  /** The main theme as a noun phrase, for hooks that need one ("late payments"). */
  theme: string;
  details: string[];
}

function partsOf(brief: string, brand: BrandContext | null): Parts {
  const sentences = splitSentences(normalizePost(brief).replace(/\n+/g, ' '));
  const topic = stripEnd(sentences[0] ?? brief);
  const themes = themesOf(brief);
  const kind = /^(?:why|how|what|when|where|who)\b/i.test(topic)
    ? 'clause'
    : isNounPhrases(topic)
      ? 'phrase'
      : 'sentence';
  const details = sentences.slice(1);
  if (brand?.description) details.push(brand.description.trim().replace(/([^.!?])$/u, '$1.'));
  // A list of topics ("pricing, hiring") is the theme as a whole: "pricing and hiring".
  const theme =
    kind === 'phrase' && themes.length > 1
      ? themes
          .slice(0, 3)
          .map((t) => t.phrase)
          .join(themes.length > 2 ? ', ' : ' and ')
          .replace(/, ([^,]+)$/, ' and $1')
      : (themes[0]?.phrase ?? phraseOf(topic));
  return { topic, kind, theme, details };
}

const NUMBER_WORDS = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten'];

/**
 * Each archetype has its own shape, so candidates differ in more than their first line: a story
 * in paragraphs, a claim over a bullet list, a contrarian take that argues, a numbered list, and
 * a question answered first. Numbers are written as words: a template adds no digit.
 */
function blocksFor(archetype: HookArchetype, p: Parts, paragraphs: (lines: string[]) => string[]): string[] {
  const t = p.theme;
  const T = upperFirst(t);
  const Topic = upperFirst(p.topic);
  const body = p.kind === 'sentence' ? [`${Topic}.`, ...p.details] : p.details;
  const bullets = (lines: string[]) => lines.map((d) => `- ${stripEnd(d)}`).join('\n');
  switch (archetype) {
    case 'story': {
      // First person, so the hook reads (and is detected) as a story.
      const hook =
        p.kind === 'clause'
          ? `I want to share ${lowerFirst(p.topic)}.`
          : p.kind === 'phrase'
            ? `I have been thinking about ${t} a lot lately.`
            : 'I want to share what happened here.';
      return [
        hook,
        ...(body.length
          ? paragraphs(body)
          : [
              'Where it started, what changed along the way, and what I would keep: that is the part worth writing down.',
            ]),
        'What would you have done differently?',
      ];
    }
    case 'statement':
      return [
        ...(p.kind === 'phrase'
          ? [`${T}: it comes down to a few questions.`]
          : p.kind === 'clause' && detectArchetype(Topic) === 'statement'
            ? [`${Topic}.`]
            : [`${T} deserves a closer look.`, `${Topic}.`]),
        ...(p.details.length >= 2
          ? ['What that looks like in practice:', bullets(p.details)]
          : [
              ...p.details,
              `The questions I keep asking about ${t}:`,
              '- Who is it for?\n- What should change for them?\n- How will we know it worked?',
            ]),
        'Which of these would you start with?',
      ];
    case 'contrarian':
      return [
        `Most advice about ${t} gets the order wrong.`,
        ...(p.kind === 'phrase' ? [] : [`${Topic}.`]),
        ...(p.details.length
          ? paragraphs(p.details)
          : [
              'The usual advice starts with tactics. I would start with who it is for, and what they should do next.',
            ]),
        'Where do you disagree?',
      ];
    case 'pure-number':
      return [
        `${NUMBER_WORDS[Math.min(p.details.length, 10)]} things ${t} showed me:`,
        bullets(p.details.slice(0, 10)),
        'Which one surprised you?',
      ];
    case 'question':
      return [
        `How do you handle ${t}?`,
        ...(body.length
          ? ['Here is how it went for us.', ...paragraphs(body)]
          : ['I am still working out my own answer.']),
        'How does your team do it?',
      ];
    default:
      return [`${Topic}.`, ...paragraphs(p.details)];
  }
}

/** Builds up to `count` distinct drafts (1-3); the caller scores and sorts them. */
export function generateOffline(input: GenerateInput, { brand, voice }: GenerateContext): string[] {
  const count = Math.min(3, Math.max(1, input.count ?? 1));
  const rubric = rubricFor(input.platform);
  const hints = voiceHints(voice);
  const parts = partsOf(input.brief, brand);
  const paragraphs = (lines: string[]) => {
    if (hints.shortSentences || hints.oneIdeaPerLine) return lines;
    const out: string[] = [];
    for (let i = 0; i < lines.length; i += 2) out.push(lines.slice(i, i + 2).join(' '));
    return out;
  };
  const archetypes = [...new Set([...(input.archetype ? [input.archetype] : []), ...ORDER])]
    .filter((a) => a !== 'pure-number' || parts.details.length >= 2)
    .slice(0, count);
  const tags = hints.noHashtags
    ? []
    : (brand?.themes ?? [])
        .map(hashtag)
        .filter((t): t is string => t !== null)
        .slice(0, 3);

  return archetypes.map((archetype) => {
    const blocks = blocksFor(archetype, parts, paragraphs);
    const closing = blocks.pop()!;
    if (brand?.audience)
      blocks.push(`If you work with ${lowerFirst(stripEnd(brand.audience))}, this one is for you.`);
    blocks.push(closing);
    if (tags.length) blocks.push(tags.join(' '));
    let post = blocks.filter(Boolean).join('\n\n');
    // A short-form platform keeps the hook and the closing question.
    if (post.length > rubric.maxLength) post = [blocks[0], closing].join('\n\n').slice(0, rubric.maxLength);
    return post;
  });
}
