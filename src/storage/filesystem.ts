import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type MediaStorage, StoredObjectMissing } from './storage.ts';

/** Objects as files under `{DATA_DIR}/media/`; written to a temporary name, then renamed into place. */
export class FilesystemStorage implements MediaStorage {
  readonly kind = 'filesystem' as const;
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir, 'media');
  }

  /** Keys come from the service, but a path must never escape the root whatever the key says. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key escapes the media directory: ${key}`);
    return path;
  }

  async put(key: string, body: Readable, _options: { contentType: string }): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const partial = join(dirname(path), `.${randomBytes(6).toString('hex')}.partial`);
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    const stream = createReadStream(path);
    // Surface a missing file as a typed error before any byte is promised to a client.
    await new Promise<void>((ok, fail) => {
      stream.once('open', () => ok());
      stream.once('error', (err: NodeJS.ErrnoException) =>
        fail(err.code === 'ENOENT' ? new StoredObjectMissing(key) : err),
      );
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
