import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { repeatFirstSentence, shuffleWordsInLines } from '../../scripts/lib/degenerate.ts';
import { scoreModel } from '../../src/scoring/learned/model.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 22 items 1-3 as numbers, on real posts (never the held-out authors): degenerate
 * versions of a post score below it with a named reason, one image moves `overall` within
 * what the data supports, omitted media is text only, and every signal is plain English.
 */

const posts = [...readRealPosts('linkedin-creator-posts.csv'), ...readRealPosts('linkedin-posts-2025.csv')]
  .filter((p) => !p.heldOut && p.text.trim().length >= 200)
  .filter((_, i) => i % 25 === 0);
const inputOf = (p: (typeof posts)[number], post = p.text) => ({
  post,
  ...(p.media ? { media: p.media } : {}),
});
const share = (flags: boolean[]) => flags.filter(Boolean).length / flags.length;

describeRealPosts('score integrity on real posts', () => {
  it('samples enough posts to measure', () => {
    expect(posts.length).toBeGreaterThan(150);
  });

  it('shows a word-choice signal only naming words, on every real post (no held-out author), text only and with an image', () => {
    const all = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut);
    let shown = 0;
    for (const p of all) {
      for (const media of ['none', 'single-image'] as const) {
        const r = scoreHeuristically({ post: p.text, media });
        for (const s of r.signals.filter((x) => x.rule === 'text.word_choice')) {
          expect(s.detail, s.detail).toMatch(/^In the same authors' other posts, "/);
          shown++;
        }
      }
    }
    expect(shown).toBeGreaterThan(50);
  }, 60_000);

  it('scores the first sentence repeated to the length below the real post in >= 95%, saying why', () => {
    const results = posts.map((p) => {
      const real = scoreHeuristically(inputOf(p)).overall;
      const fake = scoreHeuristically(inputOf(p, repeatFirstSentence(p.text)));
      return { lower: fake.overall < real, named: fake.signals.some((s) => s.rule === 'writing.repetition') };
    });
    expect(share(results.map((r) => r.lower))).toBeGreaterThanOrEqual(0.95);
    expect(share(results.map((r) => r.named))).toBeGreaterThanOrEqual(0.9);
  });

  it('scores the words shuffled within each line below the real post in >= 90%, saying why', () => {
    const results = posts.map((p) => {
      const real = scoreHeuristically(inputOf(p)).overall;
      const fake = scoreHeuristically(inputOf(p, shuffleWordsInLines(p.text)));
      return { lower: fake.overall < real, named: fake.signals.some((s) => s.rule === 'writing.word_order') };
    });
    expect(share(results.map((r) => r.lower))).toBeGreaterThanOrEqual(0.9);
    expect(share(results.map((r) => r.named))).toBeGreaterThanOrEqual(0.85);
  });

  it('tells no plain English that its words are out of sentence order (real posts, and platitudes in short lines)', () => {
    const all = [
      ...readRealPosts('linkedin-creator-posts.csv'),
      ...readRealPosts('linkedin-posts-2025.csv'),
    ].filter((p) => !p.heldOut);
    const told = all.filter((p) =>
      runRules({ post: p.text }).hits.some((h) => h.rule === 'writing.word_order'),
    );
    // Measured 2026-12-03: 5 of 4,943 (two of them a "|" list and "ME ME ME"); 62 when the rule
    // spoke at the points' floor (headlines, names, lists).
    expect(told.length / all.length, told.map((p) => p.text.slice(0, 60)).join('\n')).toBeLessThan(0.003);
    const imperative =
      'Nobody talks about this, but the secret to happiness is gratitude.\n\nBe thankful.\n\nBe present.\n\nBe you.\n\nLike and share if this resonated.';
    expect(runRules({ post: imperative }).hits.map((h) => h.rule)).not.toContain('writing.word_order');
  }, 60_000);

  it('rarely flags real writing', () => {
    const flagged = posts.map((p) =>
      scoreHeuristically(inputOf(p)).signals.some((s) => s.rule?.startsWith('writing.')),
    );
    expect(share(flagged)).toBeLessThan(0.03);
  });

  it('moves overall by at most 12 points for one image against text, and omitted media is text only', () => {
    for (const p of posts) {
      const none = scoreHeuristically({ post: p.text, media: 'none' }).overall;
      expect(
        Math.abs(scoreHeuristically({ post: p.text, media: 'single-image' }).overall - none),
      ).toBeLessThanOrEqual(12);
      expect(scoreHeuristically({ post: p.text }).overall).toBe(none);
    }
    const media = scoreModel().media;
    expect(media['single-image']!.measured).toBe(true);
    expect(scoreModel().scale * media['single-image']!.effect).toBeLessThanOrEqual(12);
  });

  it('gives every judge grade a direction: a better grade never lowers the score', () => {
    for (const f of scoreModel().features.filter((f) => f.name.startsWith('judge.')))
      expect(f.weight, f.name).toBeGreaterThanOrEqual(0);
  });

  it('words every signal as plain English without template seams or contradictions', () => {
    const STOP = /^(?:the|a|an|and|or|but|of|to|in|on|for|with|what|it|is|if|you|i|we|https?|www|lnkd|com)$/;
    const CONCEPTS: [string, RegExp][] = [
      ['length', /^(?:length\.|text\.length)/],
      ['format', /^(?:format\.multiplier|media\.)/],
      ['sentences', /^(?:structure\.(?:sentence_band|few_sentences)|text\.sentences)$/],
      ['questions', /^(?:engagement\.closing_question|text\.(?:questions|ends_with_question))$/],
      ['we', /^(?:voice\.corporate_we|text\.first_person_plural)$/],
    ];
    for (const p of posts) {
      const r = scoreHeuristically(inputOf(p));
      const text = [r.verdict, ...r.signals.flatMap((s) => [s.label, s.detail])].join('\n');
      expect(text).not.toMatch(
        /is (?:above|below) the typical post|\ba other\b|\b1 sentences\b|\bthe judge\b|none format/i,
      );
      const written = p.text.replaceAll('’', "'");
      for (const s of r.signals.filter((s) => s.rule === 'text.word_choice')) {
        // A word-choice signal names the words a writer could change, or is not shown.
        expect(s.detail, s.detail).toMatch(/^In the same authors' other posts, "/);
        // ... as the post spells them: never "america" for a post that writes "America".
        for (const [, quoted] of s.detail.matchAll(/"([^"]+)"/g)) {
          const spellings = [
            ...written.matchAll(
              new RegExp(
                `(?<![\\p{L}\\p{N}])${quoted!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
                'giu',
              ),
            ),
          ].map((m) => m[0]);
          if (spellings.length) expect(spellings, `${quoted} in ${s.detail}`).toContain(quoted);
        }
        for (const [, quoted] of s.detail.matchAll(/"([^"]+)"/g))
          expect(
            quoted!.split(' ').every((w) => STOP.test(w)),
            `${quoted} in ${s.detail}`,
          ).toBe(false);
      }
      for (const [concept, re] of CONCEPTS) {
        const impacts = new Set(r.signals.filter((s) => s.rule && re.test(s.rule)).map((s) => s.impact));
        expect(impacts.size, `${concept}: ${text}`).toBeLessThanOrEqual(1);
      }
      if (r.signals.some((s) => s.rule?.startsWith('judge.')))
        expect(text).toMatch(/heuristic formula, not a reader/);
      // One line per label: two "Post length" lines with two figures read as a contradiction.
      const labels = r.signals.map((s) => s.label);
      expect(labels.length, text).toBe(new Set(labels).size);
      // Vague words are the post's own, not a list of examples it may not contain.
      for (const s of r.signals.filter((s) => s.rule === 'specificity.vague'))
        for (const [, quoted] of s.detail.matchAll(/"([^"]+)"/g))
          expect(p.text.toLowerCase(), `${quoted} in ${s.detail}`).toContain(quoted!);
    }
  });

  const LINK_PARSER = '/usr/bin/link-parser';
  it.skipIf(!existsSync(LINK_PARSER))(
    `parses every model-written signal sentence with link-grammar${existsSync(LINK_PARSER) ? '' : ' (skipped: /usr/bin/link-parser is not installed; apt-get install link-grammar)'}`,
    () => {
      // Quoted words, figures and parentheses are the post's, not the grammar's: stand-ins keep the sentence.
      const clean = (t: string) =>
        t
          .replace(/"[^"]*"/g, 'these words')
          .replace(/\s*\([^)]*\)/g, '')
          .replace(/[-+]?\d+(?:[.,]\d+)*(?:\/100|x|%)?/g, 'ten')
          .replace(/ten-ten/g, 'ten')
          .replace(/\s+/g, ' ')
          .trim();
      const sentences = new Set<string>();
      for (const p of posts.slice(0, 60)) {
        for (const s of scoreHeuristically(inputOf(p)).signals) {
          if (!/^(?:text|nlp|judge|media|format|writing|specificity|engagement)\./.test(s.rule ?? ''))
            continue;
          for (const part of clean(s.detail).split(/;\s*|:\s+|\.\s+/))
            sentences.add(`${part.replace(/\.$/, '')}.`);
        }
      }
      const list = [...sentences];
      expect(list.length).toBeGreaterThan(20);
      // "+++++ error N" counts failures, it does not number sentences: with echo on, each
      // sentence is printed before its verdict, so a failure is the line above its error.
      const out = execFileSync(LINK_PARSER, ['en', '-batch'], {
        input: `!null=0\n!echo\n${list.join('\n')}\n`,
        encoding: 'utf8',
        stdio: ['pipe', 'pipe', 'pipe'],
      }).split('\n');
      const failed = out.filter((_, k) => out[k + 1]?.startsWith('+++++ error'));
      expect(failed).toEqual([]);
    },
  );
});
