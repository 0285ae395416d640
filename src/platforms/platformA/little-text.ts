/**
 * platformA's `commentary` is "little text": these characters have markup meaning and the
 * platform silently cuts the text at the first one left unescaped. A hashtag written as
 * `#word` (a `#` directly followed by a letter or digit) is kept so it stays a hashtag.
 */
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);
const HASHTAG_START = /[\p{L}\p{N}]/u;

export function escapeLittleText(text: string): string {
  let out = '';
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '#' && HASHTAG_START.test(chars[i + 1] ?? '')) out += ch;
    else if (RESERVED.has(ch)) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}
