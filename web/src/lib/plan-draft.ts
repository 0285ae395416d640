import type { PlatformId } from '../api.ts';
import { api, ok, type Post, type Schemas } from '../api.ts';

type PlanItem = Schemas['PlanItem'];

/** What the plan was made with; the draft is written for the same platform, brand and voice. */
export interface PlanContext {
  brief: string;
  platform: PlatformId;
  brandId?: string;
  voiceId?: string;
  /** True when the plan came from the offline engine (generate then runs offline too). */
  offline: boolean;
}

/** The API's cap on a brief. */
const BRIEF_MAX = 5_000;

/**
 * The generate brief for one outline item. A model reads instructions, so it gets the pillar, the
 * hook to open with and the angle as what the post should do. The offline engine fills templates
 * with the brief's own sentences, so an angle ("Tell the lesson ... you learned") would be copied
 * into the post as text: offline the brief is the hook, then the plan's brief for its facts.
 */
export function generateBriefFor(item: PlanItem, plan: PlanContext): string {
  const facts = plan.brief.trim();
  if (plan.offline) return `${item.hook}\n\n${facts}`.slice(0, BRIEF_MAX);
  const outline = [
    'Write the finished post for this outline item.',
    `Pillar: ${item.pillar}.`,
    `Open with this hook: ${item.hook}`,
    `What the post should do: ${item.angle}`,
    'Background (the brief the plan was made from):',
  ].join('\n');
  return `${outline}\n${facts.slice(0, BRIEF_MAX - outline.length - 1)}`;
}

/** Writes the post from the outline (POST /v1/generate), then saves the best candidate as a draft. */
export async function draftFromPlanItem(item: PlanItem, plan: PlanContext): Promise<Post> {
  const { brandId, voiceId, platform } = plan;
  const generated = await ok(
    api.POST('/v1/generate', {
      body: {
        brief: generateBriefFor(item, plan),
        archetype: item.archetype,
        media: item.format,
        platform,
        count: 1,
        ...(brandId ? { brandId } : {}),
        ...(voiceId ? { voiceId } : {}),
      },
    }),
  );
  // Candidates come sorted by score, best first.
  const best = generated.candidates[0];
  if (!best) throw new Error('The engine wrote no post for this item; try again.');
  const { post } = await ok(
    api.POST('/v1/posts', { body: { text: best.post, platform, ...(brandId ? { brandId } : {}) } }),
  );
  return post;
}
