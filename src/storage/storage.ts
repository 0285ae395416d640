import type { Readable } from 'node:stream';

/**
 * Where uploaded media bytes live: a directory under DATA_DIR by default, an S3-compatible
 * bucket when S3_BUCKET is set. Keys are opaque, slash-separated and never shown to clients.
 * Writes are streamed (never buffered whole) and atomic: a failed `put` leaves nothing behind.
 */
export interface MediaStorage {
  readonly kind: 'filesystem' | 's3';
  put(key: string, body: Readable, options: { contentType: string }): Promise<void>;
  /** Streams the object; throws StoredObjectMissing when it does not exist. */
  get(key: string): Promise<Readable>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
}

export class StoredObjectMissing extends Error {
  constructor(key: string) {
    super(`Stored object ${key} does not exist.`);
    this.name = 'StoredObjectMissing';
  }
}
