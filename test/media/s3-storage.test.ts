import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../src/config/config.ts';
import { openStorage } from '../../src/storage/open.ts';
import { S3Storage } from '../../src/storage/s3.ts';
import { encodePath, sha256Hex, signRequest } from '../../src/storage/sigv4.ts';
import { StoredObjectMissing } from '../../src/storage/storage.ts';
import { startTestApp } from '../helpers/app.ts';
import { type FakeS3, startFakeS3 } from './fake-s3.ts';
import { sampleFile } from './fixtures.ts';

const EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const signature = (auth: string) => /Signature=([0-9a-f]+)/.exec(auth)?.[1];

describe('SigV4 signer', () => {
  it("reproduces AWS's published S3 example signatures", () => {
    const now = new Date('2013-05-24T00:00:00Z');
    const get = signRequest({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      payloadHash: sha256Hex(''),
      credentials: EXAMPLE,
      region: 'us-east-1',
      now,
    });
    expect(get.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    // PUT example: the key contains `$`, which must be percent-encoded in the canonical URI.
    const put = signRequest({
      method: 'PUT',
      url: new URL(`https://examplebucket.s3.amazonaws.com/${encodePath('test$file.text')}`),
      headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: sha256Hex('Welcome to Amazon S3.'),
      credentials: EXAMPLE,
      region: 'us-east-1',
      now,
    });
    expect(signature(put.authorization!)).toBe(
      '98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd',
    );
  });
});

describe('S3 storage against a fake S3-compatible server', () => {
  let s3: FakeS3;
  const creds = { accessKeyId: 'test-key', secretAccessKey: 'test-secret' };
  beforeAll(async () => {
    s3 = await startFakeS3({ bucket: 'media-bucket', ...creds });
  });
  afterAll(async () => {
    await s3?.close();
  });

  const storage = (partSize?: number, secret = creds.secretAccessKey) =>
    new S3Storage({
      bucket: 'media-bucket',
      endpoint: s3.url,
      region: 'eu-west-1',
      credentials: { accessKeyId: creds.accessKeyId, secretAccessKey: secret },
      partSize,
    });

  it('puts a small object in one request, gets and deletes it', async () => {
    const bytes = randomBytes(1000);
    await storage().put('acc_1/med one+two.png', Readable.from([bytes]), { contentType: 'image/png' });
    expect(s3.log.at(-1)).toBe('PUT object');
    expect(s3.objects.get('acc_1/med one+two.png')?.contentType).toBe('image/png');
    const back = await storage().get('acc_1/med one+two.png');
    const chunks: Buffer[] = [];
    for await (const c of back) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await storage().delete('acc_1/med one+two.png');
    expect(s3.objects.has('acc_1/med one+two.png')).toBe(false);
    await expect(storage().get('acc_1/med one+two.png')).rejects.toBeInstanceOf(StoredObjectMissing);
  });

  it('streams a large object as a multipart upload, holding one part at a time', async () => {
    const partSize = 64 * 1024;
    const chunks = Array.from({ length: 40 }, () => randomBytes(10_000)); // 400 KB in 10 KB chunks
    const bytes = Buffer.concat(chunks);
    const before = s3.log.length;
    await storage(partSize).put('acc_1/big.mp4', Readable.from(chunks), { contentType: 'video/mp4' });
    const ops = s3.log.slice(before);
    expect(ops[0]).toBe('POST create');
    // A part is flushed once 64 KiB are pending: 7 chunks (70,000 bytes) each, then the 50,000-byte rest.
    expect(ops.filter((o) => o === 'PUT part').length).toBe(6);
    expect(ops.at(-1)).toBe('POST upload');
    expect(s3.objects.get('acc_1/big.mp4')?.body.equals(bytes)).toBe(true);
    expect(s3.maxBodyBytes).toBeLessThan(partSize + 10_000 + 1);
  });

  it('aborts the multipart upload when the source fails midway, leaving no object', async () => {
    const source = new Readable({ read() {} });
    const put = storage(64 * 1024).put('acc_1/broken.mp4', source, { contentType: 'video/mp4' });
    for (let i = 0; i < 10; i++) source.push(randomBytes(10_000));
    setTimeout(() => source.destroy(new Error('client went away')), 50);
    await expect(put).rejects.toThrow('client went away');
    expect(s3.log.at(-1)).toBe('DELETE upload');
    expect(s3.objects.has('acc_1/broken.mp4')).toBe(false);
  });

  it('surfaces a refused signature as an error naming the S3 code', async () => {
    await expect(
      storage(undefined, 'wrong-secret').put('acc_1/x.png', Readable.from([Buffer.from('x')]), {
        contentType: 'image/png',
      }),
    ).rejects.toThrow(/HTTP 403 \(SignatureDoesNotMatch\)/);
  });

  it('serves the media API end to end when S3_BUCKET is set', async () => {
    const app = await startTestApp({
      S3_BUCKET: 'media-bucket',
      S3_ENDPOINT: s3.url,
      S3_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: creds.accessKeyId,
      AWS_SECRET_ACCESS_KEY: creds.secretAccessKey,
    });
    try {
      const { apiKey } = await app.signup();
      const meta = await app.request('GET', '/v1/meta');
      expect(meta.body.capabilities.mediaStorage).toBe('s3');
      const bytes = sampleFile.mp4(9 * 1024 * 1024); // more than one 8 MiB part
      const res = await app.request('POST', '/v1/media', {
        key: apiKey,
        raw: bytes,
        headers: { 'content-type': 'video/mp4', 'x-filename': 'clip.mp4' },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.media.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      const stored = [...s3.objects.entries()].find(([k]) => k.endsWith(res.body.media.id));
      expect(stored?.[1].body.equals(bytes)).toBe(true);
      const content = await fetch(`${app.url}/v1/media/${res.body.media.id}/content`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(content.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
      // A mismatched upload leaves nothing in the bucket.
      const count = s3.objects.size;
      const bad = await app.request('POST', '/v1/media', {
        key: apiKey,
        raw: sampleFile.png(),
        headers: { 'content-type': 'video/mp4' },
      });
      expect(bad.status).toBe(415);
      expect(s3.objects.size).toBe(count);
      const del = await app.request('DELETE', `/v1/media/${res.body.media.id}`, { key: apiKey });
      expect(del.status).toBe(200);
      expect(s3.objects.has(stored![0])).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with S3_BUCKET but no credentials', () => {
    expect(() => openStorage(configWith({ S3_BUCKET: 'media-bucket', S3_ENDPOINT: s3.url }))).toThrow(
      /AWS_ACCESS_KEY_ID: required when S3_BUCKET is set/,
    );
  });
});
