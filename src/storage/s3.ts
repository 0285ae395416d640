import type { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import { type AwsCredentials, EMPTY_SHA256, encodePath, sha256Hex, signRequest } from './sigv4.ts';
import { type MediaStorage, StoredObjectMissing } from './storage.ts';

export interface S3Options {
  bucket: string;
  /** e.g. http://127.0.0.1:9000 for MinIO; unset means AWS (virtual-hosted addressing). */
  endpoint?: string | undefined;
  region: string;
  credentials: AwsCredentials;
  /** Multipart part size; S3 requires at least 5 MiB for every part but the last. */
  partSize?: number;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const REQUEST_TIMEOUT_MS = 60_000;

export class S3Error extends Error {
  readonly status: number;
  constructor(operation: string, status: number, body: string) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
    super(`S3 ${operation} failed with HTTP ${status}${code ? ` (${code})` : ''}.`);
    this.name = 'S3Error';
    this.status = status;
  }
}

/**
 * S3-compatible storage over plain HTTP with SigV4. Uploads of unknown length are streamed:
 * bytes are gathered one part at a time (8 MiB), so memory stays bounded whatever the file
 * size; a body that fits in one part goes up as a single PutObject.
 */
export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  private readonly options: S3Options;
  private readonly partSize: number;

  constructor(options: S3Options) {
    this.options = options;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
  }

  private objectUrl(key: string, query = ''): URL {
    const { bucket, endpoint, region } = this.options;
    const base = endpoint
      ? `${endpoint.replace(/\/+$/, '')}/${encodePath(bucket)}/`
      : `https://${bucket}.s3.${region}.amazonaws.com/`;
    return new URL(`${base}${encodePath(key)}${query}`);
  }

  private async send(
    operation: string,
    method: Dispatcher.HttpMethod,
    url: URL,
    body?: Buffer,
    extraHeaders: Record<string, string> = {},
  ): Promise<Dispatcher.ResponseData> {
    const headers = signRequest({
      method,
      url,
      headers: body ? { ...extraHeaders, 'content-length': String(body.length) } : extraHeaders,
      payloadHash: body ? sha256Hex(body) : EMPTY_SHA256,
      credentials: this.options.credentials,
      region: this.options.region,
      now: new Date(),
    });
    delete headers.host; // undici derives the same Host from the URL
    const res = await request(url, {
      method,
      headers,
      body,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
    if (res.statusCode >= 300 && !(method === 'GET' && res.statusCode === 404)) {
      const text = await res.body.text().catch(() => '');
      throw new S3Error(operation, res.statusCode, text);
    }
    return res;
  }

  async put(key: string, body: Readable, options: { contentType: string }): Promise<void> {
    const contentType = { 'content-type': options.contentType };
    let uploadId: string | null = null;
    const etags: string[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;

    const flushPart = async () => {
      const part = Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      if (uploadId === null) {
        const res = await this.send(
          'CreateMultipartUpload',
          'POST',
          this.objectUrl(key, '?uploads'),
          undefined,
          contentType,
        );
        const xml = await res.body.text();
        uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(xml)?.[1] ?? null;
        if (!uploadId) throw new Error('S3 CreateMultipartUpload answered without an UploadId.');
      }
      const partNumber = etags.length + 1;
      const query = `?partNumber=${partNumber}&uploadId=${encodeURIComponent(uploadId)}`;
      const res = await this.send('UploadPart', 'PUT', this.objectUrl(key, query), part);
      await res.body.dump();
      const etag = res.headers.etag;
      if (typeof etag !== 'string') throw new Error('S3 UploadPart answered without an ETag.');
      etags.push(etag);
    };

    try {
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        pending.push(buf);
        pendingBytes += buf.length;
        if (pendingBytes >= this.partSize) await flushPart();
      }
      if (uploadId === null) {
        const res = await this.send(
          'PutObject',
          'PUT',
          this.objectUrl(key),
          Buffer.concat(pending, pendingBytes),
          contentType,
        );
        await res.body.dump();
        return;
      }
      if (pendingBytes > 0) await flushPart();
      const xml = `<CompleteMultipartUpload>${etags
        .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${escapeXml(etag)}</ETag></Part>`)
        .join('')}</CompleteMultipartUpload>`;
      const query = `?uploadId=${encodeURIComponent(uploadId)}`;
      const res = await this.send(
        'CompleteMultipartUpload',
        'POST',
        this.objectUrl(key, query),
        Buffer.from(xml),
        {
          'content-type': 'application/xml',
        },
      );
      // S3 may answer 200 and still report an error in the body.
      const answer = await res.body.text();
      if (answer.includes('<Error>')) throw new S3Error('CompleteMultipartUpload', 200, answer);
    } catch (err) {
      if (uploadId !== null) {
        const query = `?uploadId=${encodeURIComponent(uploadId)}`;
        await this.send('AbortMultipartUpload', 'DELETE', this.objectUrl(key, query))
          .then((res) => res.body.dump())
          .catch(() => {});
      }
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const res = await this.send('GetObject', 'GET', this.objectUrl(key));
    if (res.statusCode === 404) {
      await res.body.dump();
      throw new StoredObjectMissing(key);
    }
    return res.body;
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DeleteObject', 'DELETE', this.objectUrl(key));
    await res.body.dump();
  }
}

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
