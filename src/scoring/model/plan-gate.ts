import type { DraftCheck } from '../../domain/enums.ts';
import type { WrittenBy } from '../engine-interface.ts';
import { type DraftFailure, type DraftGate, draftFailures } from './draft-gate.ts';

/**
 * The draft gate (draft-gate.ts) on a model's plan (issue 34 item 4): a plan is outlines, not
 * posts, so the brief's numbers and names must each appear somewhere in it (an item per point
 * may hold one figure each), while every item on its own repeats no label or instruction of the
 * brief, adds no number or link, carries no AI tell and leaves no blank where the brief gives the
 * fact. The requested count ("a 5-post series") is no figure to keep. And a plan stays about its
 * brief: the brief's topics appear in it (as many as it has items for them), a brand's themes beside them,
 * never instead of them.
 */

export interface OutlineText {
  pillar?: string;
  hook: string;
  angle: string;
}

/** What a plan must stay about: the brief's topics, and the brand's themes added to them. */
export interface PlanTopics {
  /** The brief's own topics (plan-offline.ts `briefTopics`). */
  brief: readonly string[];
  /** The brand's themes, none without a brand. */
  brand: readonly string[];
}

/** A topic's words, each as a stem ("handovers" and "handover" are one), without short words. */
const stems = (s: string) =>
  (s.toLowerCase().match(/\p{L}[\p{L}\p{N}'’]*/gu) ?? [])
    .filter((w) => w.length > 2)
    .map((w) =>
      w
        .replace(/['’]s$/, '')
        .replace(/ies$/, 'y')
        .replace(/(?<!s)s$/, ''),
    );

/** Whether `text` names `topic`: the topic's last word (its head noun) is there, as a stem. */
export function namesTopic(text: string, topic: string): boolean {
  const head = stems(topic).at(-1);
  return head !== undefined && stems(text).includes(head);
}

/**
 * The brief's topics a plan of `items` leaves out, when it names fewer of them than it has items
 * for the brief (all, or with a brand half: a plan of two items need not hold four topics), or a
 * brand's themes when it names none of them (a plan of two items or more).
 */
export function topicFailures(topics: PlanTopics, items: readonly OutlineText[]): DraftFailure[] {
  const all = items.map((i) => `${i.pillar ?? ''} ${i.hook} ${i.angle}`).join('\n');
  const out: DraftFailure[] = [];
  const missing = topics.brief.filter((t) => !namesTopic(all, t));
  // With a brand, half the items (the odd slots, as the offline plan alternates them) are the brief's.
  const slots = topics.brand.length ? Math.ceil(items.length / 2) : items.length;
  if (topics.brief.length - missing.length < Math.min(topics.brief.length, slots))
    out.push({
      check: 'topics',
      problem: `the plan leaves out the brief's topics ${listed(missing)}: keep them in the items; a brand's themes add to the brief, never replace it`,
      plain: `left out ${missing.length === 1 ? 'a topic' : 'topics'} the brief gives (${listed(missing)})`,
    });
  if (topics.brand.length && items.length > 1 && !topics.brand.some((t) => namesTopic(all, t)))
    out.push({
      check: 'topics',
      problem: `the plan names none of the brand's themes ${listed(topics.brand)}: give at least one item to them, beside the brief's topics`,
      plain: `named none of the brand's themes (${listed(topics.brand)})`,
    });
  return out;
}

const listed = (xs: readonly string[]) => xs.slice(0, 6).join(', ');

const ACROSS: ReadonlySet<DraftCheck> = new Set(['numbers', 'names']);
const EACH: ReadonlySet<DraftCheck> = new Set(['labels', 'invented', 'ai_tells', 'blanks']);

/** Numbers that count the posts asked for: "5 posts", "a 5-post series", "3 ideas". */
const COUNT = /(?<![\p{L}\d])(\d+)[\s-]*(?:posts?|slots?|items?|ideas?|drafts?|outlines?)\b/giu;
export const countNumbers = (brief: string) => [...brief.matchAll(COUNT)].map((m) => m[1]!);

/** What the plan fails, each problem naming its item for the retry; empty when it passes. */
export function planFailures(
  gate: DraftGate,
  items: readonly OutlineText[],
  topics: PlanTopics = { brief: [], brand: [] },
): DraftFailure[] {
  const text = (i: OutlineText) => `${i.hook}\n\n${i.angle}`;
  const across = draftFailures(gate, items.map(text).join('\n\n'), ACROSS, countNumbers(gate.brief)).map(
    (f) => ({ ...f, problem: f.problem.replace(/^it /, 'the plan ') }),
  );
  const each = items.flatMap((item, i) =>
    draftFailures(gate, text(item), EACH).map((f) => ({
      ...f,
      problem: `item ${i + 1}: ${f.problem.replace('write the post itself', 'write the outline itself')}`,
    })),
  );
  return [...across, ...topicFailures(topics, items), ...each];
}

export const PLANNED_BY_MODEL: WrittenBy = {
  engine: 'model',
  failedCheck: null,
  note: 'Planned by the language model.',
};

export const PLANNED_OFFLINE: WrittenBy = {
  engine: 'offline',
  failedCheck: null,
  note: "Planned by the offline engine from the brief's own words; no language model is configured.",
};

export function planFellBack(failed: DraftFailure): WrittenBy {
  return {
    engine: 'offline',
    failedCheck: failed.check,
    note: `Planned by the offline engine: the language model's plan ${failed.plain}, even after one retry.`,
  };
}
