import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePost } from '../../src/scoring/text/text-features.ts';

/** normalizePost as it was written before it looked for trailing space from the line breaks. */
function normalizeBefore(text: string): string {
  let out = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (out.includes(' \n') || out.includes('\t\n')) out = out.replace(/[ \t]+\n/g, '\n');
  return out.trim();
}

describe('normalizePost', () => {
  it('normalises as it did before', () => {
    const text = fc
      .array(fc.constantFrom('\n', ' ', '\t', '\r', '\r\n', 'a', 'Bc', '\u00a0', '.'), { maxLength: 30 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(normalizePost(t)).toBe(normalizeBefore(t));
      }),
      { numRuns: 5_000 },
    );
  });
});
