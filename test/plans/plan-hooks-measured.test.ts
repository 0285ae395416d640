import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { isHeldOut } from '../../scripts/lib/datasets.ts';
import { namesTopic } from '../../src/scoring/model/plan-gate.ts';
import { isNounPhrases } from '../../src/scoring/text/themes.ts';
import { briefHooks } from '../../src/scoring/writers/plan-brief-hooks.ts';
import { planBrief, planOffline } from '../../src/scoring/writers/plan-offline.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 34, measured: what an offline plan's items say, on briefs made of real posts (no
 * held-out author; the first three lines, cut at the last sentence end within 500 characters so
 * no hook is a sentence the cut left unfinished) and on bad briefs written here. Every hook is a
 * sentence or clause of the brief, or its pillar with a marked blank; none is a noun phrase
 * alone ("Shift handovers.") or opens on a pronoun with nothing before it ("Their price.");
 * every hook names its own pillar; every pillar is written in the brief; "Back this claim" only
 * under a claim. Link grammar (when installed, as CI installs it) parses the hooks.
 */

const cut = (text: string) => {
  const head = text
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 3)
    .join(' ')
    .slice(0, 500);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('? '), head.lastIndexOf('! '));
  return /[.!?]$/.test(head) || end < 0 ? head : head.slice(0, end + 1);
};

const real = readRealPosts('linkedin-creator-posts.csv')
  .concat(readRealPosts('linkedin-posts-2025.csv'))
  .filter((p) => !isHeldOut(p.file, p.author))
  .map((p) => cut(p.text))
  .filter((b) => b.trim().length >= 80)
  .filter((_, i) => i % 59 === 5)
  .slice(0, 60);

/** Bad briefs: pronouns with no antecedent, verbs the lite model reads as nouns, labels, fragments. */
const BAD = [
  'Their price went up twice this year. They never told us why. It hurt.',
  'People talk a lot about burnout. Nurses quit when night shifts never end. Hiring calls that go wrong cost us months.',
  'Shift handovers. Sepsis response time. Night shifts.',
  'Our ICU cut sepsis response time from 22 to 9 minutes after moving handovers to the bedside.',
  'Congratulations to the whole team! Thank you for a great year. Focus on one thing.',
];

const CONTENT = new Set(['Lessons learned', 'Behind the scenes', 'Results so far', 'Industry view']);
const BLANK = /^(.+): \[[^\]]+\]$/;
const PRONOUN_LED = /^(?:it|it's|its|they|their|them|this|that|these|those|he|she|his|her|him)\b/i;
const NOT_CLAIM = /^(?:i|we|my|our|thank|thanks|congratulations|hi|hello)\b|\?$/i;

const plans = [...real, ...BAD].map((brief) => {
  const own = new Set(briefHooks(planBrief(brief)).map((h) => h.hook));
  return { brief, own, items: planOffline({ brief, count: 5 }, null) };
});

function unparsed(lines: string[]): Set<string> {
  const out = spawnSync('/usr/bin/link-parser', ['-batch'], {
    input: ['!echo', ...lines].join('\n'),
    encoding: 'utf8',
    env: { LANG: 'C.UTF-8' },
  }).stdout.split('\n');
  return new Set(out.filter((_, k) => out[k + 1]?.startsWith('+++++ error')));
}

describeRealPosts('offline plan items, measured (issue 34, real posts and bad briefs)', () => {
  it('has enough briefs to measure', () => {
    expect(real.length).toBe(60);
  });

  it('every hook is the brief’s sentence or clause, or its pillar and a marked blank; none a fragment or pronoun-led', () => {
    const fragments: string[] = [];
    const pronounLed: string[] = [];
    const neither: string[] = [];
    let fromBrief = 0;
    let blanks = 0;
    for (const { own, items } of plans)
      for (const { hook } of items) {
        if (own.has(hook)) fromBrief++;
        else if (BLANK.test(hook)) blanks++;
        else neither.push(hook);
        // The brief's own line may be one the writer left verbless; a hook Postkit made may not.
        if (!own.has(hook) && !BLANK.test(hook) && isNounPhrases(hook.replace(/[.!?]+$/, '')))
          fragments.push(hook);
        if (PRONOUN_LED.test(hook)) pronounLed.push(hook);
      }
    console.log(
      `${plans.length} plans of 5: ${fromBrief} hooks from the brief, ${blanks} pillars with a marked blank, ${neither.length} neither, ${fragments.length} noun phrases alone, ${pronounLed.length} pronoun-led`,
    );
    expect(neither).toEqual([]);
    expect(fragments).toEqual([]);
    expect(pronounLed).toEqual([]);
  });

  it('every hook names its pillar, every pillar is written in its brief, "Back this claim" only under a claim', () => {
    const offPillar: string[] = [];
    const unwritten: string[] = [];
    const backed: string[] = [];
    for (const { brief, items } of plans)
      for (const i of items) {
        // A brief too short for pillars of its own gets content pillars about its topic.
        if (CONTENT.has(i.pillar)) continue;
        const named = namesTopic(i.hook, i.pillar) || i.hook.toLowerCase().includes(i.pillar.toLowerCase());
        if (!named) offPillar.push(`[${i.pillar}] ${i.hook}`);
        if (!brief.toLowerCase().includes(i.pillar.toLowerCase()))
          unwritten.push(`${i.pillar}: ${brief.slice(0, 60)}`);
        if (i.angle.startsWith('Back this claim') && (NOT_CLAIM.test(i.hook) || BLANK.test(i.hook)))
          backed.push(i.hook);
      }
    console.log(
      `${offPillar.length} hooks off their pillar, ${unwritten.length} pillars not written in the brief, ${backed.length} non-claims asked to be backed`,
    );
    expect(offPillar).toEqual([]);
    expect(unwritten).toEqual([]);
    expect(backed).toEqual([]);
  });

  const LINK_PARSER = '/usr/bin/link-parser';
  it.skipIf(!existsSync(LINK_PARSER))(
    `link grammar parses the hooks${existsSync(LINK_PARSER) ? '' : ' (skipped: /usr/bin/link-parser is not installed; apt-get install link-grammar)'}`,
    () => {
      // A blank is read as the sentence it asks for ("Small cities: a moment you can describe in
      // one line."); a hook of the brief is the writer's own line, counted apart.
      const blanks = [
        ...new Set(plans.flatMap((p) => p.items.map((i) => i.hook).filter((h) => BLANK.test(h)))),
      ];
      const filled = blanks.map((h) => `${h.replace(/[[\]]/g, '')}.`);
      const own = [...new Set(plans.flatMap((p) => p.items.map((i) => i.hook).filter((h) => p.own.has(h))))];
      const badBlanks = unparsed(filled);
      const badOwn = unparsed(own);
      console.log(
        `link grammar: ${badBlanks.size} of ${filled.length} filled blanks and ${badOwn.size} of ${own.length} brief hooks do not parse`,
      );
      // What fails is a pillar the tagger cut wrong ("Cc Taheera Lovell"): a few, bounded.
      expect(badBlanks.size / filled.length).toBeLessThan(0.05);
    },
  );
});
