import { PlatformError } from '../platform.ts';

/**
 * Reads consecutive byte ranges of a file given as a Buffer or a stream, holding at most one
 * range (plus one stream chunk) in memory, so a 500 MB video is never buffered whole.
 */
export function readRanges(data: NodeJS.ReadableStream | Buffer): {
  read(length: number): Promise<Buffer>;
  close(): void;
} {
  if (Buffer.isBuffer(data)) {
    let offset = 0;
    return {
      async read(length) {
        if (offset + length > data.length) throw shortFile();
        const out = data.subarray(offset, offset + length);
        offset += length;
        return out;
      },
      close() {},
    };
  }
  const iterator = (data as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return {
    async read(length) {
      while (pendingBytes < length) {
        const next = await iterator.next();
        if (next.done) throw shortFile();
        const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
        pending.push(chunk);
        pendingBytes += chunk.length;
      }
      const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      const rest = all.subarray(length);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      return all.subarray(0, length);
    },
    close() {
      void iterator.return?.();
      (data as { destroy?: () => void }).destroy?.();
    },
  };
}

const shortFile = () =>
  new PlatformError('bad_request', 'The media file ended before its recorded size; it cannot be uploaded.');
