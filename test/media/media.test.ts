import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { sampleFile, TYPES } from './fixtures.ts';

let t: TestApp;
let dataDir: string;
let alice: { apiKey: string; accountId: string };
let bob: { apiKey: string; accountId: string };

const KB = 1024;
const MIB = 1024 * 1024;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'postkit-media-'));
  // Small limits so the size rules are cheap to exercise: images 64 KB, gif 128 KB, pdf 1 MiB.
  t = await startTestApp({
    DATA_DIR: dataDir,
    MEDIA_MAX_IMAGE_MB: String(64 / 1024),
    MEDIA_MAX_GIF_MB: String(128 / 1024),
    MEDIA_MAX_PDF_MB: '1',
    MEDIA_MAX_VIDEO_MB: '2',
  });
  alice = await t.signup();
  bob = await t.signup();
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (
  key: string,
  bytes: Buffer,
  type: string | undefined,
  extra: Record<string, string> = {},
  query = '',
) =>
  t.request('POST', `/v1/media${query}`, {
    key,
    raw: bytes,
    headers: type === undefined ? extra : { 'content-type': type, ...extra },
  });

async function makeBrand(key: string) {
  const res = await t.request('POST', '/v1/brands', { key, body: { name: 'Brand' } });
  expect(res.status, res.text).toBe(201);
  return res.body.brand.id as string;
}

const storedFiles = () => {
  const root = join(dataDir, 'media');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
};

