import { hasThreads } from '../../platforms/profiles.ts';
import type { Engine } from '../engine-interface.ts';
import type { Judge } from '../judge/judge.ts';
import { type Rubric, rubricFor } from '../rules/rubrics.ts';
import { offlineMeasure } from '../scorer.ts';
import { inventedFacts, linksLost, wordsKept } from '../text/facts.ts';
import { normalizePost } from '../text/text-features.ts';
import { generateOffline } from '../writers/generate-offline.ts';
import { briefTopics, pillarsFor, planOffline } from '../writers/plan-offline.ts';
import { rewriteOffline } from '../writers/rewrite-offline.ts';
import { fitsPart } from '../writers/rewrite-thread.ts';
import { type ModelClient, ModelError } from './client.ts';
import { type DraftGate, draftSetFailures, retryProblem } from './draft-gate.ts';
import { notesBreaking } from './judge-notes.ts';
import { PLANNED_BY_MODEL, type PlanTopics, planFailures, planFellBack } from './plan-gate.ts';
import {
  brandAndVoice,
  GENERATE_INSTRUCTIONS,
  JUDGE_INSTRUCTIONS,
  judgePrompt,
  PLAN_INSTRUCTIONS,
  platformRubric,
  REWRITE_INSTRUCTIONS,
  rewritePrompt,
  VOICE_INSTRUCTIONS,
} from './prompts.ts';
import { GenerateOutput, JudgeOutput, PlanOutput, RewriteOutput, VoiceOutput } from './schemas.ts';
import { standInForFailures } from './stand-in.ts';

/**
 * The model engine: the same operations as the heuristic engine, written by a language
 * model with typed output. Where honesty is at stake (rewrite, generate) a model answer that
 * still invents facts after its one retry is replaced by the deterministic offline result,
 * and the change list says so; everything else that misbehaves is a 502.
 */

/**
 * What is wrong with a model rewrite, for its one retry: a part over the limit, a thread where
 * the platform has none, a thread that drops more than a tenth of the words, an invented fact,
 * a lost link.
 */
