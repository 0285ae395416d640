import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lowerOfPost } from '../../src/scoring/scorer.ts';
import { extractFeatures } from '../../src/scoring/text/text-features.ts';

const space = fc.constantFrom(' ', '\n', '\t', '\r\n', '\u00a0', '\ufeff', '\u2028', '\u3000');
const body = fc
  .array(
    fc.oneof(
      fc.constantFrom('AΣ', 'Σ', 'ΟΔΟΣ', 'İ', 'Word', ' ', '.', '\n', ' \n', '\r', '’'),
      fc.string({ maxLength: 3 }),
    ),
    {
      maxLength: 20,
    },
  )
  .map((parts) => parts.join(''));

describe("the post lower-cased from the rules' text", () => {
  it('equals toLowerCase of the post whenever it is given', () => {
    let given = 0;
    fc.assert(
      fc.property(
        fc.array(space, { maxLength: 3 }),
        body,
        fc.array(space, { maxLength: 3 }),
        (lead, b, trail) => {
          const post = lead.join('') + b + trail.join('');
          const lower = lowerOfPost(post, extractFeatures(post));
          if (lower !== undefined) {
            given++;
            expect(lower).toBe(post.toLowerCase());
          }
        },
      ),
      { numRuns: 5_000 },
    );
    expect(given).toBeGreaterThan(2_000);
  });
});
