import { expect, it } from 'vitest';
import { rubricFor } from '../../src/scoring/rules/rubrics.ts';
import { runRules } from '../../src/scoring/rules/rules.ts';
import { offlineMeasure } from '../../src/scoring/scorer.ts';
import { inventedFacts } from '../../src/scoring/text/facts.ts';
import { REWRITE_PASSES, rewriteOffline } from '../../src/scoring/writers/rewrite-offline.ts';
import { describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Every offline edit on real posts (../shared/data, see its README) must leave well-formed
 * text: no dangling fragments, capitalisation and punctuation kept, no fact invented. The
 * posts checked are those the recipe actually edits with a phrase swap, link move, bait drop
 * or hashtag trim: the edits that touch the inside of sentences.
 */

const TOUCHES_SENTENCES =
  /https?:\/\/|\b(?:delv|leverag|utili[sz]|revolutioni[sz]|navigat\w* the complexities|dive (?:deep )?into|diving into|unlock|harness|a testament to|game[- ]changer|seamlessly|in today['’]s|important to note|in conclusion|let['’]s dive in)|comment (?:yes|below)|like (?:and|&) share|(?:#\w+\s*){6,}/i;
const DANGLING = /\b(?:and|or|the|a|an|of|to|with|for|in|on|at|by|from|is|are|was|that)$/i;

function problems(original: string, rewrite: string): string[] {
  const out: string[] = [];
  const originalLines = new Set(original.split('\n').map((l) => l.trim()));
  for (const raw of rewrite.split('\n')) {
    const line = raw.trim();
    if (!line || originalLines.has(line)) continue;
    if (/ {2,}/.test(line) && !/ {2,}/.test(original)) out.push(`double space: ${line}`);
    if (/\s[,.;:!?](?!\.)/.test(line) && !/\s[,.;:!?]/.test(original))
      out.push(`space before punctuation: ${line}`);
    if (/^[,.;:]/.test(line)) out.push(`line starts with punctuation: ${line}`);
    if (/,,|(?<!\.)\.\.(?!\.)|\(\s*\)/.test(line)) out.push(`broken punctuation: ${line}`);
    if (!/[\p{L}\p{N}]/u.test(line) && !/[\p{L}\p{N}]/u.test(original)) continue;
    if (!/[\p{L}\p{N}\p{Extended_Pictographic}#]/u.test(line)) out.push(`empty line of punctuation: ${line}`);
    const head = line.slice(0, 12);
    if (/^\p{Ll}/u.test(line) && !original.includes(head)) out.push(`lost capital: ${line}`);
    const end = line.replace(/[.!?…:;,]+$/, '');
    if (DANGLING.test(end) && !original.includes(end.slice(-20))) out.push(`dangling end: ${line}`);
  }
  return out;
}

describeRealPosts('offline rewrite on real posts', () => {
  const posts = readRealPosts('linkedin-creator-posts.csv')
    .filter((p) => !p.heldOut)
    .map((p) => p.text)
    .filter((t) => TOUCHES_SENTENCES.test(t))
    .slice(0, 250);

  it('has real posts to check', () => {
    expect(posts.length).toBeGreaterThanOrEqual(100);
  });

  it('leaves every edited sentence well formed and invents nothing (recipe and guided)', () => {
    const failures: string[] = [];
    let edited = 0;
    for (const post of posts) {
      for (const { rewrite, changes } of [
        rewriteOffline({ post }),
        rewriteOffline({ post }, offlineMeasure({ post })),
      ]) {
        if (changes.length) edited++;
        failures.push(...problems(post, rewrite));
        const invented = inventedFacts(post, rewrite);
        if (invented.length) failures.push(`invented ${invented.join(', ')}`);
      }
    }
    expect(edited).toBeGreaterThan(posts.length);
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('keeps the issue 12 example grammatical: a swap that fits the sentence, or none', () => {
    const post =
      "In today's fast-paced world, leveraging synergies is key. We delve into how our team grew revenue.";
    for (const { rewrite } of [
      rewriteOffline({ post }),
      rewriteOffline({ post }, offlineMeasure({ post })),
    ]) {
      expect(problems(post, rewrite)).toEqual([]);
      // The reported bug: "Use synergies is key." (an imperative where a gerund was the subject).
      expect(rewrite).not.toMatch(/\bUse synergies is\b/);
      expect(rewrite).toContain('Using synergies is key.');
      expect(rewrite).toContain('We dig into how our team grew revenue.');
    }
  });
});

describeRealPosts('styled letters on real posts', () => {
  const STYLED = /[\u{1D400}-\u{1D7FF}]/u;
  const posts = [...readRealPosts('linkedin-creator-posts.csv'), ...readRealPosts('linkedin-posts-2025.csv')]
    .filter((p) => !p.heldOut && STYLED.test(p.text))
    .map((p) => p.text);

  it('turns them into the plain letters they stand for, saying how many, and changes nothing else', () => {
    expect(posts.length).toBeGreaterThanOrEqual(20);
    const pass = REWRITE_PASSES.find((p) => p.name === 'plain-letters')!;
    for (const post of posts) {
      const result = pass.apply(post, rubricFor('platformA'), post)!;
      expect(result.text).not.toMatch(STYLED);
      // Only compatibility forms changed: every other character is as the author wrote it.
      expect(result.text.normalize('NFKC')).toBe(post.normalize('NFKC'));
      expect(result.text.length).toBeLessThan(post.length);
      // The same words and figures in plain letters are no new fact (a model doing this edit is not refused).
      expect(inventedFacts(post, result.text)).toEqual([]);
      const count = [...post].filter((c) => STYLED.test(c)).length;
      const said = result.note.match(/^Turned (one|\d+) styled letters? /)?.[1];
      // Letterlike gaps in a styled run (italic h is U+210E) are counted with it.
      expect(said === 'one' ? 1 : Number(said), result.note).toBeGreaterThanOrEqual(count);
    }
  });

  it('the guided rewrite takes the pass on most of them and then keeps none', () => {
    let plain = 0;
    for (const post of posts) {
      const { rewrite, changes } = rewriteOffline({ post }, offlineMeasure({ post }));
      if (!changes.some((c) => c.note.includes('styled letter'))) continue;
      plain++;
      expect(rewrite).not.toMatch(STYLED);
    }
    // The model rates styled letters lower, so plain letters score higher on most posts.
    expect(plain / posts.length).toBeGreaterThan(0.5);
  });
});

describeRealPosts('advice the score agrees with', () => {
  const posts = [...readRealPosts('linkedin-posts-2025.csv'), ...readRealPosts('linkedin-creator-posts.csv')]
    .filter((p) => !p.heldOut)
    .map((p) => p.text);

  it('breaking a wall of text the verdict names first raises the score (the first line keeps running on)', () => {
    const pass = REWRITE_PASSES.find((p) => p.name === 'paragraphs')!;
    let told = 0;
    let rose = 0;
    for (const post of posts) {
      // Every post the wall-of-text rule fires on (the layout concept's one signal says it only where the model agrees).
      if (!runRules({ post }).hits.some((h) => h.rule === 'structure.wall_of_text')) continue;
      told++;
      const broken = pass.apply(post, rubricFor('platformA'), post);
      const measure = offlineMeasure({ post });
      if (broken && measure(broken.text) > measure(post)) rose++;
    }
    expect(told).toBeGreaterThan(50);
    // 53 of 91 when every paragraph, the first included, broke after two sentences.
    // 0.95 of the posts whose verdict named it first; 0.88 of every post the rule fires on (issue 32).
    expect(rose / told).toBeGreaterThanOrEqual(0.85);
  });
});

describeRealPosts('closing questions on real posts', () => {
  const posts = readRealPosts('linkedin-creator-posts.csv')
    .filter((p) => !p.heldOut)
    .map((p) => p.text);
  const QUESTIONS = [
    'What would you add?',
    'Has something like this happened to you?',
    'Where do you disagree?',
  ];
  const added = (post: string) => {
    const { rewrite, changes } = rewriteOffline({ post });
    if (!changes.some((c) => c.note.startsWith('Ended with a question'))) return null;
    return QUESTIONS.find((q) => rewrite.includes(`\n\n${q}`)) ?? 'another question';
  };

  it('never end news, thanks or congratulations with a question to the reader', () => {
    // "thanks to" thanks someone at the start of a sentence or line, or after "Many"/"Huge"; after
    // another word it means "because of" ("it spread fast, thanks to its price") and is no thanks.
    const news = posts.filter(
      (p) =>
        /\b(?:thank you|congratulations|congrats|excited to (?:share|announce)|grateful)\b/i.test(p) ||
        /(?:^|[.!?…:]\s+|\n\s*|\b(?:many|huge|big|special)\s+)thanks to\b/im.test(p),
    );
    expect(news.length).toBeGreaterThan(100);
    expect(news.filter((p) => added(p)).map((p) => p.slice(0, 300))).toEqual([]);
  });

  it("ask a story for the reader's own and anything else what the reader would add", () => {
    const told = posts.filter((p) =>
      /^(?:I|My)\b[^\n]{0,120}\b(?:was|were|had|did|went|lost|started|quit)\b/.test(p),
    );
    const asked = told.map(added).filter(Boolean);
    expect(asked.length).toBeGreaterThan(10);
    expect(
      asked.filter((q) => q === 'Has something like this happened to you?').length / asked.length,
    ).toBeGreaterThan(0.5);
    expect(asked).not.toContain('another question');
  });
});