function rewriteProblem(
  original: string,
  rubric: Rubric,
  v: { rewrite: string; thread?: string[]; firstComment?: string | null },
): string | null {
  const text = normalizePost(v.rewrite);
  if (!text) return 'the rewrite is empty';
  const thread = (v.thread ?? []).map(normalizePost).filter(Boolean);
  const threaded = hasThreads(rubric.platform);
  if (thread.length && !threaded) return `${rubric.platform} has no threads: return the post alone`;
  for (const part of [text, ...thread])
    if (!fitsPart(rubric.platform, part, rubric.maxLength))
      return `a part is ${part.length} characters; the limit is ${rubric.maxLength}`;
  const all = [text, ...thread, v.firstComment ?? ''].join('\n');
  const invented = inventedFacts(original, all);
  if (invented.length) return `it adds facts absent from the original: ${invented.slice(0, 6).join(', ')}`;
  const lost = linksLost(original, all);
  if (lost.length) return `it drops links; put them in firstComment: ${lost.join(', ')}`;
  if (thread.length && wordsKept(original, all) < 0.9)
    return 'the thread drops more than a tenth of the original words; keep them';
  return null;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The pillars the model is given, in the order the offline plan alternates them (the brief's
 * topics first): with a brand, both lists are said apart, so the brand's themes read as an
 * addition to the brief, never as its replacement.
 */
function pillarLine(topics: PlanTopics, pillars: string[]): string {
  const brief = topics.brief.length ? topics.brief.join(' | ') : null;
  if (!topics.brand.length)
    return brief
      ? `Pillars, spelled exactly: ${pillars.join(' | ')}.\nEvery one of the brief's topics (${brief}) appears in some item.`
      : `Suggested pillars: ${pillars.join(' | ')}.`;
  return `Pillars, spelled exactly: ${pillars.join(' | ')}.\n${brief ? `The brief's own topics (${brief}) stay in the plan, each in some item; the` : 'The'} brand's themes (${topics.brand.join(' | ')}) add to ${brief ? 'them' : 'the brief'}: give them items of their own, never replace the brief's topics with them.`;
}

export function createModelEngine(client: ModelClient): Engine {
  const judge: Judge = {
    id: client.id,
    async grade(input, rules) {
      const spoken = new Set(rules.hits.map((h) => h.concept));
      const brokenBy = (v: JudgeOutput) => notesBreaking(v, spoken);
      const out = await client.generate({
        task: 'judge',
        schema: JudgeOutput,
        instructions: JUDGE_INSTRUCTIONS,
        prompt: judgePrompt(input, rules),
        check: (v) => {
          const broken = brokenBy(v);
          return broken.length ? broken.flatMap((b) => b.breaks.map((x) => x.problem)).join('; ') : null;
        },
        // The grades stand; notes still breaking a rule after the retry are left out.
        settle: (v) => {
          const drop = new Set(brokenBy(v).map((b) => b.index));
          return { ...v, signals: v.signals.filter((_, i) => !drop.has(i)) };
        },
      });
      return { scores: out.scores, signals: out.signals };
    },
  };

  return {
    id: client.id,
    judge,

    async rewrite(input, before) {
      const rubric = rubricFor(input.platform);
      try {
        const out = await client.generate({
          task: 'rewrite',
          schema: RewriteOutput,
          instructions: REWRITE_INSTRUCTIONS,
          prompt: rewritePrompt(input, rubric, before),
          temperature: 0.3,
          check: (v) => rewriteProblem(input.post, rubric, v),
        });
        return {
          rewrite: normalizePost(out.rewrite),
          thread: (out.thread ?? []).map(normalizePost),
          firstComment: out.firstComment ? normalizePost(out.firstComment) : null,
          changes: out.changes,
        };
      } catch (err) {
        if (!(err instanceof ModelError && err.checkFailed)) throw err;
        const offline = rewriteOffline(input, offlineMeasure(input));
        return {
          rewrite: offline.rewrite,
          thread: offline.thread,
          firstComment: offline.firstComment,
          changes: [
            {
              dimension: 'specificity',
              note: 'The model rewrite added facts that are not in the original or lost part of the post, so only safe deterministic edits were applied.',
            },
            ...offline.changes,
          ],
        };
      }
    },

    async generate(input, context) {
      const rubric = rubricFor(input.platform);
      const count = Math.min(3, Math.max(1, input.count ?? 1));
      const gate: DraftGate = {
        brief: input.brief,
        source: [
          input.brief,
          input.authorName,
          input.authorHeadline,
          brandAndVoice(context.brand, context.voice),
        ].join('\n'),
        platform: rubric.platform,
      };
      const failuresOf = (v: GenerateOutput) =>
        draftSetFailures(
          gate,
          v.candidates.map((c) => normalizePost(c.post)),
        );
      const out = await client.generate({
        task: 'generate',
        schema: GenerateOutput,
        instructions: GENERATE_INSTRUCTIONS,
        prompt: `${platformRubric(rubric)}\nFormat: ${input.media ?? 'none'}\n${input.archetype ? `Lead with a ${input.archetype} hook.\n` : ''}${brandAndVoice(context.brand, context.voice)}\n\nWrite exactly ${count} candidate post(s).\n\nBrief:\n"""\n${input.brief}\n"""`,
        temperature: 0.7,
        check: (v) => {
          if (v.candidates.length !== count)
            return `return exactly ${count} candidates, not ${v.candidates.length}`;
          return retryProblem(failuresOf(v));
        },
        // Still failing after the retry: the drafts that pass are kept, the others replaced below.
        settle: (v) => v,
      });
      return standInForFailures(
        out.candidates.slice(0, count).map((c) => normalizePost(c.post)),
        failuresOf({ candidates: out.candidates.slice(0, count) }),
        () => generateOffline(input, context),
      );
    },

    async plan(input, context) {
      const rubric = rubricFor(input.platform);
      const count = Math.min(14, Math.max(1, input.count ?? 5));
      const themes = context.brand?.themes.filter((t) => t.trim()) ?? [];
      // A brand's themes add to the brief's topics, never replace them (issue 34): the model is
      // told both, and a plan that drops the brief's topics fails the check like a lost number.
      const topics = { brief: briefTopics(input.brief), brand: themes };
      const pillars = pillarsFor(input.brief, context.brand);
      const gate: DraftGate = {
        brief: input.brief,
        source: [
          input.brief,
          input.authorName,
          input.authorHeadline,
          brandAndVoice(context.brand, null),
        ].join('\n'),
        platform: rubric.platform,
      };
      // What the plan must be (count, formats): an answer still wrong there is a 502.
      const shapeProblem = (v: PlanOutput) => {
        if (v.items.length !== count) return `return exactly ${count} items, not ${v.items.length}`;
        const bad = v.items.find((i) => !rubric.formats.includes(i.format));
        if (bad) return `format "${bad.format}" is not available on ${rubric.platform}`;
        return null;
      };
      const failuresOf = (v: PlanOutput) => planFailures(gate, v.items, topics);
      const out = await client.generate({
        task: 'plan',
        schema: PlanOutput,
        instructions: PLAN_INSTRUCTIONS,
        prompt: `${platformRubric(rubric)}\nFormats available: ${rubric.formats.join(', ')}\n${brandAndVoice(context.brand, context.voice)}\n\nPlan exactly ${count} posts. ${pillarLine(topics, pillars)}\n\nBrief:\n"""\n${input.brief}\n"""`,
        temperature: 0.5,
        check: (v) =>
          shapeProblem(v) ??
          (failuresOf(v)
            .map((f) => f.problem)
            .join('; ') ||
            null),
        // Right in shape but failing the checks on the brief: the offline plan answers below.
        settle: (v) => {
          const problem = shapeProblem(v);
          if (problem)
            throw new ModelError(
              'The model returned malformed output twice; retry the request.',
              `plan: ${problem}`,
              true,
            );
          return v;
        },
      });
      const [failed] = failuresOf(out);
      if (failed) return { outlines: planOffline(input, context.brand), writtenBy: planFellBack(failed) };
      return {
        outlines: out.items.map((i) => ({
          ...i,
          // A pillar that is a brand theme is reported in the brand's own spelling.
          pillar: themes.find((t) => squash(t) === squash(i.pillar)) ?? i.pillar,
        })),
        writtenBy: PLANNED_BY_MODEL,
      };
    },

    async distillVoice(samples) {
      const corpus = samples.map(squash);
      const out = await client.generate({
        task: 'voice',
        schema: VoiceOutput,
        instructions: VOICE_INSTRUCTIONS,
        prompt: samples.map((s, i) => `Sample ${i + 1}:\n"""\n${s}\n"""`).join('\n\n'),
        check: (v) => {
          const stray = v.exemplars.find((e) => !corpus.some((c) => c.includes(squash(e))));
          return stray ? `exemplar "${stray.slice(0, 60)}" is not copied verbatim from the samples` : null;
        },
      });
      return { traits: out.traits, doNot: out.doNot, exemplars: out.exemplars };
    },
  };
}
