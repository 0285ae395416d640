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
   * Open-addressed slots, one number each: 0 when empty, else the key's id plus one in the low
   * `#idBits` bits and the hash's bits above those in the rest (a tag: a probe that meets another
   * key is told apart without loading the key). The table holds every lexicon's words (tens of
   * thousands of slots) and the probes are most of the tokeniser's time, spent waiting for
   * memory (CPU profile, 2026-11-27): one number per slot halves what they read, as the hash
   * and the id side by side once halved the cache lines a probe touched.
   */
  #slots = new Int32Array(1024);
  #mask = 1023;
  /** Bits of a slot holding the id plus one: the slot count's, as ids stay below half of it. */
  #idBits = 10;

  get size(): number {
    return this.keys.length;
  }

  /** The tag of a hash, placed above the id's bits. */
  #tagOf(hash: number): number {
    return (hash >>> this.#idBits) << this.#idBits;
  }

  /** The id of `s`, or -1; `hash` is `hashString(s)` when the caller has it. */
  idOf(s: string, hash: number = hashString(s)): number {
    const slots = this.#slots;
    const mask = this.#mask;
    const idMask = mask;
    const tag = this.#tagOf(hash);
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      const id = (slot & idMask) - 1;
      if ((slot & ~idMask) === tag && this.keys[id] === s) return id;
    }
  }

  /**
   * The id of the key whose code units (code-units.ts) are `units[start..end)`, with `hash`
   * their `hashRange`, or -1: a scan finds a word without cutting it out of the text.
   */
  idOfUnits(units: Uint16Array, start: number, end: number, hash: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    const idMask = mask;
    const tag = this.#tagOf(hash);
    const starts = this.#starts;
    const keyUnits = this.#units;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      if ((slot & ~idMask) !== tag) continue;
      const id = (slot & idMask) - 1;
      const from = starts[id]!;
      if (starts[id + 1]! - from !== length) continue;
      let k = 0;
      while (k < length && keyUnits[from + k] === units[start + k]) k++;
      if (k === length) return id;
    }
  }

  /**
   * `idOfUnits` with each ’ in the range read as ' (keys spell apostrophes straight, and `hash`
   * folds them so): a token such as "don’t" is found without cutting and straightening it.
   */
  idOfStraightUnits(units: Uint16Array, start: number, end: number, hash: number): number {
    const slots = this.#slots;
    const mask = this.#mask;
    const tag = this.#tagOf(hash);
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === 0) return -1;
      if ((slot & ~mask) !== tag) continue;
      const id = (slot & mask) - 1;
      const from = this.#starts[id]!;
      if (this.#starts[id + 1]! - from !== length) continue;
      let k = 0;
      for (; k < length; k++) {
        const c = units[start + k]!;
        if (this.#units[from + k] !== (c === 0x2019 ? 39 : c)) break;
      }
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
    while (this.#slots[i] !== 0) i = (i + 1) & this.#mask;
    this.#slots[i] = this.#tagOf(hash) | (id + 1);
  }

  #grow(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    this.#mask = this.#slots.length - 1;
    this.#idBits++;
    for (let id = 0; id < this.keys.length; id++) this.#place(id, this.#hashes[id]!);
  }
}

/**
 * Counts distinct strings, one round at a time, reusing its arrays: a slot belongs to the
 * current round when its stamp is the round's, so starting a round clears nothing.
 */
export class DistinctCounter {
  #keys: string[] = [];
  /** For `addRange`: each slot's hash, start and end. */
  #ranges = new Int32Array(0);
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

  /**
   * `add` of a token given as its range `text[start..end)` (its `hash` folds ’ to ', as the
   * tokeniser's tokens are spelt): no string is cut for it. A round uses `add` or this, not both.
   */
  addRange(text: string, start: number, end: number, hash: number): void {
    const round = this.#round;
    const mask = this.#mask;
    if (this.#ranges.length < this.#stamps.length * 3) this.#ranges = new Int32Array(this.#stamps.length * 3);
    const ranges = this.#ranges;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      if (this.#stamps[i] !== round) {
        this.#stamps[i] = round;
        ranges[3 * i] = hash;
        ranges[3 * i + 1] = start;
        ranges[3 * i + 2] = end;
        this.count++;
        return;
      }
      if (ranges[3 * i] === hash && sameWord(text, ranges[3 * i + 1]!, ranges[3 * i + 2]!, start, end))
        return;
    }
  }
}

/** Whether two ranges of `text` are the same token: ’ and ' are one character in a token. */
function sameWord(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (; a < aEnd; a++, b++) {
    const x = text.charCodeAt(a);
    const y = text.charCodeAt(b);
    if (x !== y && (x === 0x2019 ? 39 : x) !== (y === 0x2019 ? 39 : y)) return false;
  }
  return true;
}
