/**
 * Hash tables of strings that hash in JavaScript. A `Map` or `Set` keyed by a freshly cut
 * token makes V8 hash the new string outside the compiled code, which costs several times what
 * the scan that cut it did; the scorer looks up every token of every post, so its word tables
 * hash the token's characters here (FNV-1a) and probe an open-addressed array.
 */

/**
 * FNV-1a of `s.slice(start, end)`, without cutting it, in 30 bits: small integers, which V8
 * keeps in arrays without allocating a number for each.
 */
export function hashRange(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return finishHash(h);
}

/** The parts of `hashRange`, for a scan that hashes a token as it reads it (phrases.ts). */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;
export const finishHash = (h: number): number => (h ^ (h >>> 15)) & 0x3fffffff;

export const hashString = (s: string): number => hashRange(s, 0, s.length);

/** Strings to dense ids (0, 1, 2... in the order added); an id is never reused. */
export class StringIds {
  readonly keys: string[] = [];
  /** Each key's hash, by id (to place the keys again when the slots grow). */
  #hashes = new Int32Array(512);
  /** Every key's code units end to end, and where each key starts (by id, with one more for the end). */
  #units = new Uint16Array(4096);
  #starts = new Int32Array(513);
  /**
   * Open-addressed slots, two numbers each: the key's hash and its id plus one (0: empty). The
   * hash sits beside the id so a probe that meets another key reads one cache line, not two:
   * the table holds every lexicon's words (tens of thousands of slots), and the probes were
   * the tokeniser's largest cost in a CPU profile (2026-11-27).
   */
  #slots = new Int32Array(2048);
  #mask = 1023;

  get size(): number {
    return this.keys.length;
  }

  /** The id of `s`, or -1; `hash` is `hashString(s)` when the caller has it. */
  idOf(s: string, hash: number = hashString(s)): number {
    const slots = this.#slots;
    const mask = this.#mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const id = slots[2 * i + 1]! - 1;
      if (id === -1 || (slots[2 * i] === hash && this.keys[id] === s)) return id;
    }
  }

  /**
   * The id of the key whose code units (code-units.ts) are `units[start..end)`, with `hash`
   * their `hashRange`, or -1: a scan finds a word without cutting it out of the text.
   */
  idOfUnits(units: Uint16Array, start: number, end: number, hash: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    const starts = this.#starts;
    const keyUnits = this.#units;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const id = slots[2 * i + 1]! - 1;
      if (id === -1) return -1;
      if (slots[2 * i] !== hash) continue;
      const from = starts[id]!;
      if (starts[id + 1]! - from !== length) continue;
      let k = 0;
      while (k < length && keyUnits[from + k] === units[start + k]) k++;
      if (k === length) return id;
    }
  }

  /** The id of `s`, added when absent. */
  add(s: string): number {
    const found = this.idOf(s);
    if (found !== -1) return found;
    const id = this.keys.length;
    this.keys.push(s);
    if (id === this.#hashes.length) {
      const hashes = new Int32Array(id * 2);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
    }
    this.#hashes[id] = hashString(s);
    if (id + 2 > this.#starts.length) {
      const starts = new Int32Array(this.#starts.length * 2);
      starts.set(this.#starts);
      this.#starts = starts;
    }
    const from = this.#starts[id]!;
    if (from + s.length > this.#units.length) {
      let size = this.#units.length * 2;
      while (from + s.length > size) size *= 2;
      const units = new Uint16Array(size);
      units.set(this.#units);
      this.#units = units;
    }
    for (let k = 0; k < s.length; k++) this.#units[from + k] = s.charCodeAt(k);
    this.#starts[id + 1] = from + s.length;
    if (this.keys.length * 2 > this.#mask + 1) this.#grow();
    else this.#place(id, this.#hashes[id]!);
    return id;
  }

  #place(id: number, hash: number): void {
    let i = hash & this.#mask;
    while (this.#slots[2 * i + 1] !== 0) i = (i + 1) & this.#mask;
    this.#slots[2 * i] = hash;
    this.#slots[2 * i + 1] = id + 1;
  }

  #grow(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    this.#mask = (this.#slots.length >> 1) - 1;
    for (let id = 0; id < this.keys.length; id++) this.#place(id, this.#hashes[id]!);
  }
}

/**
 * Counts distinct strings, one round at a time, reusing its arrays: a slot belongs to the
 * current round when its stamp is the round's, so starting a round clears nothing.
 */
export class DistinctCounter {
  #keys: string[] = [];
  #stamps = new Int32Array(256);
  #mask = 255;
  #round = 0;
  count = 0;

  /** Starts a round for at most `n` strings. */
  begin(n: number): void {
    this.count = 0;
    if (n * 2 > this.#stamps.length) {
      let size = this.#stamps.length;
      while (n * 2 > size) size *= 2;
      this.#stamps = new Int32Array(size);
      this.#keys = new Array<string>(size);
      this.#mask = size - 1;
      this.#round = 0;
    }
    this.#round++;
    if (this.#round > 0x3fffffff) {
      this.#stamps.fill(0);
      this.#round = 1;
    }
  }

  /** Counts `s` (with `hash` = `hashString(s)`) unless this round has seen it. */
  add(s: string, hash: number): void {
    const round = this.#round;
    const mask = this.#mask;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      if (this.#stamps[i] !== round) {
        this.#stamps[i] = round;
        this.#keys[i] = s;
        this.count++;
        return;
      }
      if (this.#keys[i] === s) return;
    }
  }
}
