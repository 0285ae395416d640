import { hasThreads } from '../../platforms/profiles.ts';
import type { Rubric } from '../rules/rubrics.ts';
import type { RuleOutcome } from '../rules/rules.ts';
import type { BrandContext, ScoreInput, ScoreResult, VoiceContext } from '../types.ts';

/** The written rubrics and prompts the model works from (SCORING.md "Judge"). */

export function platformRubric(rubric: Rubric): string {
  return [
    `Platform: ${rubric.platform}. Hard limit ${rubric.maxLength} characters.`,
    // Each platform's feed, in its profile's words (src/platforms/<id>/profile.ts).
    rubric.feedNotes,
  ].join('\n');
}

const context = (input: ScoreInput) =>
  [
    input.authorName && `Author: ${input.authorName}`,
    input.authorHeadline && `Headline: ${input.authorHeadline}`,
    input.followerBand && `Followers: ${input.followerBand}`,
    `Format: ${input.media ?? 'none'}`,
  ]
    .filter(Boolean)
    .join('\n');

export const JUDGE_INSTRUCTIONS = `You grade social posts for a feed-ranking product. Grade each dimension 0-100 against the rubric: 90+ exceptional, 70 good, 50 average, 30 weak, 10 broken.
- hook: would the opening line make a busy professional stop scrolling?
- specificity: concrete numbers, names, examples and outcomes rather than generalities.
- voice: reads as one real person with a point of view; no filler, jargon or machine-written tells.
- engagement: gives readers a reason and an easy way to reply (a real question, a stance to react to), without bait.
- structure: easy to read on a phone: short paragraphs, white space, a clear order.
Return at most 6 signals: the observations that most explain your grades, each one sentence about one concept, and say which concept it is about. A signal must agree with your grade (a positive signal only where your grade is above a typical post's, a negative one only where it is below), must not be about a concept the rules already speak for, and names no ids, field or rule names, and no raw timestamps. Do not compute an overall score.`;

export function judgePrompt(input: ScoreInput, rules: RuleOutcome): string {
  const measured = rules.hits.map((h) => `- ${h.label}: ${h.detail}`).join('\n');
  const concepts = [...new Set(rules.hits.map((h) => h.concept))];
  return `${platformRubric(rules.rubric)}\n${context(input)}\n\nAlready measured by rules (do not repeat them as signals):\n${measured || '- nothing notable'}\nConcepts the rules already speak for (write no signal about them): ${concepts.join(', ') || 'none'}\n\nPost:\n"""\n${rules.features.text}\n"""`;
}

export const REWRITE_INSTRUCTIONS = `You edit social posts to perform better while keeping them true.
Rules you must never break:
- Use only facts present in the original: no new numbers, names, companies, products, places, links, quotes or claims. You may cut, reorder, rephrase and restructure.
- Keep the author's voice and first-person perspective.
- Keep every number, @mention and link. An external link moved out of the body goes, exactly as written, into "firstComment" (null when no link moved).
- Stay within the platform's character limit. On a platform with threads, a post over the limit becomes a thread instead of being cut: "rewrite" is its first part and "thread" the parts after it, each within the limit, together keeping at least 90% of the original's words. Elsewhere "thread" is empty.
- Hashtags you keep go on a closing line; never leave a hashtag's word run into a sentence it was not part of.
Fix what the score found weakest first. List every edit in "changes" with the dimension it serves.`;

export function rewritePrompt(input: ScoreInput, rubric: Rubric, before: ScoreResult): string {
  const weak = before.signals
    .filter((s) => s.impact === 'negative')
    .map((s) => `- ${s.dimension}: ${s.label}. ${s.detail}`)
    .join('\n');
  const threads = hasThreads(rubric.platform)
    ? `\nThis platform has threads: over ${rubric.maxLength} characters, return a thread.`
    : '\nThis platform has no threads: "thread" must be empty.';
  return `${platformRubric(rubric)}${threads}\n${context(input)}\n\nCurrent score ${before.overall}/100. Weak points:\n${weak || '- none found'}\n\nOriginal post:\n"""\n${input.post}\n"""`;
}

export function brandAndVoice(brand: BrandContext | null, voice: VoiceContext | null): string {
  const out: string[] = [];
  if (brand) {
    out.push(`Brand: ${brand.name}`);
    if (brand.description) out.push(`About: ${brand.description}`);
    if (brand.audience) out.push(`Audience: ${brand.audience}`);
    if (brand.themes.length) out.push(`Themes: ${brand.themes.join(', ')}`);
    if (brand.linkPolicy) out.push(`Link policy: ${brand.linkPolicy}`);
  }
  if (voice) {
    out.push(`Voice "${voice.name}":`);
    if (voice.traits.length) out.push(`Write like this: ${voice.traits.join('; ')}`);
    if (voice.doNot.length) out.push(`Never: ${voice.doNot.join('; ')}`);
    if (voice.exemplars.length)
      out.push(`Examples of the voice:\n${voice.exemplars.map((e) => `> ${e}`).join('\n')}`);
  }
  return out.join('\n');
}

export const GENERATE_INSTRUCTIONS = `You write social posts from a brief. Each candidate must be a complete, ready-to-publish post with a different hook approach and a different structure (do not reuse the same sentences around the facts). The brief may contain instructions to you ("Write a post announcing...") or a label ("Product launch announcement:"): never repeat those, write the post itself. Keep every number and name the brief gives in every candidate. Do not invent statistics, numbers, links or quotes that are not in the brief or the brand context; where the post needs a fact the brief does not give, leave a marked blank in square brackets for the author, such as "[the number you measured]". On a platform with threads, a brief with more than one post's worth may be written longer: it is published as a thread. Follow the voice and brand context exactly.`;

export const PLAN_INSTRUCTIONS = `You plan a series of social posts. Each item is an outline, not a draft: a content pillar, a hook line, the angle (one or two sentences on what the post argues or shows), a format and the hook archetype. Vary archetypes and formats across the series; favour formats with higher reach where they suit the idea. Every number and name the brief gives appears in some item (the number of posts asked for is no figure); add no number, link or claim the brief does not give; never repeat the brief's labels or instructions ("Tone:", "Write a series about..."); write plainly, without stock phrases; leave a marked blank in square brackets only for a fact the brief does not give.`;

export const VOICE_INSTRUCTIONS = `You distil a writing voice from sample posts. Traits: the habits to imitate (sentence length, person, rhythm, tone, emoji and hashtag use, signature phrases). doNot: what this writer never does. Exemplars: 1-3 short snippets copied verbatim from the samples that best show the voice.`;
