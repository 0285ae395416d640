import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let key: string;
let otherKey: string;
const dataDir = mkdtempSync(join(tmpdir(), 'postkit-validate-'));

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(120, 7),
]);
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(120, 32)]);

async function upload(apiKey: string, bytes: Buffer, contentType: string): Promise<string> {
  const res = await t.request('POST', '/v1/media', {
    key: apiKey,
    raw: bytes,
    headers: { 'content-type': contentType },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
  return res.body.media.id;
}

const codes = (issues: { code: string }[]) => issues.map((i) => i.code);

beforeAll(async () => {
  t = await startTestApp({ DATA_DIR: dataDir });
  key = (await t.signup()).apiKey;
  otherKey = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const validate = (body: unknown, apiKey = key) =>
  t.request('POST', '/v1/posts/validate', { key: apiKey, body });

describe('POST /v1/posts/validate', () => {
  it('passes a clean post with stats', async () => {
    const post = 'I shipped it.\n\nIt took 3 weeks.\n\nWhat would you do?';
    const res = await validate({ post: `  ${post}\n` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      stats: { length: post.length, hashtags: 0, links: 0, lines: 3 },
    });
  });

  it('reports errors with 200: empty, over length, unsupported platform', async () => {
    const empty = await validate({ post: '  \n ' });
    expect(empty.status).toBe(200);
    expect(empty.body.valid).toBe(false);
    expect(codes(empty.body.errors)).toEqual(['empty']);
    const long = await validate({ post: 'a'.repeat(3001) });
    expect(codes(long.body.errors)).toEqual(['too_long']);
    expect((await validate({ post: 'a'.repeat(3000) })).body.valid).toBe(true);
    expect(codes((await validate({ post: 'a'.repeat(281), platform: 'platformB' })).body.errors)).toEqual([
      'too_long',
    ]);
    expect(codes((await validate({ post: 'hello', platform: 'myspace' })).body.errors)).toEqual([
      'unsupported_platform',
    ]);
  });

  it('warns on 6+ hashtags, external links, engagement bait and AI-tells without blocking', async () => {
    const res = await validate({
      post: "In today's fast-paced world, let's delve in. Comment YES below! https://example.com #a #b #c #d #e #f",
    });
    expect(res.body.valid).toBe(true);
    expect(codes(res.body.warnings).sort()).toEqual([
      'ai_tells',
      'engagement_bait',
      'external_link',
      'too_many_hashtags',
    ]);
    expect(res.body.stats).toMatchObject({ hashtags: 6, links: 1, lines: 1 });
    expect(codes((await validate({ post: 'Five is fine #a #b #c #d #e' })).body.warnings)).toEqual([]);
  });

  it('checks media: existence, ownership and the declared format', async () => {
    const png = await upload(key, PNG, 'image/png');
    const png2 = await upload(key, PNG, 'image/png');
    const pdf = await upload(key, PDF, 'application/pdf');
    const theirs = await upload(otherKey, PNG, 'image/png');
    expect((await validate({ post: 'Look.', media: 'single-image', mediaIds: [png] })).body.valid).toBe(true);
    expect((await validate({ post: 'Look.', media: 'multi-image', mediaIds: [png, png2] })).body.valid).toBe(
      true,
    );
    expect((await validate({ post: 'Read.', media: 'document', mediaIds: [pdf] })).body.valid).toBe(true);
    expect((await validate({ post: 'Look.', mediaIds: [png, png2] })).body.valid).toBe(true);

    const foreign = await validate({ post: 'Look.', mediaIds: [theirs] });
    expect(codes(foreign.body.errors)).toEqual(['invalid_media']);
    expect(foreign.body.errors[0].message).toContain(theirs);
    expect(codes((await validate({ post: 'x', mediaIds: ['med_missing'] })).body.errors)).toEqual([
      'invalid_media',
    ]);
    expect(codes((await validate({ post: 'x', mediaIds: [png, png] })).body.errors)).toContain(
      'invalid_media',
    );
    expect(codes((await validate({ post: 'x', media: 'video', mediaIds: [png] })).body.errors)).toEqual([
      'media_mismatch',
    ]);
    expect(codes((await validate({ post: 'x', media: 'none', mediaIds: [png] })).body.errors)).toEqual([
      'media_mismatch',
    ]);
    expect(codes((await validate({ post: 'x', mediaIds: [png, pdf] })).body.errors)).toEqual([
      'media_mismatch',
    ]);
  });

  it('takes as many images in a declared multi-image post as the platform’s profile allows', async () => {
    const five = await Promise.all([1, 2, 3, 4, 5].map(() => upload(key, PNG, 'image/png')));
    const onA = await validate({
      post: 'Look.',
      platform: 'platformA',
      media: 'multi-image',
      mediaIds: five,
    });
    expect(onA.body.valid).toBe(true);
    const onB = await validate({
      post: 'Look.',
      platform: 'platformB',
      media: 'multi-image',
      mediaIds: five,
    });
    expect(onB.body.errors).toEqual([
      { code: 'media_mismatch', message: 'A multi-image post takes 2-4 image attachment(s).' },
    ]);
    const four = await validate({
      post: 'Look.',
      platform: 'platformB',
      media: 'multi-image',
      mediaIds: five.slice(0, 4),
    });
    expect(four.body.valid).toBe(true);
  });

  it('rejects malformed requests with 400 and needs a key', async () => {
    for (const body of [
      {},
      { post: 5 },
      { post: 'x', media: 'gif' },
      { post: 'x', mediaIds: 'med_1' },
      { post: 'x', more: 1 },
    ]) {
      expect((await validate(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.request('POST', '/v1/posts/validate', { body: { post: 'x' } })).status).toBe(401);
  });
});
