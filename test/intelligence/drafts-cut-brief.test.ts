import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../scripts/lib/datasets.ts';
import { isFragment } from '../../src/scoring/writers/brief-cut.ts';
import { specificsKept } from '../../src/scoring/writers/draft-checks.ts';
import { generateOffline } from '../../src/scoring/writers/generate-offline.ts';
import { briefFromPost, describeRealPosts, readRealPosts } from '../helpers/real-posts.ts';

/**
 * Issue 34: a brief cut off mid-word ("... Discord did something sm") gave drafts that ended a
 * sentence on the cut word ("Discord did something sm."). Briefs here are real posts (no held-out
 * author) cut inside their last long lower-case word, where what is left is no word.
 */

/** The brief cut inside its last word of 6+ lower-case letters, at the first cut that is a fragment. */
function cutMidWord(brief: string): { brief: string; fragment: string } | null {
  const words = [...brief.matchAll(/(?<=\s)\p{Ll}{6,}(?=[\s,.])/gu)];
  const last = words.at(-1);
  if (!last) return null;
  for (let n = 2; n < last[0].length - 1; n++) {
    const fragment = last[0].slice(0, n);
    if (isFragment(fragment)) return { brief: brief.slice(0, last.index + n), fragment };
  }
  return null;
}

/** The last word before each sentence's end in a draft. */
const sentenceEndWords = (draft: string) =>
  [...draft.matchAll(/(?<=^|\s)([\p{L}'’]+)[.!?]+["'’”)]*(?=\s|$)/gu)].map((m) => m[1]!);

describeRealPosts('offline drafts of a brief cut mid-word', () => {
  const cut = ['linkedin-creator-posts.csv', 'linkedin-posts-2025.csv'].flatMap((file) =>
    readRealPosts(file)
      .filter((p) => !isHeldOut(p.file, p.author))
      .filter((_, i) => i % 37 === 5)
      .map((p) => cutMidWord(briefFromPost(p.text)))
      .filter((c): c is { brief: string; fragment: string } => c !== null)
      .slice(0, 40),
  );

  it('end no sentence on the cut word, on either platform', () => {
    expect(cut.length).toBeGreaterThanOrEqual(30);
    const onFragment: string[] = [];
    let drafts = 0;
    for (const { brief, fragment } of cut)
      for (const platform of ['platformA', 'platformB'] as const)
        for (const draft of generateOffline({ brief, count: 3, platform }, { brand: null, voice: null })) {
          drafts++;
          if (draft.includes(`${fragment}.`) || sentenceEndWords(draft).some((w) => w === fragment))
            onFragment.push(`${fragment} | ${draft}`);
          // What the cut left ends on "…", never on a fragment without a stop.
          expect(draft).not.toMatch(new RegExp(`(?<=\\s)${fragment}\\s*$`, 'u'));
        }
    expect(drafts).toBeGreaterThanOrEqual(cut.length * 2);
    expect(onFragment).toEqual([]);
  });
});

describe('a brief cut mid-word', () => {
  const draftsOf = (brief: string) =>
    generateOffline({ brief, count: 3, platform: 'platformA' }, { brand: null, voice: null });

  it('loses the fragment and the words no clause ends on, and trails off', () => {
    for (const d of draftsOf(
      'Our server went down for 3 hours on Friday. Then Discord did something with the sm',
    ))
      expect(d).toContain('Then Discord did something with…');
  });

  it('keeps a last word that is a word', () => {
    for (const d of draftsOf('Our server went down for 3 hours on Friday. Then Discord did something small'))
      expect(d).toContain('Then Discord did something small.');
  });
});

describe('the draft checks read a number whole, not inside another', () => {
  const brief = 'Ward 1 and ward 2 cut sepsis waits at Mercy General.';

  it('"1" and "2" are not kept by "12"', () => {
    expect(specificsKept(brief, 'Ward 12 cut sepsis waits at Mercy General.')).toBeLessThan(1);
    expect(specificsKept(brief, 'Wards 1 and 2 cut sepsis waits at Mercy General.')).toBe(1);
  });

  it('nor "1" by "1.5", while "12,000" is still "12000" and "10" is in "10am"', () => {
    expect(specificsKept('Classes at 10am in Lisbon.', 'Lisbon classes at 10am.')).toBe(1);
    expect(
      specificsKept('We hired 1 nurse at Mercy General.', 'We hired 1.5 nurses at Mercy General.'),
    ).toBeLessThan(1);
    expect(
      specificsKept('We served 12,000 patients at Mercy General.', 'Mercy General served 12000 patients.'),
    ).toBe(1);
  });
});
