import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countedLength, overflowIndex } from '../../packages/client/src/text-length.ts';
import { diffWords, tokenize } from '../../web/src/lib/diff.ts';
import { ApiError, explainError, explainPostError } from '../../web/src/lib/errors.ts';
import { foldPost as foldAt } from '../../web/src/lib/fold.ts';
import { mediaKindOf } from '../../web/src/lib/media.ts';
import { formatWhen, fromLocalInput, toLocalInput, zoneAbbreviation } from '../../web/src/lib/time.ts';
import { FACTS } from '../helpers/platform-facts.ts';

// platformA's fold and platformB's counting as /v1/meta publishes them.
const FOLD = FACTS.platformA.fold!;
const FOLD_CHARS = FOLD.chars;
const foldPost = (text: string) => foldAt(text, FOLD);
const B = FACTS.platformB.parts.post;
const platformBLength = (text: string) => countedLength(B.counting, text);
const platformBOverflowIndex = (text: string) => overflowIndex(B.counting, text, B.max);

/** The console's own logic (no browser): the fold, timezones, the diff, errors in words. */
describe('platformA fold', () => {
  it('folds where /v1/meta says: 3 lines, 210 characters', () => {
    expect(FOLD).toEqual({ chars: 210, lines: 3 });
  });

  it('shows a short post whole', () => {
    expect(foldPost('Short and sweet.')).toEqual({ visible: 'Short and sweet.', folded: false, index: 16 });
  });

  it('folds after three lines even when they are short', () => {
    const fold = foldPost('one\ntwo\nthree\nfour\nfive');
    expect(fold).toMatchObject({ visible: 'one\ntwo\nthree', folded: true, index: 13 });
  });

  it('folds a long first paragraph at a word boundary within the character limit', () => {
    const text = `${'word '.repeat(60)}end`;
    const fold = foldPost(text);
    expect(fold.folded).toBe(true);
    expect(fold.visible.length).toBeLessThanOrEqual(FOLD_CHARS);
    expect(fold.visible.endsWith('word')).toBe(true);
    expect(text.startsWith(fold.visible)).toBe(true);
  });

  it('counts an emoji as one character', () => {
    const text = '🚀'.repeat(FOLD_CHARS);
    expect(foldPost(text).folded).toBe(false);
    expect(foldPost(`${text}x`).folded).toBe(true);
  });

  it('ignores trailing blank lines', () => {
    expect(foldPost('a\nb\nc\n\n\n').folded).toBe(false);
  });

  it('cuts inside a single giant word rather than showing nothing', () => {
    const fold = foldPost(`${'x'.repeat(300)} tail`);
    expect(fold.visible).toBe('x'.repeat(FOLD_CHARS));
  });
});

describe('platformB length', () => {
  it('counts code points, and every URL as 23', () => {
    expect(platformBLength('hello')).toBe(5);
    expect(platformBLength('see https://example.com/a/very/long/path/that/goes/on?and=on')).toBe(4 + 23);
    expect(platformBLength('👍👍')).toBe(2);
  });

  it('marks where 280 runs out', () => {
    expect(platformBOverflowIndex('a'.repeat(280))).toBe(280);
    expect(platformBOverflowIndex('a'.repeat(290))).toBe(280);
    const withUrl = `${'a'.repeat(250)} https://example.com/x ${'b'.repeat(20)}`;
    // 250 + 1 + 23 + 1 = 275, then 5 more b's fit.
    expect(platformBOverflowIndex(withUrl)).toBe(withUrl.indexOf('b') + 5);
  });
});

