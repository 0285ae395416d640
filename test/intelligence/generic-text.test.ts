import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Platform } from '../../src/domain/enums.ts';
import { GENERIC_RULE, type GenericHit } from '../../src/scoring/rules/generic-text.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { scoreHeuristically } from '../../src/scoring/scorer.ts';
import type { Signal } from '../../src/scoring/types.ts';
import { FORMULAIC_POSTS } from '../fixtures/formulaic-posts.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Generic text ranks low (issue 32 item 4): formulaic posts (test/fixtures/formulaic-posts.ts)
 * against real posts of the authors the model was fitted on (never the held-out authors,
 * scripts/lib/datasets.ts), on both platforms; and the rule's false-positive rate on those real
 * posts, as a number.
 */

const real = [
  ...readRealPosts('linkedin-creator-posts.csv'),
  ...readRealPosts('linkedin-posts-2025.csv'),
].filter((p) => !p.heldOut);
const PLATFORMS: Platform[] = ['platformA', 'platformB'];

const genericOf = (signals: Signal[]) => signals.find((s) => s.rule === GENERIC_RULE);
/** The rule's hit, with its spans into the post as submitted. */
const genericHit = (post: string) =>
  runRules({ post, platform: 'platformA' }).hits.find((h) => h.rule === GENERIC_RULE) as
    | GenericHit
    | undefined;

/** The share of `sorted` below `x`, ties counted half, in percent. */
function percentile(sorted: number[], x: number): number {
  let below = 0;
  let equal = 0;
  for (const s of sorted) {
    if (s < x) below++;
    else if (s === x) equal++;
  }
  return (100 * (below + equal / 2)) / sorted.length;
}

describeRealPosts('generic text against real posts', () => {
  // Every other real post keeps the suite to seconds; the percentiles move by well under a point.
  const sample = real.filter((_, i) => i % 2 === 0);

  for (const platform of PLATFORMS) {
    it(`puts formulaic posts in the bottom quarter of real posts on ${platform}`, () => {
      expect(sample.length).toBeGreaterThan(2_000);
      const scores = sample
        .map((p) => scoreHeuristically({ post: p.text, platform }).overall)
        .sort((a, b) => a - b);
      const placed = FORMULAIC_POSTS.map((p) =>
        percentile(scores, scoreHeuristically({ post: p.text, platform }).overall),
      );
      const bottom = placed.filter((x) => x <= 25).length;
      const mean = placed.reduce((a, b) => a + b, 0) / placed.length;
      console.log(
        `${platform}: ${FORMULAIC_POSTS.length} formulaic posts against ${sample.length} real posts: mean percentile ${mean.toFixed(1)}, ${bottom} in the bottom quarter, highest ${Math.max(...placed).toFixed(0)}`,
      );
      expect(bottom / placed.length).toBeGreaterThanOrEqual(0.9);
      expect(mean).toBeLessThanOrEqual(15);
    }, 120_000);
  }

  it('calls few real posts generic (false-positive rate as a number), and every span is text of the post', () => {
    let flagged = 0;
    for (const p of real) {
      const hit = genericHit(p.text);
      if (!hit) continue;
      flagged++;
      expect(hit.spans.length).toBeGreaterThan(0);
      for (const s of hit.spans) {
        expect(s.start).toBeGreaterThanOrEqual(0);
        expect(s.end).toBeLessThanOrEqual(p.text.length);
        expect(p.text.slice(s.start, s.end).trim()).toBe(p.text.slice(s.start, s.end));
        expect(s.end).toBeGreaterThan(s.start);
      }
    }
    const rate = (100 * flagged) / real.length;
    console.log(`generic text fires on ${flagged} of ${real.length} real posts (${rate.toFixed(1)}%)`);
    expect(rate).toBeLessThan(5);
  }, 120_000);
});

