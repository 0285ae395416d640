import type { HookArchetype } from '../../domain/enums.ts';
import { capitalised, labelTheme } from '../text/themes.ts';
import type { BrandContext, GenerateInput, VoiceContext } from '../types.ts';
import { cleanBrief } from './brief-clean.ts';
import { hashtag, partsOf, stripEnd } from './brief-parts.ts';
import { blocksFor } from './draft-blocks.ts';
import { specificsOf } from './draft-checks.ts';
import { detailsFor } from './draft-select.ts';
import { lowerFirst } from './first-letter.ts';
import { voiceHints } from './voice-offline.ts';

/**
 * Offline generation: templates filled only with the brief, the brand and the voice's
 * habits. A template adds framing ("My notes on ..."), never a number, name or claim that is
 * not in the brief or the brand, so the output can be trusted as a draft. Every candidate
 * carries the brief's own sentences (on a long brief, the share draft-select.ts picks, which keeps
 * its numbers and names), and names the brief's main
 * theme as the brief did ("our cloud bill", "sourdough classes", themes.ts).
 */

export interface GenerateContext {
  brand: BrandContext | null;
  voice: VoiceContext | null;
}

/** Archetype preference when the caller does not ask for one: best calibration medians first. */
const ORDER: HookArchetype[] = ['story', 'statement', 'contrarian', 'pure-number', 'question'];

/** Builds up to `count` distinct drafts (1-3); the caller scores and sorts them. */
export function generateOffline(input: GenerateInput, { brand, voice }: GenerateContext): string[] {
  const count = Math.min(3, Math.max(1, input.count ?? 1));
  const hints = voiceHints(voice);
  const clean = cleanBrief(input.brief);
  if (clean.topic !== null) return scaffolds(clean.topic, input.archetype).slice(0, count);
  const parts = partsOf(clean.text, brand);
  const paragraphs = (lines: string[]) => {
    if (hints.shortSentences || hints.oneIdeaPerLine) return lines;
    const out: string[] = [];
    for (let i = 0; i < lines.length; i += 2) out.push(lines.slice(i, i + 2).join(' '));
    return out;
  };
  // A brief that is a list under a heading is best said as that list.
  const order: HookArchetype[] = parts.heading ? ['pure-number', ...ORDER] : ORDER;
  // News is told (its own opening) or said plainly ("Here is some news about ..."), never argued:
  // "Most advice about Stripe gets the order wrong" fits no announcement, so news gets two drafts.
  const archetypes =
    parts.news && !input.archetype
      ? (['story', 'statement'] as const).slice(0, count)
      : [...new Set([...(input.archetype ? [input.archetype] : []), ...order])]
          .filter((a) => a !== 'pure-number' || parts.details.length >= 2)
          .slice(0, count);
  const tags = hints.noHashtags
    ? []
    : (brand?.themes ?? [])
        .map(hashtag)
        .filter((t): t is string => t !== null)
        .slice(0, 3);

  const specifics = specificsOf(input.brief);
  return archetypes.map((archetype, k) => {
    // The first candidate tells the whole brief, the others its facts and a share of the rest
    // (draft-select.ts); a list under a heading keeps every item in each.
    const told = parts.heading
      ? parts
      : { ...parts, ...detailsFor(parts.details, specifics, k, parts.topic) };
    const blocks = blocksFor(archetype, told, paragraphs);
    const closing = blocks.pop()!;
    if (brand?.audience)
      blocks.push(`If you work with ${lowerFirst(stripEnd(brand.audience))}, this one is for you.`);
    blocks.push(closing);
    if (tags.length) blocks.push(tags.join(' '));
    // Over a short-form platform's limit the service makes it a thread: nothing is cut here.
    return blocks.filter(Boolean).join('\n\n');
  });
}

/**
 * A brief that only names a topic ("data engineer story", "Tips for remote onboarding") gives no
 * fact to write with: each draft is a shape in the author's words to come, every fact it needs a
 * marked blank ("[the first thing]"), so nothing is invented and nothing of the label is pasted.
 */
function scaffolds(topic: string, archetype: HookArchetype | undefined): string[] {
  // "the FY25 plan" where the label picks out one; a label whose article cannot be told
  // ("cloud bill") is named first, after which "it" needs none (themes.ts `articleUnknown`).
  const theme = labelTheme(topic);
  // The topic as brief-clean.ts said it, with "the" only where the theme adds one.
  const x = theme.phrase === theme.bare ? topic : `the ${topic}`;
  const X = capitalised(x);
  const drafts: Record<'story' | 'pure-number' | 'contrarian', string[]> = {
    story: [
      theme.articleUnknown
        ? `${X}: I learned the most about it from [one moment you can describe in a sentence].`
        : `I learned the most about ${x} from [one moment you can describe in a sentence].`,
      'What happened: [what you did, and what changed].',
      'What I would tell myself at the start: [the lesson, in one line].',
      'What would you do differently?',
    ],
    'pure-number': [
      theme.articleUnknown
        ? `${X}: three things I wish I had known about it.`
        : `Three things I wish I had known about ${x}:`,
      '- [the first thing]\n- [the second thing]\n- [the third thing]',
      'Which of these matches your experience?',
    ],
    contrarian: [
      theme.articleUnknown
        ? `${X}: most advice about it gets one thing wrong, and it is [the step people skip].`
        : `Most advice about ${x} gets one thing wrong: [the step people skip].`,
      'What works for me instead: [what you do, with one example].',
      'Where do you disagree?',
    ],
  };
  const order = (['story', 'pure-number', 'contrarian'] as const).slice();
  const asked = archetype ? (order as readonly string[]).indexOf(archetype) : -1;
  if (asked > 0) order.unshift(...order.splice(asked, 1));
  return order.map((a) => drafts[a].join('\n\n'));
}
