import { expect, it } from 'vitest';
import { readBrief } from '../../src/scoring/writers/brief-reading.ts';
import { opensWithNews } from '../../src/scoring/writers/news-wording.ts';
import { rewriteOffline } from '../../src/scoring/writers/rewrite-offline.ts';
import { briefFromPost, describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Generate and the rewrite read news the same way (src/scoring/writers/news-wording.ts): a brief
 * generate tells as news is a post the rewrite asks no question of, and "My first ..." is a
 * story to both. Before, the rewrite counted "my first" anywhere in a post as news and withheld
 * its question ("My first business failed." got none), while generate read only the first
 * sentence and told "My first ..." as a story.
 */

const QUESTIONS = [
  'What would you add?',
  'Has something like this happened to you?',
  'Where do you disagree?',
];
/** The question the rewrite added, if any, read from its note and its last paragraphs. */
function addedQuestion(post: string): string | null {
  const { rewrite, changes } = rewriteOffline({ post });
  if (!changes.some((c) => c.note.startsWith('Ended with a question'))) return null;
  return QUESTIONS.find((q) => rewrite.includes(`\n\n${q}`)) ?? 'another question';
}

/** The first two sentences, split here by a pattern of the test's own. */
const opening = (text: string) =>
  text
    .split(/\n+|(?<=[.!?])\s+/)
    .filter((s) => s.trim())
    .slice(0, 2)
    .join(' ');
/** News, thanks or congratulations said in other words than "my first", anywhere. */
const OTHER_NEWS =
  /\b(?:thrilled|honou?red|proud|grateful|thank|thanks|congrat\w*|excited|happy to|new chapter|milestone|joined|joining|decided|starting a new|announc\w*)\b/i;

const posts = readRealPosts('linkedin-creator-posts.csv').map((p) => p.text);
const myFirst = posts.filter((t) => /\bmy first\b/i.test(opening(t)) && !OTHER_NEWS.test(t));
// Every other brief: enough news (189 briefs) at half the time.
const briefs = posts
  .map(briefFromPost)
  .filter((b) => b.trim().length >= 40)
  .filter((_, i) => i % 2 === 0);

describeRealPosts('news is read the same way by generate and the rewrite', () => {
  it('has real posts that open with "my first" and say no other news', () => {
    expect(myFirst.length).toBeGreaterThanOrEqual(15);
  });

  it('generate reads a "My first ..." brief as no news: not held to two drafts', () => {
    const failures: string[] = [];
    for (const post of myFirst) {
      const brief = briefFromPost(post);
      if (readBrief(brief).news) failures.push(brief.slice(0, 80));
    }
    expect(failures).toEqual([]);
  });

  it('the rewrite asks a "My first ..." post a question where it asks nothing of its own', () => {
    const asked = myFirst.filter((t) => !t.includes('?')).map(addedQuestion);
    // Every post without a question of its own that the pass could end gets one (a post at the
    // length limit may have no room, and the score may decline it): never withheld as news.
    expect(asked.filter(Boolean).length).toBeGreaterThanOrEqual(asked.length * 0.8);
    expect(asked).not.toContain('another question');
  });

  it('a brief generate tells as news gets no question from the rewrite', () => {
    const told = briefs.filter((brief) => readBrief(brief).news && opensWithNews(brief));
    expect(told.length).toBeGreaterThan(150);
    expect(told.filter((b) => addedQuestion(b)).map((b) => b.slice(0, 120))).toEqual([]);
  }, 120_000);
});
