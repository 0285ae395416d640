import type { Concept } from '../concepts.ts';
import type { JudgedDimension } from '../judge/judge.ts';
import { conceptsOfNote, type NoteBreak, noteBreaks } from '../judge/note-rules.ts';
import { featureIndex } from '../learned/features.ts';
import { scoreModel } from '../learned/model.ts';
import type { JudgeOutput } from './schemas.ts';

/**
 * The note rules (judge/note-rules.ts) applied to a model judge's answer before the score is
 * made: what is known then is the rules that fired (their concepts are spoken for) and the
 * judge's own grades, whose learned effect is the direction the score will count for the concept
 * each grades (a positive note on an opening graded below a typical post's contradicts it).
 */

const JUDGED: readonly JudgedDimension[] = ['hook', 'specificity', 'voice', 'engagement'];
const CONCEPT_OF: Record<JudgedDimension, Concept> = {
  hook: 'opening',
  specificity: 'specifics',
  voice: 'voice',
  engagement: 'questions',
};

/** The learned effect of each judged grade, by the concept it speaks for (points). */
function gradeEffects(scores: JudgeOutput['scores']): Map<Concept, number> {
  const model = scoreModel();
  const out = new Map<Concept, number>();
  for (const d of JUDGED) {
    const i = featureIndex(`judge.${d}`);
    const f = i === undefined ? undefined : model.features[i];
    if (!f) continue;
    out.set(
      CONCEPT_OF[d],
      (out.get(CONCEPT_OF[d]) ?? 0) + model.scale * f.weight * (scores[d] / 100 - f.mean),
    );
  }
  return out;
}

/** The notes of an answer that break a rule, by position, each with what it breaks. */
export function notesBreaking(
  answer: JudgeOutput,
  rulesSpoken: ReadonlySet<Concept>,
): { index: number; breaks: NoteBreak[] }[] {
  const effects = gradeEffects(answer.scores);
  const spoken = new Set(rulesSpoken);
  const out: { index: number; breaks: NoteBreak[] }[] = [];
  for (const [index, note] of answer.signals.entries()) {
    const breaks = noteBreaks(note, { spoken, net: (c) => effects.get(c) ?? 0 });
    if (breaks.length) out.push({ index, breaks });
    else for (const c of conceptsOfNote(note)) spoken.add(c);
  }
  return out;
}
