/**
 * `personLength` as aab8be2 wrote it, by a regex scan for the code units that can join a
 * character (text/person-length.ts now counts them on the sentence scan): the reference the
 * scan-fed count must equal on every text.
 */

const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' });

const complexScript = (cp: number) =>
  (cp >= 0x0900 && cp <= 0x109f) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x1780 && cp <= 0x17ff);

const extends_ = (cp: number) =>
  (cp >= 0x0300 && cp <= 0x036f) ||
  (cp >= 0x1ab0 && cp <= 0x1aff) ||
  (cp >= 0x1dc0 && cp <= 0x1dff) ||
  (cp >= 0x20d0 && cp <= 0x20ff) ||
  (cp >= 0xfe00 && cp <= 0xfe0f) ||
  (cp >= 0xfe20 && cp <= 0xfe2f) ||
  (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
  (cp >= 0xe0020 && cp <= 0xe007f) ||
  (cp >= 0xe0100 && cp <= 0xe01ef);

const ZWJ = 0x200d;
const isRegional = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;

const SPECIAL =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class matches marks as code units, one at a time, on purpose
  /[\u0300-\u036f\u0900-\u109f\u1100-\u11ff\u1780-\u17ff\u1ab0-\u1aff\u1dc0-\u1dff\u200d\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]|[\ud800-\udbff][\udc00-\udfff]/g;

export function personLengthByRegex(text: string): number {
  let count = text.length;
  SPECIAL.lastIndex = 0;
  let regionalEnd = -1;
  for (let m = SPECIAL.exec(text); m !== null; m = SPECIAL.exec(text)) {
    const at = m.index;
    const cp = text.codePointAt(at)!;
    const units = m[0].length;
    if (complexScript(cp)) return [...SEGMENTER.segment(text)].length;
    if (cp === ZWJ) {
      if (at === 0) continue;
      const next = at + 1 < text.length ? text.codePointAt(at + 1)! : -1;
      const nextUnits = next === -1 ? 0 : next > 0xffff ? 2 : 1;
      count -= 1 + nextUnits;
      SPECIAL.lastIndex = at + 1 + nextUnits;
      regionalEnd = -1;
      continue;
    }
    if (extends_(cp) && at > 0) {
      count -= units;
      continue;
    }
    if (isRegional(cp)) {
      if (regionalEnd === at) {
        count -= 2;
        regionalEnd = -1;
        continue;
      }
      regionalEnd = at + 2;
    } else regionalEnd = -1;
    if (units === 2) count--;
  }
  return count;
}
