import { describe, expect, it } from 'vitest';
import { detectArchetype } from '../../src/scoring/rules/hook.ts';
import { inventedFacts } from '../../src/scoring/text/facts.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';
import { themesOf } from '../../src/scoring/text/themes.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';
import { planOffline, toPlanItems } from '../../src/scoring/writers/plan-offline.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Offline plan and generate on real briefs: the ones a new user types (issue 12's examples),
 * and briefs cut from real posts in ../shared/data (their first two lines), so the templates
 * meet text nobody wrote for them.
 */

const TYPED = [
  'Why we moved every invoice to the first of the month. Late payments dropped after the switch. Support tickets about billing got shorter.',
  'Q3 content push',
  'pricing, hiring and culture',
  'Our onboarding redesign: we cut setup time from 40 minutes to 6 by removing the config wizard.',
  'We are launching a new analytics dashboard for small clinics next week, built with feedback from 40 clinic managers.',
  'Remote work, async communication, and how we run meetings at a 12-person SaaS company',
];
const FROM_POSTS = readRealPosts('linkedin-creator-posts.csv')
  .filter((p) => !p.heldOut)
  .filter((_, i) => i % 211 === 5)
  .map((p) =>
    p.text
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 2)
      .join(' ')
      .slice(0, 400),
  )
  .filter((b) => b.trim().length >= 20);
const BRIEFS = [...TYPED, ...FROM_POSTS];

const squash = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The first run of seven words of the brief that a line repeats, if any (a theme is at most
 * four words and its determiner, so only a quote of the brief makes seven).
 */
function copiedRun(brief: string, line: string): string | null {
  const b = squash(brief).split(' ');
  const l = ` ${squash(line)} `;
  for (let i = 0; i + 7 <= b.length; i++)
    if (l.includes(` ${b.slice(i, i + 7).join(' ')} `)) return b.slice(i, i + 7).join(' ');
  return null;
}

/**
 * Whether a line holds whole clauses of the brief, word for word: a run of the brief's pieces
 * between sentence ends, colons, semicolons, commas and dashes, a joining word or a reason's
 * "since", "because" or "as" before it left out, never a piece cut mid-clause.
 */
function quotesWholeClause(brief: string, line: string): boolean {
  const l = squash(line);
  const pieces = brief.split(/[.!?]+\s+|:\s+|;\s+|,\s+|\s[-–—]\s|[—–]/).map(squash);
  const opener = /^(?:and|but|so|yet|since|because|as) /;
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j <= pieces.length; j++) {
      const run = pieces.slice(i, j).join(' ');
      if ((run === l || run.replace(opener, '') === l) && l.split(' ').length >= 4) return true;
      if (run.length > l.length + 8) break;
    }
  return false;
}

describe('themes', () => {
  it('finds the noun phrases a brief is about, not its verbs', () => {
    expect(themesOf(TYPED[0]!).map((t) => t.phrase)).toEqual(
      expect.arrayContaining(['late payments', 'support tickets', 'invoices']),
    );
    expect(themesOf(TYPED[0]!).map((t) => t.text)).not.toContain('moved');
    expect(themesOf('pricing, hiring and culture').map((t) => t.text)).toEqual([
      'pricing',
      'hiring',
      'culture',
    ]);
    // Case marks names and codes, not sentence starts.
    expect(themesOf('Put down your Pinterest. Q3 launch plans.').map((t) => t.text)).toEqual(
      expect.arrayContaining(['Pinterest', 'Q3 launch plans']),
    );
  });
});

