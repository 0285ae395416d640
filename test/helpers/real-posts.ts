import { describe } from 'vitest';
import { type DataPost, readDataFile, realDataMissing } from '../../scripts/lib/datasets.ts';

/**
 * Suites that read the real posts (POSTKIT_DATA_DIR, default ../shared/data) go through here. A
 * user's fresh clone has no data beside it: those suites are then reported as skipped with the
 * reason in their name, not failed. `.ci/run` refuses to run without the data, so CI always runs
 * them.
 */
export const REAL_POSTS_MISSING = realDataMissing();

/** `describe` for a suite of real posts: skipped, with the reason, when the data is missing. */
export function describeRealPosts(name: string, fn: () => void): void {
  if (REAL_POSTS_MISSING) describe.skip(`${name} (skipped: ${REAL_POSTS_MISSING})`, fn);
  else describe(name, fn);
}

/** The posts of one data file, or none when the data is missing (its suites are skipped then). */
export const readRealPosts = (file: string): DataPost[] => (REAL_POSTS_MISSING ? [] : readDataFile(file));

if (REAL_POSTS_MISSING) console.warn(`real-post suites skipped: ${REAL_POSTS_MISSING}`);

/** A brief as a writer might give one, made of a real post: its first three lines, at most 500 characters. */
export const briefFromPost = (text: string): string =>
  text
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 3)
    .join(' ')
    .slice(0, 500);
