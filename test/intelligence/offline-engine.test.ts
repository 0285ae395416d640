import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { offlineMeasure, scoreHeuristically } from '../../src/scoring/scorer.ts';
import { inventedFacts } from '../../src/scoring/text/facts.ts';
import { tokenize } from '../../src/scoring/text/phrases.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';
import { planOffline, toPlanItems } from '../../src/scoring/writers/plan-offline.ts';
import { rewriteOffline } from '../../src/scoring/writers/rewrite-offline.ts';
import { distillVoiceOffline } from '../../src/scoring/writers/voice-offline.ts';

const POST =
  "In today's fast-paced world, we must delve into onboarding. Our team cut setup time from 40 minutes to 6 at Acme by removing the config wizard and shipping sane defaults instead, which surprised everyone who had defended the wizard for years. The wizard had 14 screens, and most people quit on screen 3 because it asked for data they did not have yet. Read the case study here: https://example.com/case Comment YES if you want the checklist! #saas #onboarding #product #growth #startups #ux #design";

describe('tokenize and phrases', () => {
  it('unifies apostrophes and keeps numbers whole', () => {
    expect(tokenize('Don’t delve — it’s 3.5x, “really”?')).toEqual([
      "don't",
      'delve',
      "it's",
      '3.5x',
      '"',
      'really',
      '"',
      '?',
    ]);
  });
});

describe('fact check', () => {
  it('flags new numbers, names and links but not reordering', () => {
    const src = 'We cut setup from 40 minutes to 6 at Acme with Dana.';
    expect(inventedFacts(src, 'At Acme, Dana and I cut setup from 40 minutes to 6.')).toEqual([]);
    expect(inventedFacts(src, 'We cut setup from 40 minutes to 5 at Acme.')).toEqual(['5']);
    expect(inventedFacts(src, 'We cut setup at Acme with help from Microsoft.')).toEqual(['Microsoft']);
    expect(inventedFacts(src, 'Details at https://x.io/a')).toEqual(['https://x.io/a']);
    expect(inventedFacts('10,000 users', 'Ten thousand, 10000 users')).toEqual([]);
    expect(inventedFacts(src, 'We grew 3x at Initech.', { names: false })).toEqual(['3']);
  });
});

