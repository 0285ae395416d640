import { createHash } from 'node:crypto';
import { finished, type Readable, Transform } from 'node:stream';
import { Invalid, TooLarge, UnsupportedType } from '../../domain/errors.ts';
import { formatBytes, type MediaType, SNIFF_BYTES, sniffMediaType } from './media-types.ts';

export const tooLarge = (type: MediaType, limit: number) =>
  new TooLarge(`${type} uploads are limited to ${formatBytes(limit)} (${limit} bytes).`);

const mismatch = (declared: MediaType, actual: MediaType | null) =>
  new UnsupportedType(
    actual
      ? `Content-Type says ${declared} but the bytes are ${actual}; send the matching Content-Type.`
      : `Content-Type says ${declared} but the bytes are not a ${declared} file.`,
  );

export interface InspectedUpload {
  /** The bytes, passed through as they arrive; errors with 413/415/400 as soon as a rule breaks. */
  stream: Readable;
  /** Size and digest of everything that went through; valid once the stream has ended. */
  summary(): { size: number; sha256: string };
}

/**
 * Wraps an upload body: counts bytes against the type's limit (failing the moment it is
 * exceeded, so an oversized body is never read to its end), hashes them, and checks the first
 * bytes against the declared type. The source is piped, not pipelined, so a failure leaves the
 * request itself intact and the 4xx answer can still be written on its socket.
 */
export function inspectUpload(source: Readable, declared: MediaType, limit: number): InspectedUpload {
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer | null = Buffer.alloc(0);

  const checkHead = (bytes: Buffer) => {
    const actual = sniffMediaType(bytes);
    if (actual !== declared) throw mismatch(declared, actual);
  };

  const inspector = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit) return callback(tooLarge(declared, limit));
      hash.update(chunk);
      if (head !== null) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= SNIFF_BYTES) {
          try {
            checkHead(head);
          } catch (err) {
            return callback(err as Error);
          }
          head = null;
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      if (size === 0) return callback(new Invalid('The upload is empty; send the file bytes as the body.'));
      try {
        if (head !== null) checkHead(head);
      } catch (err) {
        return callback(err as Error);
      }
      callback();
    },
  });

  // The consumer (storage) may attach its listeners a tick later; an early 415/413 must still
  // reach it through the stream's errored state rather than crash the process as an unhandled
  // 'error' event.
  inspector.on('error', () => {});
  source.pipe(inspector);
  // pipe() does not forward a client that hangs up mid-upload: fail the write instead of waiting forever.
  finished(source, (err) => {
    if (err && !inspector.destroyed)
      inspector.destroy(new Invalid('The upload was interrupted before it ended.'));
  });

  return { stream: inspector, summary: () => ({ size, sha256: hash.digest('hex') }) };
}
