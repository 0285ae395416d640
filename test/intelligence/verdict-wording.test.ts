import { describe, expect, it } from 'vitest';
import { labelInSentence } from '../../src/lib/label-in-sentence.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * The verdict names a signal inside its sentence ("fix first: post length"). It lowered the
 * whole label, so real posts read "fix first: ai-tells" and "\"not x but y\" cadence helps".
 */

describe('a label inside a sentence', () => {
  it('lowers a title-case first word only', () => {
    expect(labelInSentence('Post length')).toBe('post length');
    expect(labelInSentence('Em-dash stack')).toBe('em-dash stack');
    expect(labelInSentence('AI-tells')).toBe('AI-tells');
    expect(labelInSentence('"Not X but Y" cadence')).toBe('"Not X but Y" cadence');
    expect(labelInSentence('"We" and "our"')).toBe('"We" and "our"');
    expect(labelInSentence('LinkedIn reach')).toBe('LinkedIn reach');
    expect(labelInSentence('6 hashtags')).toBe('6 hashtags');
  });
});

describeRealPosts('verdicts on real posts', () => {
  const posts = [...readRealPosts('linkedin-creator-posts.csv'), ...readRealPosts('linkedin-posts-2025.csv')];

  it('name each signal as its label reads, acronyms and quotes as written', () => {
    let named = 0;
    for (const { text } of posts) {
      const { verdict, signals } = scoreHeuristically({ post: text });
      for (const s of signals) {
        const said = labelInSentence(s.label);
        if (!verdict.includes(`: ${said} `) && !verdict.includes(`: ${said}.`)) continue;
        named++;
        // Every capital run of the label is in the verdict as the label spells it.
        for (const run of s.label.slice(1).match(/\p{Lu}+/gu) ?? []) expect(verdict, s.label).toContain(run);
      }
      expect(verdict).not.toMatch(/\bai-tells\b|"not x but y"|"we" and "our"/);
    }
    expect(named).toBeGreaterThan(posts.length);
  });
});