it('fires on every formulaic post, naming bait as what the feed demotes and pointing at its words', () => {
  for (const { text, kind } of FORMULAIC_POSTS) {
    const generic = genericOf(scoreHeuristically({ post: text, platform: 'platformA' }).signals);
    expect(generic, `${kind}: ${text}`).toBeDefined();
    expect(generic!.impact).toBe('negative');
    const { spans } = genericHit(text)!;
    expect(spans.length).toBeGreaterThan(0);
    for (const s of spans) expect(text.slice(s.start, s.end).trim().length).toBeGreaterThan(0);
    // Every phrase the sentence quotes is in the post as quoted (a quote inside it reads as ').
    const asQuoted = text.replace(/["“”]/g, "'");
    for (const [, quoted] of generic!.detail.matchAll(/"([^"]+)"/g)) expect(asQuoted).toContain(quoted);
  }
  const bait = FORMULAIC_POSTS.find((p) => p.text.includes("Comment 'YES'"))!;
  const generic = genericOf(scoreHeuristically({ post: bait.text, platform: 'platformA' }).signals)!;
  expect(generic.detail).toMatch(/^The feed demotes engagement bait such as .*"Comment 'YES'"/);
  const marked = genericHit(bait.text)!.spans.map((s) => bait.text.slice(s.start, s.end));
  expect(marked).toContain("Comment 'YES'");
  expect(marked).toContain('Repost to help');
});

it('points at the words of the post as submitted, around the white space the scorer trims', () => {
  const post = 'We shipped the billing export to 40 customers this week.\r\n\r\nRepost if you agree.  \r\n';
  const submitted = `  \n${post}`;
  const { spans } = genericHit(submitted)!;
  expect(spans.map((s) => submitted.slice(s.start, s.end))).toEqual(['Repost if']);
});

it('leaves a specific post alone, and one stock phrase in real writing is a habit, not generic text', () => {
  const specific =
    'We cut our deploy time from 42 minutes to 6 without buying anything new.\n\nThree changes did it: we cached dependencies per lockfile, split the test suite by timing data, and stopped building images nobody pulled.\n\nLet that sink in: the slowest step was waiting for a shared runner.';
  expect(genericOf(scoreHeuristically({ post: specific, platform: 'platformA' }).signals)).toBeUndefined();
  // The same post made of bait loses points and says why.
  const baited = `${specific}\n\nRepost if you agree ♻️`;
  const before = scoreHeuristically({ post: specific, platform: 'platformA' }).overall;
  const after = scoreHeuristically({ post: baited, platform: 'platformA' });
  expect(genericOf(after.signals)?.detail).toMatch(/^The feed demotes engagement bait such as "Repost if"/);
  expect(after.overall).toBeLessThan(before);
});

const LINK_PARSER = '/usr/bin/link-parser';
it.skipIf(!existsSync(LINK_PARSER))(
  `words every generic-text sentence so that link-grammar parses it${existsSync(LINK_PARSER) ? '' : ' (skipped: /usr/bin/link-parser is not installed; apt-get install link-grammar)'}`,
  () => {
    // The post's quoted words are not the grammar's: a list reads "these words", one phrase "this phrase".
    const clean = (t: string) =>
      t
        .replace(/"[^"]*"(?:(?:, | and )"[^"]*")+/g, 'these words')
        .replace(/"[^"]*"/g, 'this phrase')
        .replace(/\s*\([^)]*\)/g, '');
    const sentences = new Set<string>();
    for (const { text } of FORMULAIC_POSTS)
      for (const s of scoreHeuristically({ post: text, platform: 'platformA' }).signals)
        if (s.rule === GENERIC_RULE)
          for (const part of clean(s.detail).split(/;\s*/)) sentences.add(`${part.replace(/\.$/, '')}.`);
    const list = [...sentences];
    expect(list.length).toBeGreaterThan(5);
    const out = execFileSync(LINK_PARSER, ['en', '-batch'], {
      input: `!null=0\n!echo\n${list.join('\n')}\n`,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    }).split('\n');
    const failed = out.filter((_, k) => out[k + 1]?.startsWith('+++++ error'));
    expect(failed).toEqual([]);
  },
);
