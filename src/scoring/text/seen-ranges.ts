/**
 * Which pieces of one text (ranges of its code units) repeat an earlier piece, without cutting
 * them out as strings: the sentence measure (text-scan.ts `sentenceStats`) kept a `Set` of
 * every sentence, and V8 hashed each fresh string in full outside the compiled code (about a
 * tenth of the text features' instructions, 2026-11-27). Repeats are rare in real posts, so a
 * piece is keyed by a fingerprint that reads at most 16 of its units (its length, its first
 * and last 8), and only pieces with the same fingerprint are compared unit by unit.
 *
 * A round is one text: `begin` starts it, and a slot belongs to the round when its stamp is
 * the round's, so starting a round clears nothing. The units must stay the same in a round.
 */

const EDGE = 8;

export class SeenRanges {
  #stamps = new Int32Array(64);
  #prints = new Int32Array(64);
  #starts = new Int32Array(64);
  #ends = new Int32Array(64);
  #mask = 63;
  #round = 0;
  /** Ranges placed this round. */
  #count = 0;

  /** Starts a round (a text). */
  begin(): void {
    this.#count = 0;
    this.#round++;
    if (this.#round > 0x3fffffff) {
      this.#stamps.fill(0);
      this.#round = 1;
    }
  }

  /** True when `u[start..end)` equals a range seen this round; else it is remembered. */
  seen(u: Uint16Array, start: number, end: number): boolean {
    const print = fingerprint(u, start, end);
    const length = end - start;
    const round = this.#round;
    const mask = this.#mask;
    for (let i = print & mask; ; i = (i + 1) & mask) {
      if (this.#stamps[i] !== round) {
        this.#put(i, print, start, end);
        if (++this.#count * 2 > mask) this.#grow();
        return false;
      }
      if (this.#prints[i] !== print) continue;
      const from = this.#starts[i]!;
      if (this.#ends[i]! - from !== length) continue;
      let k = 0;
      while (k < length && u[from + k] === u[start + k]) k++;
      if (k === length) return true;
    }
  }

  #put(i: number, print: number, start: number, end: number): void {
    this.#stamps[i] = this.#round;
    this.#prints[i] = print;
    this.#starts[i] = start;
    this.#ends[i] = end;
  }

  /** Twice the slots, with this round's ranges placed again (the earlier rounds' are dropped). */
  #grow(): void {
    const stamps = this.#stamps;
    const prints = this.#prints;
    const starts = this.#starts;
    const ends = this.#ends;
    const size = stamps.length * 2;
    this.#stamps = new Int32Array(size);
    this.#prints = new Int32Array(size);
    this.#starts = new Int32Array(size);
    this.#ends = new Int32Array(size);
    this.#mask = size - 1;
    for (let j = 0; j < stamps.length; j++) {
      if (stamps[j] !== this.#round) continue;
      let i = prints[j]! & this.#mask;
      while (this.#stamps[i] === this.#round) i = (i + 1) & this.#mask;
      this.#put(i, prints[j]!, starts[j]!, ends[j]!);
    }
  }
}

/** FNV-1a of the range's length and its first and last `EDGE` units (all of a short range). */
function fingerprint(u: Uint16Array, start: number, end: number): number {
  let h = Math.imul(0x811c9dc5 ^ (end - start), 0x01000193);
  const head = Math.min(end, start + EDGE);
  for (let i = start; i < head; i++) h = Math.imul(h ^ u[i]!, 0x01000193);
  for (let i = Math.max(head, end - EDGE); i < end; i++) h = Math.imul(h ^ u[i]!, 0x01000193);
  return (h ^ (h >>> 15)) & 0x3fffffff;
}
