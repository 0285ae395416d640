import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../scripts/lib/datasets.ts';
import { topicFailures } from '../../src/scoring/model/plan-gate.ts';
import { briefHooks, overlaps } from '../../src/scoring/writers/plan-brief-hooks.ts';
import { planItemDrafts } from '../../src/scoring/writers/plan-item-facts.ts';
import {
  briefFigures,
  briefTopics,
  pillarsFor,
  planBrief,
  planOffline,
} from '../../src/scoring/writers/plan-offline.ts';
import { briefFromPost, describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 34 item 3: a plan keeps the brief. On briefs cut from real posts (no held-out author):
 * every figure an item's angle asks for is the brief's, as the brief says it (a range whole,
 * "from 22 to 9 minutes" never just "9 minutes"); the count of posts asked for is never read as
 * a figure; and a brand's themes add to the brief's own pillars instead of replacing them.
 */

const posts = readRealPosts('linkedin-creator-posts.csv')
  .concat(readRealPosts('linkedin-posts-2025.csv'))
  .filter((p) => !isHeldOut(p.file, p.author))
  .map((p) => briefFromPost(p.text))
  .filter((b) => b.trim().length >= 80);
const sample = posts.filter((_, i) => i % 61 === 11).slice(0, 60);
/** Real briefs that hold a range ("from 40% to 12%", "3 to 5 days"). */
const ranged = posts.filter((b) => /\b\d[\d.,]*%?\s+to\s+\d[\d.,]*\s?(?:%|[a-z]+)/i.test(b)).slice(0, 40);

const asked = (angle: string) => angle.match(/Use the real figures: (.*)\.$/)?.[1] ?? null;
const BRAND = {
  name: 'Ward',
  description: null,
  audience: null,
  themes: ['Burnout prevention', 'Hiring'],
  linkPolicy: null,
};

describeRealPosts('plans keep the brief (real posts, no held-out author)', () => {
  it('has enough briefs to measure', () => {
    expect(sample.length).toBe(60);
    expect(ranged.length).toBeGreaterThanOrEqual(15);
  });

  it("asks only for the brief's own figures, and a range stays whole", () => {
    let told = 0;
    for (const brief of [...sample, ...ranged]) {
      const figures = briefFigures(brief);
      for (const item of planOffline({ brief, count: 5 } as never, null)) {
        const said = asked(item.angle);
        if (!said) continue;
        told++;
        // Each figure asked for is the brief's as written (one opening a sentence is said
        // mid-sentence in the angle: "Nine years" -> "nine years").
        // (spaces aside: the tagger says "4,000km" as "4,000 km").
        for (const part of said.split(/, | and /))
          expect(brief.toLowerCase().replace(/\s/g, ''), said).toContain(
            part.toLowerCase().replace(/\s/g, ''),
          );
      }
      // A range's end figure is never told without its start ("9 minutes" for "22 to 9 minutes").
      for (const m of brief.matchAll(/(\d[\d.,]*%?)\s+to\s+(\d[\d.,]*\s?(?:%|[a-z]+))/gi))
        for (const f of figures) if (f.endsWith(m[2]!)) expect(f, brief).toContain(`${m[1]} to`);
    }
    expect(told).toBeGreaterThan(10);
  });

  it('never reads the count of posts asked for as a figure', () => {
    for (const brief of sample.slice(0, 30)) {
      const request = `Plan three posts about this. ${brief}`;
      for (const item of planOffline({ brief: request, count: 3 } as never, null))
        expect(item.angle, request).not.toMatch(/three posts/i);
    }
  });

  it("a brand's themes add to the brief's pillars: a 3-slot plan has both", () => {
    let both = 0;
    let briefed = 0;
    for (const brief of sample) {
      const own = pillarsFor(brief, null).map((p) => p.toLowerCase());
      const items = planOffline({ brief, count: 3 } as never, BRAND);
      const pillars = items.map((i) => i.pillar.toLowerCase());
      if (own.length < 2 || own[0] === 'lessons learned') continue;
      briefed++;
      const ofBrief = pillars.some(
        (p) => own.includes(p) || !BRAND.themes.some((t) => t.toLowerCase() === p),
      );
      const ofBrand = pillars.some((p) => BRAND.themes.some((t) => t.toLowerCase() === p));
      if (ofBrief && ofBrand) both++;
    }
    expect(briefed).toBeGreaterThan(20);
    expect(both).toBe(briefed);
  });
});

describe('the issue’s own brief', () => {
  const brief =
    'Plan three posts on night-shift retention. Our ICU cut sepsis response time from 22 to 9 minutes after moving handovers to the bedside. Retention on nights rose from 61% to 78%.';

  it('keeps "22 to 9 minutes" whole under its own pillar and the nights figure under nights', () => {
    expect(briefFigures(brief)).toEqual(['22 to 9 minutes', '61% to 78%']);
    const items = planOffline({ brief, count: 5 } as never, BRAND);
    for (const item of items) {
      const said = asked(item.angle) ?? '';
      expect(said).not.toMatch(/three posts|(?<!22 to )9 minutes/);
      if (said.includes('22 to 9 minutes'))
        expect(`${item.pillar} ${item.hook}`).toMatch(/sepsis|handover|ICU/i);
    }
    // The brief's topic survives beside the brand's themes.
    expect(items.map((i) => i.pillar).join(' ')).toMatch(/night|retention|handover|sepsis/i);
    expect(items.map((i) => i.pillar)).toEqual(expect.arrayContaining(['Burnout prevention', 'Hiring']));
  });
});

/** Numbers a reader would read as counts: digits, and number words from two up ("one" is grammar). */
const COUNT_WORDS =
  /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|dozen)\b/gi;