describe('media upload', () => {
  it('accepts each of the six types, records size, sha256 and basename, and streams the bytes back', async () => {
    for (const [name, type] of Object.entries(TYPES)) {
      const bytes = sampleFile[name as keyof typeof sampleFile](3000);
      const res = await upload(alice.apiKey, bytes, type, {
        'x-filename': `../../secret/dir/${name}-file.bin`,
      });
      expect(res.status, `${type}: ${res.text}`).toBe(201);
      const m = res.body.media;
      expect(Object.keys(m).sort()).toEqual(
        ['accountId', 'brandId', 'contentType', 'createdAt', 'filename', 'id', 'sha256', 'size'].sort(),
      );
      expect(m).toMatchObject({
        accountId: alice.accountId,
        brandId: null,
        contentType: type,
        size: 3000,
        filename: `${name}-file.bin`,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      expect(m.id).toMatch(/^med_/);
      const content = await fetch(`${t.url}/v1/media/${m.id}/content`, {
        headers: { authorization: `Bearer ${alice.apiKey}` },
      });
      expect(content.status).toBe(200);
      expect(content.headers.get('content-type')).toBe(type);
      expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
    }
  });

  it('reduces X-Filename to a basename whatever the separators, and drops an empty one', async () => {
    const cases: [string, string | null][] = [
      ['C:\\Users\\me\\Pictures\\holiday.png', 'holiday.png'],
      ['/etc/passwd', 'passwd'],
      ['plain.png', 'plain.png'],
      ['caf%C3%A9.png', 'café.png'],
      ['dir/', null],
      ['..', null],
    ];
    for (const [header, expected] of cases) {
      const res = await upload(alice.apiKey, sampleFile.png(), 'image/png', { 'x-filename': header });
      expect(res.status).toBe(201);
      expect(res.body.media.filename, header).toBe(expected);
    }
    const none = await upload(alice.apiKey, sampleFile.png(), 'image/png');
    expect(none.body.media.filename).toBeNull();
  });

  it('accepts a Content-Type with parameters and any case', async () => {
    const res = await upload(alice.apiKey, sampleFile.jpeg(), 'Image/JPEG; charset=binary');
    expect(res.status).toBe(201);
    expect(res.body.media.contentType).toBe('image/jpeg');
  });

  it('refuses a declared type that the magic bytes contradict with 415', async () => {
    const res = await upload(alice.apiKey, sampleFile.png(), 'image/jpeg');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    expect(res.body.error.message).toContain('image/png');
    const text = await upload(alice.apiKey, Buffer.from('hello, this is plain text'), 'application/pdf');
    expect(text.status).toBe(415);
    // Shorter than the signature: still judged, still refused.
    const tiny = await upload(alice.apiKey, Buffer.from([0xff, 0xd8]), 'image/jpeg');
    expect(tiny.status).toBe(415);
  });

  it('refuses types outside the six, and a missing Content-Type, with 415', async () => {
    for (const type of ['text/plain', 'image/svg+xml', 'application/octet-stream', 'application/json']) {
      const res = await upload(alice.apiKey, sampleFile.png(), type);
      expect(res.status, type).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    }
    const missing = await upload(alice.apiKey, sampleFile.png(), undefined);
    expect(missing.status).toBe(415);
  });

  it('refuses an empty body with 400', async () => {
    const res = await upload(alice.apiKey, Buffer.alloc(0), 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('enforces each type its own size limit with 413', async () => {
    // 100 KB: over the image limit (64 KB) but within the gif (128 KB) and pdf (1 MiB) limits.
    const size = 100 * KB;
    const png = await upload(alice.apiKey, sampleFile.png(size), 'image/png');
    expect(png.status).toBe(413);
    expect(png.body.error.code).toBe('payload_too_large');
    expect((await upload(alice.apiKey, sampleFile.webp(size), 'image/webp')).status).toBe(413);
    expect((await upload(alice.apiKey, sampleFile.gif(size), 'image/gif')).status).toBe(201);
    expect((await upload(alice.apiKey, sampleFile.pdf(size), 'application/pdf')).status).toBe(201);
    expect((await upload(alice.apiKey, sampleFile.gif(200 * KB), 'image/gif')).status).toBe(413);
    expect((await upload(alice.apiKey, sampleFile.pdf(MIB + 1), 'application/pdf')).status).toBe(413);
    expect((await upload(alice.apiKey, sampleFile.mp4(MIB + 1), 'video/mp4')).status).toBe(201);
    // Exactly at the limit is allowed.
    expect((await upload(alice.apiKey, sampleFile.png(64 * KB), 'image/png')).status).toBe(201);
    expect((await upload(alice.apiKey, sampleFile.png(64 * KB + 1), 'image/png')).status).toBe(413);
  });

  it('answers 413 while an endless chunked body is still streaming in, storing nothing', async () => {
    const before = storedFiles().length;
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${t.url}/v1/media`);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { authorization: `Bearer ${alice.apiKey}`, 'content-type': 'image/png' },
        },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.resume();
          req.destroy();
        },
      );
      req.on('error', (err) => {
        if (!req.destroyed) reject(err);
      });
      // A body with no end: the answer can only come from a server that counts as it reads.
      let first = true;
      const endless = new Readable({
        read() {
          const chunk = first ? sampleFile.png(16 * KB) : randomBytes(16 * KB);
          first = false;
          this.push(chunk);
        },
      });
      endless.pipe(req);
    });
    expect(status).toBe(413);
    expect(storedFiles().length).toBe(before);
    expect(storedFiles().some((name) => name.endsWith('.partial'))).toBe(false);
  });

  it('refuses at once when Content-Length already exceeds the limit, before the body is sent', async () => {
    const res = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const url = new URL(`${t.url}/v1/media`);
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            authorization: `Bearer ${alice.apiKey}`,
            'content-type': 'image/png',
            'content-length': String(100 * MIB),
          },
        },
        (response) => {
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection });
          response.resume();
          req.destroy();
        },
      );
      req.on('error', (err) => {
        if (!req.destroyed) reject(err);
      });
      // Only the first few bytes of the announced 100 MiB are ever sent.
      req.write(sampleFile.png(1024));
    });
    expect(res.status).toBe(413);
    expect(res.connection).toBe('close');
  });

  it('checks brandId belongs to the caller', async () => {
    const own = await makeBrand(alice.apiKey);
    const theirs = await makeBrand(bob.apiKey);
    const ok = await upload(alice.apiKey, sampleFile.png(), 'image/png', {}, `?brandId=${own}`);
    expect(ok.status).toBe(201);
    expect(ok.body.media.brandId).toBe(own);
    for (const brandId of [theirs, 'brd_doesnotexist']) {
      const res = await upload(alice.apiKey, sampleFile.png(), 'image/png', {}, `?brandId=${brandId}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe('querystring.brandId');
    }
  });

  it('needs an API key', async () => {
    expect((await upload('', sampleFile.png(), 'image/png')).status).toBe(401);
  });
});

describe('media list, get, delete', () => {
  it('lists newest first with pagination, only the caller media', async () => {
    const carol = await t.signup();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await upload(carol.apiKey, sampleFile.png(), 'image/png');
      ids.push(res.body.media.id);
      await new Promise((r) => setTimeout(r, 3));
    }
    const page1 = await t.request('GET', '/v1/media?limit=2', { key: carol.apiKey });
    expect(page1.status).toBe(200);
    expect(page1.body.media.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.pagination).toEqual({ limit: 2, offset: 0, hasMore: true });
    const page2 = await t.request('GET', '/v1/media?limit=2&offset=2', { key: carol.apiKey });
    expect(page2.body.media.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    expect(page2.body.pagination.hasMore).toBe(false);
    expect((await t.request('GET', '/v1/media?limit=0', { key: carol.apiKey })).status).toBe(400);
    expect((await t.request('GET', '/v1/media?limit=101', { key: carol.apiKey })).status).toBe(400);
  });

  it('gets metadata, and deletes both metadata and the stored object', async () => {
    const res = await upload(alice.apiKey, sampleFile.pdf(), 'application/pdf');
    const id = res.body.media.id;
    const got = await t.request('GET', `/v1/media/${id}`, { key: alice.apiKey });
    expect(got.status).toBe(200);
    expect(got.body.media).toEqual(res.body.media);
    expect(storedFiles()).toContain(id);
    const del = await t.request('DELETE', `/v1/media/${id}`, { key: alice.apiKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect(storedFiles()).not.toContain(id);
    expect((await t.request('GET', `/v1/media/${id}`, { key: alice.apiKey })).status).toBe(404);
    expect((await t.request('GET', `/v1/media/${id}/content`, { key: alice.apiKey })).status).toBe(404);
    expect((await t.request('DELETE', `/v1/media/${id}`, { key: alice.apiKey })).status).toBe(404);
  });

  it("answers 404 on every {id} route for another account's media", async () => {
    const res = await upload(alice.apiKey, sampleFile.png(), 'image/png');
    const id = res.body.media.id;
    for (const [method, path] of [
      ['GET', `/v1/media/${id}`],
      ['GET', `/v1/media/${id}/content`],
      ['DELETE', `/v1/media/${id}`],
    ] as const) {
      const other = await t.request(method, path, { key: bob.apiKey });
      expect(other.status, `${method} ${path}`).toBe(404);
      expect(other.body.error.code).toBe('not_found');
    }
    // Still there for its owner.
    expect((await t.request('GET', `/v1/media/${id}`, { key: alice.apiKey })).status).toBe(200);
  });
});
