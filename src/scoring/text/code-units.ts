/**
 * A string's UTF-16 code units in a reused typed array, for the scans that read every character
 * of a post. V8's `charCodeAt` dispatches on the string's representation at every call (a post
 * trimmed or cut from a larger string is a sliced string, slower still): callgrind counted 30-45
 * instructions per character for a loop of `charCodeAt` against about 9 for the same loop over
 * a Uint16Array, and copying the text in (one native `Buffer.write`) about 3.5 per character.
 *
 * Each scanner owns its `CodeUnits`, and a scan must finish reading before it calls code that
 * reads into the same one again. Units past the text's length are left from earlier texts:
 * read only below `text.length`.
 */
export class CodeUnits {
  #bytes = Buffer.alloc(8192);
  #units = new Uint16Array(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.length >> 1);

  /** The code units of `text` at indices 0 to `text.length - 1`. */
  of(text: string): Uint16Array {
    if (text.length * 2 > this.#bytes.length) {
      let size = this.#bytes.length;
      while (text.length * 2 > size) size *= 2;
      this.#bytes = Buffer.alloc(size);
      this.#units = new Uint16Array(this.#bytes.buffer, this.#bytes.byteOffset, size >> 1);
    }
    this.#bytes.write(text, 0, 'utf16le');
    return this.#units;
  }
}
