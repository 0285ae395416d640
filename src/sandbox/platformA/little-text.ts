/**
 * The sandbox's own reading of "little text" (independent of the adapter's escaper, so
 * tests catch a wrong escaper): the live platform silently cuts a commentary at its first
 * unescaped reserved character; the sandbox refuses it instead, so the mistake is visible.
 */
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

export type LittleTextResult = { ok: true; text: string } | { ok: false; message: string };

/** Returns the plain text a little-text commentary shows, or why it would be cut. */
export function readLittleText(commentary: string): LittleTextResult {
  const chars = Array.from(commentary);
  let text = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '\\') {
      const next = chars[i + 1];
      if (next === undefined || !RESERVED.has(next)) {
        return {
          ok: false,
          message: `commentary has a backslash at character ${i} that escapes nothing reserved`,
        };
      }
      text += next;
      i++;
      continue;
    }
    if (ch === '#' && LETTER_OR_DIGIT.test(chars[i + 1] ?? '')) {
      text += ch; // a hashtag
      continue;
    }
    if (RESERVED.has(ch)) {
      return {
        ok: false,
        message: `commentary has an unescaped '${ch}' at character ${i}; little text would cut the post there`,
      };
    }
    text += ch;
  }
  return { ok: true, text };
}
