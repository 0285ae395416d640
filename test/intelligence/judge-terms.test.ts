import { expect, it } from 'vitest';
import { GRADE_BASE, gradeHeuristically, gradeTerms } from '../../src/scoring/judge/heuristic-judge.ts';
import type { JudgedDimension } from '../../src/scoring/judge/judge.ts';
import { clamp } from '../../src/scoring/rules/rule-kit.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import type { ScoreInput } from '../../src/scoring/types.ts';
import { FORMULAIC_POSTS } from '../fixtures/formulaic-posts.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 32, pointed at the text: a heuristic grade's signal says what in the post moved the grade
 * ("rates the pull to respond at 31/100 for asking 3 questions") instead of what the formula
 * rewards in general. What it names is true only if gradeTerms adds up to the grade itself.
 */

const DIMENSIONS: readonly JudgedDimension[] = ['hook', 'specificity', 'voice', 'engagement'];

const inputs = (): ScoreInput[] => {
  const real = [...readRealPosts('linkedin-creator-posts.csv'), ...readRealPosts('linkedin-posts-2025.csv')]
    .filter((p) => !p.heldOut && p.text.trim().length > 0)
    .map((p) => ({ post: p.text }));
  const formulaic = FORMULAIC_POSTS.map((p) => ({ post: p.text }));
  return [...real, ...formulaic].flatMap((i) => [
    i,
    { post: i.post.slice(0, 280), platform: 'platformB' as const },
  ]);
};

describeRealPosts('heuristic grades told by what moved them', () => {
  it('adds up: the base and the terms give the grade, on every post and dimension', () => {
    let checked = 0;
    const off: string[] = [];
    for (const input of inputs()) {
      const rules = runRules(input);
      const grades = gradeHeuristically(rules).scores;
      for (const d of DIMENSIONS) {
        const sum = gradeTerms(rules, d).reduce((s, t) => s + t.points, GRADE_BASE[d]);
        if (Math.abs(clamp(sum) - grades[d]) > 1e-9)
          off.push(`${d} ${grades[d]} vs ${sum}: ${input.post.slice(0, 40)}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30_000);
    expect(off).toEqual([]);
  }, 120_000);

  it('names only what moved the grade its way, marks it in the post, and never the generic signal’s words', () => {
    let told = 0;
    const wrong: string[] = [];
    const kinds = new Set<string>();
    for (const input of inputs()) {
      const { signals } = scoreHeuristically(input);
      const rules = runRules(input);
      const genericShown = signals.some((s) => s.concept === 'generic' && s.impact === 'negative');
      for (const s of signals) {
        if (!s.label.endsWith('(heuristic grade)')) continue;
        const d = DIMENSIONS.find((x) => s.rule === `judge.${x}`)!;
        const named = /\/100 for (.+), where a typical post gets /.exec(s.detail)?.[1];
        if (named === undefined) continue;
        told++;
        kinds.add(named.replace(/\d+/g, 'N'));
        const way = gradeTerms(rules, d).filter((t) => t.points > 0 === (s.impact === 'positive'));
        for (const t of way)
          if (named.includes(t.says) && t.owner === 'generic' && genericShown)
            wrong.push(`repeats generic: ${s.detail}`);
        // What is left once every term that moved it this way is taken out: only the list's joins.
        let rest = named;
        for (const t of [...way].sort((a, b) => b.says.length - a.says.length))
          rest = rest.replace(t.says, '');
        if (!/^(?:, | and )*$/.test(rest)) wrong.push(`"${rest}" did not move it ${s.impact}: ${s.detail}`);
        for (const span of s.spans)
          if (!(span.start >= 0 && span.end <= input.post.length && span.start < span.end))
            wrong.push(`span ${span.start}-${span.end}`);
      }
    }
    // Measured 2026-12-04: 1,300 or so heuristic-grade signals name what moved them on these posts.
    expect(told).toBeGreaterThan(1_000);
    // What lowered a grade is named too, not only what lifted it.
    expect(kinds).toContain('asking N questions');
    expect(kinds).toContain('its N words');
    expect(wrong).toEqual([]);
  }, 180_000);
});
