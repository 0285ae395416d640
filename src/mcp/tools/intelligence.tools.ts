import type { z } from 'zod';
import {
  GenerateRequest,
  GenerateResult,
  PlanRequest,
  PlanResult,
  RewriteResult,
  ScoreRequest,
  ScoreResult,
} from '../../features/intelligence/intelligence.schemas.ts';
import {
  generatePosts,
  planPosts,
  rewriteText,
  scoreText,
} from '../../features/intelligence/intelligence.service.ts';
import { platformChoiceProse, threadedPlatformsProse } from '../../platforms/profile-prose.ts';
import { defineTool, plural, readOnly } from '../tool.ts';

/** Said once in every model-backed description, so a model can weigh the call. */
export const MODEL_COST =
  'Costs one model-backed operation from the monthly quota (quota_exceeded past it; the same input again within 30 days is cached and free) and counts against the per-minute model budget (rate_limited).';

const oneLine = (text: string, max = 90) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** `62/100 — verdict; weakest: specificity 40, hook 45`. */
function scoreLine(score: z.output<typeof ScoreResult>): string {
  const weakest = Object.entries(score.breakdown)
    .sort(([, a], [, b]) => a - b)
    .slice(0, 2)
    .map(([dimension, value]) => `${dimension} ${Math.round(value)}`)
    .join(', ');
  return `${Math.round(score.overall)}/100 (${score.verdict}); weakest: ${weakest}`;
}

export const intelligenceTools = [
  defineTool({
    name: 'score_post',
    title: 'Score a post',
    description: `Grades a post's text 0-100 against the platform's feed-ranking behaviour (${platformChoiceProse()}) and explains why: a breakdown over hook, algorithmFit, specificity, structure, voice and engagement, ranked signals naming what helps and hurts, the hook archetype and the media format's effect (an omitted media is scored as text only). Use it to check a draft before creating or scheduling it, or to compare alternatives; pass media, followerBand, dayOfWeek and hourLocal when known for a sharper grade. Nothing is saved. ${MODEL_COST}`,
    input: ScoreRequest,
    output: ScoreResult,
    annotations: readOnly,
    scope: 'write',
    modelBacked: true,
    idempotentAs: { method: 'POST', url: '/v1/score', status: 200 },
    run: (ctx, input) => scoreText({ ctx, input }),
    summarize: (score) =>
      `Scored ${scoreLine(score)}. ${score.signals
        .slice(0, 3)
        .map((s) => `${s.impact === 'negative' ? 'Hurts' : 'Helps'}: ${s.detail}`)
        .join(' ')} ${plural(score.signals.length, 'signal')} in all.`,
  }),
  defineTool({
    name: 'rewrite_post',
    title: 'Rewrite a post',
    description: `Rewrites a post to score better without inventing facts, and reports an honest before/after: the original's score, the rewrite, what changed per dimension, and the rewrite's score exactly as measured (it can be lower; then keep the original). Use it when a draft scores poorly; read the changes before adopting it. Takes the same arguments as score_post. A link moved out of the body comes back in firstComment; on a platform with threads (${threadedPlatformsProse()}) a post over the limit comes back as a thread (rewrite is its first part, thread the replies, each within the limit), and after scores the first part, the post the feed ranks. Nothing is saved: create_post the version you keep, passing rewrite as text with its thread and firstComment. ${MODEL_COST}`,
    input: ScoreRequest,
    output: RewriteResult,
    annotations: readOnly,
    scope: 'write',
    modelBacked: true,
    idempotentAs: { method: 'POST', url: '/v1/rewrite', status: 200 },
    run: (ctx, input) => rewriteText({ ctx, input }),
    summarize: ({ before, after, changes, thread, firstComment }) => {
      const delta = Math.round(after.overall) - Math.round(before.overall);
      const verdict = delta > 0 ? `+${delta}` : delta === 0 ? 'no change' : `${delta}: keep the original`;
      const parts = [
        thread.length ? ` It is a thread of ${thread.length + 1} parts.` : '',
        firstComment
          ? firstComment.includes('\n')
            ? ' The moved links go in the first comment.'
            : ' The moved link goes in the first comment.'
          : '',
      ].join('');
      return `Rewrite scored ${Math.round(after.overall)}/100 vs ${Math.round(before.overall)}/100 for the original (${verdict}); ${plural(changes.length, 'change')}.${parts}`;
    },
  }),
  defineTool({
    name: 'generate_post',
    title: 'Generate post drafts',
    description: `Writes 1-3 complete post drafts (count, default 1) from a brief, each already scored, best first. Condition them with brandId (from list_brands) and voiceId (from list_voices) so they sound like the author, and archetype to pick the hook style. Use it to turn an idea or a plan_week item into text; then create_post the chosen draft. Every draft keeps the brief's numbers and names and never repeats its instruction or label; where the brief lacks a fact a draft needs, the draft has a marked blank in square brackets ("[the number you measured]") for the writer to fill before posting. On a platform with threads (${threadedPlatformsProse()}) a draft longer than one post comes back as a thread (post is its first part and what score grades, thread the replies, each within the limit): pass both to create_post. Nothing is saved. invalid_request naming brandId or voiceId when it is not the account's. ${MODEL_COST} One call costs one operation whatever the count.`,
    input: GenerateRequest,
    output: GenerateResult,
    annotations: readOnly,
    scope: 'write',
    modelBacked: true,
    idempotentAs: { method: 'POST', url: '/v1/generate', status: 200 },
    run: (ctx, input) => generatePosts({ ctx, input }),
    summarize: ({ candidates }) =>
      `${plural(candidates.length, 'draft')}, best first.${candidates
        .map(
          (c, i) =>
            `\n${i + 1}. ${Math.round(c.score.overall)}/100${c.thread.length ? ` (a thread of ${c.thread.length + 1} parts)` : ''}: ${oneLine(c.post)}`,
        )
        .join('')}`,
  }),
  defineTool({
    name: 'plan_week',
    title: 'Plan a week of posts',
    description: `Plans a content calendar of 1-14 post ideas (count, default 5) from a brief: each item has a slot number, a content pillar, a hook, an angle, a media format and a hook archetype. Offline, hooks are made from the brief's own sentences, claims and figures where it has them. It is an outline, not finished text. Each item also has evidence (the author's own figures when a history is imported with import_history, else that it rests on published figures) and when, the instant it suggests: the next of the author's best weekly windows in the account's time zone, or, with channelId (from list_channels) of a channel whose queue has slots, the queue's next free slots (those in the author's best windows first), or null with neither. With brandId the brand's themes add to the brief's own as pillars; with cadence (daily, weekdays, 3x-week) each angle starts with its publishing day. Nothing is saved or scheduled: keep it with save_plan (pass the same channelId) and turn it into drafts with plan_to_drafts, optionally scheduled on each item's when. invalid_request naming channelId when it is not the account's or is another platform's. ${MODEL_COST}`,
    input: PlanRequest,
    output: PlanResult,
    annotations: readOnly,
    scope: 'write',
    modelBacked: true,
    idempotentAs: { method: 'POST', url: '/v1/plan', status: 200 },
    run: (ctx, input) => planPosts({ ctx, input }),
    summarize: ({ items }) =>
      `${plural(items.length, 'plan item')}.${items
        .map(
          (item) =>
            `\n${item.slot}. [${item.pillar}] ${oneLine(item.hook)} (${item.format}, ${item.archetype})`,
        )
        .join('')}`,
  }),
];