describe('timezone handling', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = 'America/New_York';
  });
  afterEach(() => {
    process.env.TZ = saved;
  });

  it('reads a datetime-local value as the browser zone and writes it back unchanged', () => {
    const at = fromLocalInput('2026-07-14T09:30');
    expect(at).toBe(Date.UTC(2026, 6, 14, 13, 30)); // EDT is UTC-4
    expect(toLocalInput(at!)).toBe('2026-07-14T09:30');
    expect(fromLocalInput('2026-01-14T09:30')).toBe(Date.UTC(2026, 0, 14, 14, 30)); // EST is UTC-5
    expect(fromLocalInput('2026-01-14T09:30:15')).toBe(Date.UTC(2026, 0, 14, 14, 30, 15));
  });

  it('rejects empty and malformed values', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow at 9')).toBeNull();
  });

  it('names the zone as it is at that instant (daylight saving included)', () => {
    expect(zoneAbbreviation(Date.UTC(2026, 0, 14, 12), 'America/New_York', 'en-US')).toBe('EST');
    expect(zoneAbbreviation(Date.UTC(2026, 6, 14, 12), 'America/New_York', 'en-US')).toBe('EDT');
    expect(formatWhen(Date.UTC(2026, 6, 14, 13, 30), 'en-GB')).toMatch(/14 Jul(?: 2026)?, 09:30 GMT-4$/);
    // The viewer's locale writes the date its own way: month first and a 12-hour clock in en-US.
    expect(formatWhen(Date.UTC(2026, 6, 14, 13, 30), 'en-US')).toMatch(/Jul 14(?:, 2026)?, 09:30 AM EDT$/);
    expect(formatWhen(Date.UTC(2026, 6, 14, 13, 30), 'de-DE')).toMatch(/14\. Juli?(?: 2026)?, 09:30/);
  });

  it('resolves a wall time skipped by the spring-forward jump to a real instant', () => {
    const at = fromLocalInput('2026-03-08T02:30');
    expect(at).not.toBeNull();
    expect(toLocalInput(at!)).toBe('2026-03-08T03:30');
  });
});

describe('rewrite diff', () => {
  const join = (parts: { kind: string; text: string }[], skip: string) =>
    parts
      .filter((p) => p.kind !== skip)
      .map((p) => p.text)
      .join('');

  it('tokenizes so that joining gives the text back', () => {
    const text = 'Line one.\n\n  Line two, with  spaces.';
    expect(tokenize(text).join('')).toBe(text);
  });

  it('marks added and removed words, and both sides rebuild exactly', () => {
    const before = 'We shipped the billing rewrite in six weeks.';
    const after = 'We shipped our billing rewrite in 6 weeks, on time.';
    const parts = diffWords(before, after);
    expect(join(parts, 'added')).toBe(before);
    expect(join(parts, 'removed')).toBe(after);
    expect(parts.filter((p) => p.kind === 'removed').map((p) => p.text.trim())).toEqual([
      'the',
      'six weeks.',
    ]);
    expect(parts.filter((p) => p.kind === 'added').map((p) => p.text.trim())).toEqual([
      'our',
      '6 weeks, on time.',
    ]);
  });

  it('reports identical texts as one unchanged part', () => {
    expect(diffWords('same text', 'same text')).toEqual([{ kind: 'same', text: 'same text' }]);
  });
});

describe('errors in words', () => {
  it('says what to do for known codes, with the API message and field details', () => {
    const e = explainError(
      new ApiError(400, {
        error: {
          code: 'invalid_request',
          message: 'Invalid body.',
          details: [{ path: 'body.runAt', message: 'must be in the future' }],
        },
      }),
    );
    expect(e.message).toBe('Invalid body. (body.runAt: must be in the future)');
    expect(e.action).toMatch(/Correct the fields/);
    const limited = explainError(
      new ApiError(429, { error: { code: 'rate_limited', message: 'Slow down.' } }, 12),
    );
    expect(limited.action).toBe('Wait 12 seconds and try again.');
  });

  it('names the request id for server errors, and a network failure as unreachable', () => {
    const e = explainError(
      new ApiError(500, { error: { code: 'internal_error', message: 'Oops.', requestId: 'req_1' } }),
    );
    expect(e.action).toContain('req_1');
    expect(explainError(new TypeError('Failed to fetch')).title).toBe('Cannot reach the server');
  });

  it("turns a failed post's stored error into a reason and a next step", () => {
    const dup = explainPostError('publish_failed: platformA rejected the post as a duplicate (422).');
    expect(dup.reason).toBe('platformA rejected the post as a duplicate (422).');
    expect(dup.action).toMatch(/change the wording/);
    expect(explainPostError('the channel was revoked').action).toMatch(/Reconnect/);
    expect(explainPostError(null).reason).toMatch(/without a recorded reason/);
  });
});

describe('media kind', () => {
  it('follows what is attached', () => {
    expect(mediaKindOf([])).toBe('none');
    expect(mediaKindOf([{ contentType: 'image/png' }])).toBe('single-image');
    expect(mediaKindOf([{ contentType: 'image/png' }, { contentType: 'image/gif' }])).toBe('multi-image');
    expect(mediaKindOf([{ contentType: 'application/pdf' }])).toBe('document');
    expect(mediaKindOf([{ contentType: 'video/mp4' }, { contentType: 'image/png' }])).toBe('video');
  });
});