const numbersIn = (t: string) => [
  ...(t.match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/,/g, '')),
  ...(t.match(COUNT_WORDS) ?? []).map((w) => w.toLowerCase()),
];
const wordsOf = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
/** A hook's words that are not the brief's (or brand's), the brief's runs as "_": what a template would have written. */
const skeletonOf = (hook: string, own: Set<string>) => {
  const w = wordsOf(hook);
  return w.some((x) => !own.has(x))
    ? w
        .map((x) => (own.has(x) ? '_' : x))
        .join(' ')
        .replace(/(?:_ )+_/g, '_')
    : null;
};
const BLANK_HOOK = /\[[^\]]+\]/;

describeRealPosts('plan items and their drafts say only what the brief says (issue 34, real posts)', () => {
  for (const brand of [null, BRAND]) {
    const label = brand ? 'with a brand' : 'without a brand';
    it(`${label}: 0 numbers absent from the brief in any hook, angle or draft; no hook skeleton shared by two briefs; the brief's topics kept`, () => {
      const skeletons = new Map<string, Set<number>>();
      const absent: string[] = [];
      let items = 0;
      let blanks = 0;
      const early: string[] = [];
      let dropped = 0;
      sample.forEach((brief, b) => {
        const plan = planOffline(
          { brief: `Plan three posts about this. ${brief}`, count: 5 } as never,
          brand,
        );
        expect(plan).toHaveLength(5);
        const source = `${brief} ${brand?.themes.join(' ') ?? ''}`;
        const known = new Set(numbersIn(source));
        const ownHooks = briefHooks(planBrief(brief));
        const own = new Set(wordsOf(source));
        const drafts = planItemDrafts(
          brief,
          plan.map((p, i) => ({ slot: i + 1, ...p })),
        );
        plan.forEach((item, i) => {
          items++;
          for (const text of [item.hook, item.angle, drafts.get(i + 1)!])
            for (const n of numbersIn(text)) if (!known.has(n)) absent.push(`${n}: ${text.slice(0, 80)}`);
          // A marked blank is the writer's to fill, not wording; it is counted apart.
          if (BLANK_HOOK.test(item.hook)) {
            blanks++;
            // ... and it stands only where the brief's sentences are spent: no sentence of the
            // brief that could be a hook (one about something) is left unused beside it.
            // Under a brand the brief has half the slots, and a brief pillar no sentence names
            // is said with a blank so the brief's topics stay: checked without a brand.
            const used = plan.flatMap((p) => ownHooks.filter((h) => h.hook === p.hook));
            const left = ownHooks.filter((h) => h.theme !== null && !used.some((u) => overlaps(u, h)));
            // A blank that keeps a topic no other item names is the brief's topic kept.
            const keepsTopic = plan.filter((p) => p.pillar === item.pillar).length === 1;
            if (!brand && !keepsTopic && left.length)
              early.push(`${item.hook} while "${left[0]!.hook}" is unused`);
          } else {
            const skeleton = skeletonOf(item.hook, own);
            if (skeleton) skeletons.set(skeleton, (skeletons.get(skeleton) ?? new Set()).add(b));
          }
        });
        const topics = briefTopics(brief);
        if (topicFailures({ brief: topics, brand: brand?.themes ?? [] }, plan).length) {
          dropped++;
          if (process.env.SHOW_DROPPED)
            console.log(
              topics,
              plan.map((p) => `[${p.pillar}] ${p.hook}`),
            );
        }
      });
      const shared = [...skeletons].filter(([, s]) => s.size > 1).map(([k]) => k);
      console.log(
        `${label}: ${sample.length} plans, ${items} items: ${absent.length} numbers absent from the brief, ${shared.length} hook skeletons shared by two briefs, ${blanks} hooks with a marked blank, ${dropped} plans short of the brief's topics`,
      );
      expect(absent).toEqual([]);
      expect(shared).toEqual([]);
      // Briefs of three lines hold about four sentences, a few of which stand alone as a hook;
      // the rest of a 5-slot plan is the pillar and a marked blank, never the pillar alone.
      expect(early).toEqual([]);
      expect(blanks).toBeLessThan(items);
      // Theme extraction can name a "topic" no sentence is about ("R U T H"): a few, bounded.
      expect(dropped / sample.length).toBeLessThan(brand ? 0.2 : 0.1);
    });
  }
});
