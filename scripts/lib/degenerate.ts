/**
 * Degenerate versions of a real post, for checking that only good writing raises the score
 * (test/intelligence/score-integrity.test.ts, scripts/train-scoring.ts's word-order model):
 * the post's first sentence repeated to the post's length, and the post's words shuffled
 * within each line. Deterministic: the shuffle is seeded by the post's text.
 */

import { firstSentence } from '../../src/scoring/text/text-features.ts';

/** The post's first sentence repeated until the text is at least as long as the post. */
export function repeatFirstSentence(post: string): string {
  const text = post.trim();
  const first = firstSentence(text.split('\n')[0]!.trim());
  if (first.length === 0) return text;
  const parts: string[] = [];
  let length = 0;
  while (length < text.length) {
    parts.push(first);
    length += first.length + 1;
  }
  return parts.join(' ');
}

/** A small seeded generator (mulberry32) so a shuffle is the same on every run. */
function seeded(text: string): () => number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The post's words (space-separated, punctuation attached) shuffled within each line. */
export function shuffleWordsInLines(post: string, seed = ''): string {
  const random = seeded(seed + post);
  return post
    .trim()
    .split('\n')
    .map((line) => {
      const words = line.split(/\s+/).filter(Boolean);
      for (let i = words.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [words[i], words[j]] = [words[j]!, words[i]!];
      }
      return words.join(' ');
    })
    .join('\n');
}
