import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokenOf } from '../../src/http/bearer.ts';

/** The rule as the regex states it; the parser's fast path must agree with it on every header. */
const byRegex = (header: string) => /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;

describe('Bearer header parsing', () => {
  it('reads the common shape and refuses others', () => {
    expect(bearerTokenOf('Bearer kit_sk_abc')).toBe('kit_sk_abc');
    expect(bearerTokenOf('bearer   kit_sk_abc  ')).toBe('kit_sk_abc');
    expect(bearerTokenOf('Bearer kit sk')).toBeNull();
    expect(bearerTokenOf('Bearer ')).toBeNull();
    expect(bearerTokenOf('Basic abc')).toBeNull();
  });

  it('agrees with the regex on any header', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        'Bearer',
        'bearer',
        'BEARER',
        ' ',
        '  ',
        '\t',
        '\u00a0',
        '\u2028',
        'kit_sk_',
        '\u0001',
        '\u007f',
        'é',
      ),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const header = pieces.join('');
        expect(bearerTokenOf(header)).toBe(byRegex(header));
        expect(bearerTokenOf(`Bearer ${header}`)).toBe(byRegex(`Bearer ${header}`));
      }),
      { numRuns: 2_000 },
    );
  });
});