describe('offline rewrite', () => {
  it('applies the deterministic edits as a fixed recipe and reports each one', () => {
    const { rewrite, changes, firstComment } = rewriteOffline({ post: POST });
    expect(rewrite).not.toMatch(/https?:\/\//);
    expect(rewrite).not.toMatch(/delve|fast-paced|Comment YES/i);
    expect(rewrite.match(/#\w+/g)).toHaveLength(3);
    expect(rewrite).toMatch(/\n\n/);
    expect(
      rewrite
        .trim()
        .split('\n\n')
        .some((p) => p.endsWith('?')),
    ).toBe(true);
    const dims = changes.map((c) => c.dimension);
    expect(dims).toEqual(expect.arrayContaining(['algorithmFit', 'voice', 'structure', 'hook']));
    // The link leaves the body and comes back as the first comment, not only in a note.
    expect(changes.find((c) => /link/.test(c.note))?.note).toMatch(/into the first comment/);
    expect(firstComment).toBe('https://example.com/case');
    expect(rewrite).toContain('Read the case study in the first comment.');
    expect(inventedFacts(POST, rewrite)).toEqual([]);
  });

  it('keeps only the edits the learned score rates higher, so the after-score never drops', () => {
    const input = { post: POST };
    const guided = rewriteOffline(input, offlineMeasure(input));
    const recipe = rewriteOffline(input);
    const before = scoreHeuristically(input).overall;
    const after = scoreHeuristically({ post: guided.rewrite }).overall;
    expect(guided.changes.length).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(before);
    expect(after).toBeGreaterThanOrEqual(scoreHeuristically({ post: recipe.rewrite }).overall);
    expect(inventedFacts(POST, guided.rewrite)).toEqual([]);
  });

  it('keeps sentences grammatical when it swaps stock phrases', () => {
    const { rewrite } = rewriteOffline({
      post: "In today's fast-paced world, leveraging synergies is key. We delve into how our team grew revenue.",
    });
    expect(rewrite).toContain('Using synergies is key.');
    expect(rewrite).toContain('We dig into how our team grew revenue.');
    const verbs = rewriteOffline({
      post: 'She delved into the data and utilizes it daily. It gives you leverage.',
    });
    expect(verbs.rewrite).toContain('She dug into the data and uses it daily.');
    // "leverage" as a noun is left alone: no plain word fits every use.
    expect(verbs.rewrite).toContain('It gives you leverage.');
  });

  it('leaves a clean post alone and reports no changes', () => {
    const clean =
      'I rewrote our onboarding last month.\n\nSetup went from 40 minutes to 6.\n\nWhat would you cut first?';
    expect(rewriteOffline({ post: clean })).toEqual({
      rewrite: clean,
      changes: [],
      thread: [],
      firstComment: null,
    });
  });

  it('fits platformB, as a thread when it must, and never invents a fact (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 900 }), (text) => {
        fc.pre(text.trim().length > 0);
        const { rewrite, thread = [] } = rewriteOffline({ post: text, platform: 'platformB' });
        for (const part of [rewrite, ...thread]) expect(part.length).toBeLessThanOrEqual(280);
        expect(inventedFacts(text, [rewrite, ...thread].join('\n'))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('offline generation, planning and voice', () => {
  const brand = {
    name: 'Acme',
    description: 'Acme builds billing software for small clinics.',
    audience: 'Clinic managers',
    themes: ['Billing', 'Patient experience'],
    linkPolicy: null,
  };

  it('generates distinct drafts from the brief without inventing numbers', () => {
    const posts = generateOffline(
      {
        brief:
          'Why we moved invoices to the first of the month. Late payments dropped 30% after the switch. Support tickets about billing got shorter.',
        count: 3,
      },
      { brand, voice: null },
    );
    expect(posts).toHaveLength(3);
    expect(new Set(posts).size).toBe(3);
    for (const p of posts) {
      expect(p).toContain('#Billing');
      expect(p).toContain('30%');
      // The brand's description and audience are context, never sentences of the post.
      expect(p).not.toContain(brand.description);
      expect(p).not.toContain('Clinic managers');
      expect(inventedFacts('first 30', p, { names: false })).toEqual([]);
    }
    const quiet = generateOffline(
      { brief: 'Why do invoices go unpaid? We moved them to the first of the month.', archetype: 'question' },
      { brand, voice: { name: 'v', traits: [], doNot: ['Do not add hashtags.'], exemplars: [] } },
    );
    expect(quiet).toHaveLength(1);
    expect(quiet[0]).not.toContain('#');
    expect(quiet[0]!.split('\n')[0]).toMatch(/\?$/);
  });

  it("plans with brand themes beside the brief's topic and follows the cadence", () => {
    const items = toPlanItems(planOffline({ brief: 'Q3 launch', count: 6 }, brand), '3x-week');
    expect(items.map((i) => i.slot)).toEqual([1, 2, 3, 4, 5, 6]);
    // A label brief keeps its topic (content pillars about it) between the brand's themes (issue 34).
    expect(items.map((i) => i.pillar)).toEqual([
      'Lessons learned',
      'Billing',
      'Behind the scenes',
      'Patient experience',
      'Results so far',
      'Industry view',
    ]);
    expect(
      // The topic takes its article as a sentence's subject would (theme-article.ts): "The Q3 launch: […]".
      items
        .filter((i) => !brand.themes.includes(i.pillar))
        .every((i) => i.hook.startsWith('The Q3 launch: [')),
    ).toBe(true);
    expect(items.map((i) => i.angle.slice(0, 11))).toEqual([
      'Mon, week 1',
      'Wed, week 1',
      'Fri, week 1',
      'Mon, week 2',
      'Wed, week 2',
      'Fri, week 2',
    ]);
    const weekdays = toPlanItems(
      planOffline({ brief: 'pricing, hiring and culture', count: 14 }, null),
      'weekdays',
    );
    expect(weekdays.some((i) => /^(Sat|Sun)/.test(i.angle))).toBe(false);
    expect(new Set(weekdays.map((i) => i.pillar))).toEqual(new Set(['Pricing', 'Hiring', 'Culture']));
    const b = planOffline({ brief: 'x', count: 7, platform: 'platformB' }, null);
    expect(b.some((i) => i.format === 'document')).toBe(false);
  });

  it('distils a voice from samples', () => {
    const samples = [
      'I shipped the new pricing page today.\nIt took three tries.\nSmall teams win on clarity.\n#pricing',
      'I hired our first designer.\nShe asked better questions than I did.\nSmall teams win on clarity.\n#hiring',
      'I said no to a big client.\nIt was the right call.\nSmall teams win on clarity.\n#focus',
    ];
    const v = distillVoiceOffline(samples);
    expect(v.traits.join('\n')).toMatch(/Short, punchy sentences/);
    expect(v.traits.join('\n')).toMatch(/first person singular/);
    expect(v.traits.join('\n')).toMatch(/One idea per line/);
    expect(v.traits.join('\n')).toContain('"small teams win on clarity"');
    expect(v.doNot).toContain('Do not use emoji.');
    expect(v.exemplars.length).toBeGreaterThan(0);
    for (const e of v.exemplars) expect(samples.some((s) => s.includes(e))).toBe(true);
  });
});