describeRealPosts('offline plan on real briefs', () => {
  it('has briefs from real posts', () => {
    expect(FROM_POSTS.length).toBeGreaterThanOrEqual(20);
  });

  it('gives distinct items: hooks and formats vary, pillars are themes, not the brief', () => {
    const failures: string[] = [];
    for (const brief of BRIEFS) {
      for (const count of [3, 5, 14]) {
        const items = toPlanItems(planOffline({ brief, count }, null), '3x-week');
        const say = (what: string) => failures.push(`${what} (count ${count}): ${brief.slice(0, 60)}`);
        if (items.length !== count) say('wrong count');
        if (new Set(items.map((i) => squash(i.hook))).size !== count) say('repeated hook');
        if (new Set(items.slice(0, 3).map((i) => i.format)).size !== 3) say('formats repeat within three');
        for (let k = 1; k < items.length; k++)
          if (items[k]!.format === items[k - 1]!.format) say('same format twice in a row');
        for (const i of items) {
          if (squash(i.pillar) === squash(brief)) say(`pillar repeats the brief: ${i.pillar}`);
          if (i.pillar.split(/\s+/).length > 4) say(`pillar is not a theme: ${i.pillar}`);
          if (/\)\.?$/.test(i.angle)) say(`angle ends in brackets: ${i.angle}`);
          if (brief.length > 60 && i.angle.includes(brief)) say('angle repeats the whole brief');
          // An angle says what to write in its own words: no quoted or ellipsised piece of the brief.
          if (/[(…]/.test(i.angle)) say(`angle quotes the brief: ${i.angle}`);
          const run = copiedRun(brief, i.angle);
          if (run) say(`angle copies "${run}"`);
          // A hook may be the brief's own line (plan-brief-hooks.ts): a whole clause of it, never a cut piece.
          if (copiedRun(brief, i.hook) && !quotesWholeClause(brief, i.hook))
            say(`hook cuts the brief: ${i.hook}`);
          if (detectArchetype(i.hook) !== i.archetype) say(`hook "${i.hook}" is not a ${i.archetype} hook`);
          if (!/^\p{Lu}|^\d/u.test(i.hook)) say(`hook not capitalised: ${i.hook}`);
        }
        const days = items.map((i) => i.angle.slice(0, 3));
        if (days.some((d, k) => d !== ['Mon', 'Wed', 'Fri'][k % 3])) say('cadence not followed');
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it("adds the brand themes to the brief's pillars (issue 34), and ties hooks to them", () => {
    const brand = {
      name: 'Acme',
      description: null,
      audience: null,
      themes: ['Billing ops', 'Cash flow'],
      linkPolicy: null,
    };
    const items = planOffline({ brief: TYPED[0]!, count: 4 }, brand);
    const pillars = new Set(items.map((i) => i.pillar));
    for (const theme of brand.themes) expect(pillars).toContain(theme);
    expect([...pillars].some((p) => !brand.themes.includes(p))).toBe(true);
    for (const i of items) expect(i.hook.toLowerCase()).toContain(i.pillar.toLowerCase());
  });

  it('a one-topic brief gets content pillars about that topic', () => {
    const items = planOffline({ brief: 'Q3 content push', count: 3 }, null);
    expect(items.map((i) => i.pillar)).toEqual(['Lessons learned', 'Behind the scenes', 'Results so far']);
    for (const i of items) expect(i.hook).toContain('Q3 content push');
  });
});

describeRealPosts('offline generate on real briefs', () => {
  // Issue 34: the drafts are the brief's sentences in other shapes (drafts-from-brief.test.ts
  // measures the rest); here, that they differ, are finished and come from the brief.
  it('gives candidates that differ in structure, from the brief, finished', () => {
    const failures: string[] = [];
    for (const brief of BRIEFS) {
      const posts = generateOffline({ brief, count: 3 }, { brand: null, voice: null });
      const say = (what: string) => failures.push(`${what}: ${brief.slice(0, 60)}`);
      if (!posts.length) say('no candidate');
      const shapes = posts.map((p) => `${p.split('\n\n').length}:${/^- /m.test(p)}:${p.split('\n')[0]}`);
      if (new Set(shapes).size !== posts.length) say('same structure twice');
      for (const p of posts) {
        if (extractFeatures(p).genericOpener && !extractFeatures(brief).genericOpener)
          say(`opens with a stock line: ${p.split('\n')[0]}`);
        if (inventedFacts(brief, p, { names: false }).length) say(`invented ${inventedFacts(brief, p)}`);
        for (const block of p.split('\n\n')) {
          const line = block.split('\n')[0]!;
          const fromBrief = brief.includes(line.replace(/^- /, '').slice(1, 24));
          if (!fromBrief && !/^[\p{Lu}\d"“‘'#[-]/u.test(line))
            say(`block does not start a sentence: ${line.slice(0, 40)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('a label-only brief reads as a post to fill in: the topic, then marked blanks', () => {
    const [story] = generateOffline({ brief: 'Q3 content push story' }, { brand: null, voice: null });
    const blocks = story!.split('\n\n');
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks[0]).toContain('Q3 content push');
    for (const b of blocks.slice(1)) expect(b).toMatch(/^\[.+\]$/);
  });
});
