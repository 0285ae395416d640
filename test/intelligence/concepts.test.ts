import { describe, expect, it } from 'vitest';
import { CONCEPT_DESCRIPTIONS, CONCEPTS, conceptOfRule, RULE_CONCEPTS } from '../../src/scoring/concepts.ts';
import { RULE_FEATURES } from '../../src/scoring/learned/features.ts';
import { QUALITY_RULES } from '../../src/scoring/rules/rules-quality.ts';

describe('writer-facing concepts', () => {
  it('every rule the model reads, and every text-quality rule, belongs to exactly one known concept', () => {
    const rules = [...RULE_FEATURES.map(([name]) => name), ...QUALITY_RULES];
    for (const rule of rules) expect(CONCEPTS).toContain(conceptOfRule(rule));
    for (const [rule, concept] of Object.entries(RULE_CONCEPTS)) expect(CONCEPTS, rule).toContain(concept);
  });

  it('an unregistered rule is refused, not sorted into a concept by default', () => {
    expect(() => conceptOfRule('no.such_rule')).toThrow(/no concept/);
  });

  it('every concept is described in a sentence', () => {
    for (const c of CONCEPTS) expect(CONCEPT_DESCRIPTIONS[c]).toMatch(/^[A-Z].+\.$/);
    expect(new Set(CONCEPTS).size).toBe(CONCEPTS.length);
  });
});
