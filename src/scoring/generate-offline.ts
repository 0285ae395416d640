import type { HookArchetype } from '../domain/enums.ts';
import { splitSentences } from './rewrite-offline.ts';
import { rubricFor } from './rubrics.ts';
import { normalizePost } from './text-features.ts';
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
  topic: string;
  details: string[];
}

/** Hooks that read well whether the topic is a noun phrase ("pricing for clinics") or a clause ("why we moved"). */
function hookFor(archetype: HookArchetype, { topic, details }: Parts): string {
  const t = lowerFirst(topic);
  switch (archetype) {
    case 'story':
      return `A lesson worth sharing: ${t}.`;
    case 'contrarian':
      return `An unpopular take on ${t}:`;
    case 'question':
      return `${upperFirst(topic)}: how do you get it right?`;
    case 'pure-number':
      return `${Math.max(2, details.length)} things to know about ${t}:`;
    default:
      return `${upperFirst(topic)}.`;
  }
}

function closingFor(archetype: HookArchetype): string {
  if (archetype === 'question') return 'How do you handle it today?';
  if (archetype === 'contrarian') return 'Where do you disagree?';
  return 'What would you add?';
}

/** Builds up to `count` distinct drafts (1-3); the caller scores and sorts them. */
export function generateOffline(input: GenerateInput, { brand, voice }: GenerateContext): string[] {
  const count = Math.min(3, Math.max(1, input.count ?? 1));
  const rubric = rubricFor(input.platform);
  const hints = voiceHints(voice);
  const sentences = splitSentences(normalizePost(input.brief).replace(/\n+/g, ' '));
  const parts: Parts = { topic: stripEnd(sentences[0] ?? input.brief), details: sentences.slice(1) };
  if (brand?.description) parts.details.push(brand.description.trim().replace(/([^.!?])$/u, '$1.'));

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
    const blocks: string[] = [hookFor(archetype, parts)];
    if (archetype === 'pure-number') blocks.push(parts.details.map((d) => `- ${d}`).join('\n'));
    // A statement leads with the claim and backs it with the brief's details as a list, so it
    // differs in structure from the story's paragraphs, not only in its first line.
    else if (archetype === 'statement' && parts.details.length >= 2)
      blocks.push(
        'What that looks like in practice:',
        parts.details.map((d) => `- ${stripEnd(d)}`).join('\n'),
      );
    else if (hints.shortSentences || hints.oneIdeaPerLine) blocks.push(...parts.details);
    else
      for (let i = 0; i < parts.details.length; i += 2) blocks.push(parts.details.slice(i, i + 2).join(' '));
    if (brand?.audience)
      blocks.push(`If you work with ${lowerFirst(stripEnd(brand.audience))}, this one is for you.`);
    blocks.push(closingFor(archetype));
    if (tags.length) blocks.push(tags.join(' '));
    let post = blocks.filter(Boolean).join('\n\n');
    // A short-form platform keeps the hook, the first detail and the question.
    if (post.length > rubric.maxLength) {
      post = [blocks[0], closingFor(archetype)].join('\n\n').slice(0, rubric.maxLength);
    }
    return post;
  });
}
