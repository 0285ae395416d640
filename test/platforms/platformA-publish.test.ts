import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterFor, connected, mediaFile, mp4Bytes, pdfBytes, pngBytes, sha256 } from './helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

async function setup(options: SandboxOptions = {}) {
  sandbox = await startSandbox({ port: 0, ...options });
  const platform = adapterFor(sandbox);
  const member = await connected(sandbox, platform);
  return { platform, ...member };
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(PlatformError);
  return err as PlatformError;
}

describe('platformA publishing against the sandbox', () => {
  it('creates a text post with the exact documented body', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const published = await platform.publish({ accessToken, authorRef, text: 'Hello, sandbox!', media: [] });
    expect(published.platformPostId).toMatch(/^urn:li:share:\d+$/);
    expect(published.platformUrl).toBe(`https://www.linkedin.com/feed/update/${published.platformPostId}`);
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post).toMatchObject({
      author: authorRef,
      commentary: 'Hello, sandbox!',
      text: 'Hello, sandbox!',
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
      contentKind: 'none',
      content: null,
    });
  });

  it('escapes little text so every reserved character survives, keeping #hashtags', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const text =
      'Ship it (finally) @team: 50% off [beta] <now> a_b*c~d {x|y} back\\slash #launch #2026 # not C#';
    const published = await platform.publish({ accessToken, authorRef, text, media: [] });
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post.text).toBe(text);
    expect(post.commentary).toBe(
      'Ship it \\(finally\\) \\@team: 50% off \\[beta\\] \\<now\\> a\\_b\\*c\\~d \\{x\\|y\\} back\\\\slash #launch #2026 \\# not C\\#',
    );
  });

  it('uploads a single image (Buffer) and references it', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const bytes = pngBytes(5000);
    const published = await platform.publish({
      accessToken,
      authorRef,
      text: 'one image',
      media: [mediaFile(bytes, 'image/png')],
    });
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post.contentKind).toBe('image');
    const asset = sandbox.platformA.state.assets.get(post.mediaIds[0]!)!;
    expect(asset).toMatchObject({
      kind: 'image',
      owner: authorRef,
      status: 'AVAILABLE',
      size: 5000,
      sha256: sha256(bytes),
    });
    expect(post.content).toEqual({ media: { id: asset.id } });
  });

  it('uploads 2-20 images as a multi-image post in order (streams), and refuses 21', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const images = [pngBytes(1000), pngBytes(1500), pngBytes(2000)];
    const published = await platform.publish({
      accessToken,
      authorRef,
      text: 'three',
      media: images.map((b) => mediaFile(b, 'image/png', { stream: true })),
    });
    expect(published.platformPostId).toMatch(/^urn:li:ugcPost:\d+$/);
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post.contentKind).toBe('multiImage');
    expect(post.mediaIds.map((id) => sandbox.platformA.state.assets.get(id)!.sha256)).toEqual(
      images.map(sha256),
    );

    const tooMany = Array.from({ length: 21 }, () => mediaFile(pngBytes(100), 'image/png'));
    const err = await failure(platform.publish({ accessToken, authorRef, text: 'x', media: tooMany }));
    expect(err.kind).toBe('bad_request');
    expect(sandbox.platformA.state.calls('initImage')).toBe(3);
  });

  it('refuses a mix of media kinds before uploading anything', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const err = await failure(
      platform.publish({
        accessToken,
        authorRef,
        text: 'mix',
        media: [mediaFile(pngBytes(), 'image/png'), mediaFile(mp4Bytes(2000), 'video/mp4')],
      }),
    );
    expect(err.kind).toBe('bad_request');
    expect(sandbox.platformA.state.requests).toHaveLength(0);
  });

  it('uploads a PDF document titled from its filename', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const bytes = pdfBytes(9000);
    const published = await platform.publish({
      accessToken,
      authorRef,
      text: 'deck',
      media: [mediaFile(bytes, 'application/pdf', { filename: 'Q3 results.pdf', stream: true })],
    });
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post.contentKind).toBe('document');
    const asset = sandbox.platformA.state.assets.get(post.mediaIds[0]!)!;
    expect(asset.sha256).toBe(sha256(bytes));
    expect(post.content).toEqual({ media: { id: asset.id, title: 'Q3 results' } });
  });

  it('uploads a video by byte ranges, finalizes and waits through PROCESSING until AVAILABLE', async () => {
    const { platform, accessToken, authorRef } = await setup({
      platformA: { videoPartSize: 1000, videoProcessingPolls: 3 },
    });
    const bytes = mp4Bytes(3500);
    let pulledAtMost = 0;
    let violated = false;
    const file = mediaFile(bytes, 'video/mp4', {
      filename: 'demo.mp4',
      stream: true,
      chunk: 300,
      onChunk: (pulled) => {
        // Never more than the parts already uploaded + the range being read + a chunk of read-ahead.
        const uploaded = [...sandbox.platformA.state.assets.values()]
          .flatMap((a) => a.parts)
          .filter((p) => p.etag).length;
        if (pulled > (uploaded + 1) * 1000 + 2 * 300) violated = true;
        pulledAtMost = pulled;
      },
    });
    const published = await platform.publish({ accessToken, authorRef, text: 'video', media: [file] });
    expect(violated).toBe(false);
    expect(pulledAtMost).toBe(3500);
    const post = sandbox.platformA.state.posts.get(published.platformPostId)!;
    expect(post.contentKind).toBe('video');
    expect(published.platformPostId).toMatch(/^urn:li:ugcPost:/);
    const video = sandbox.platformA.state.assets.get(post.mediaIds[0]!)!;
    expect(video.status).toBe('AVAILABLE');
    expect(video.parts.map((p) => [p.firstByte, p.lastByte])).toEqual([
      [0, 999],
      [1000, 1999],
      [2000, 2999],
      [3000, 3499],
    ]);
    const partHashes = [0, 1000, 2000, 3000].map((s) => sha256(bytes.subarray(s, Math.min(3500, s + 1000))));
    expect(video.parts.map((p) => p.sha256)).toEqual(partHashes);
    expect(sandbox.platformA.state.calls('uploadVideoPart')).toBe(4);
    expect(sandbox.platformA.state.calls('finalizeVideo')).toBe(1);
    // Three reads see PROCESSING, the fourth AVAILABLE.
    expect(sandbox.platformA.state.calls('getVideo')).toBe(4);
    expect(post.content).toEqual({ media: { id: video.id, title: 'demo' } });
    const whole = createHash('sha256');
    for (const h of partHashes) whole.update(h);
    expect(video.sha256).toBe(whole.digest('hex'));
  });

  it('fails a video whose processing fails, without creating a post', async () => {
    const { platform, accessToken, authorRef } = await setup({ platformA: { videoPartSize: 1000 } });
    sandbox.platformA.faults.failVideoProcessing();
    const err = await failure(
      platform.publish({
        accessToken,
        authorRef,
        text: 'v',
        media: [mediaFile(mp4Bytes(2500), 'video/mp4')],
      }),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('could not process the video');
    expect(sandbox.platformA.state.calls('createPost')).toBe(0);
  });

  it('retries uploads through 429, 5xx and dropped connections, re-opening the file', async () => {
    const { platform, accessToken, authorRef } = await setup({ platformA: { videoPartSize: 1000 } });
    sandbox.platformA.faults.failNext('initImage', 429);
    sandbox.platformA.faults.failNext('uploadImage', 503);
    sandbox.platformA.faults.dropNext('uploadImage');
    const image = mediaFile(pngBytes(3000), 'image/png', { stream: true });
    await platform.publish({ accessToken, authorRef, text: 'retry image', media: [image] });
    expect(sandbox.platformA.state.calls('initImage')).toBe(2);
    expect(sandbox.platformA.state.calls('uploadImage')).toBe(3);
    expect(image.opens).toBe(3);

    sandbox.platformA.faults.failNext('uploadVideoPart', 500, { times: 2 });
    sandbox.platformA.faults.failNext('finalizeVideo', 502);
    sandbox.platformA.faults.failNext('getVideo', 429);
    const video = mediaFile(mp4Bytes(2500), 'video/mp4', { stream: true });
    const published = await platform.publish({ accessToken, authorRef, text: 'retry video', media: [video] });
    expect(sandbox.platformA.state.calls('uploadVideoPart')).toBe(3 + 2);
    expect(sandbox.platformA.state.calls('finalizeVideo')).toBe(2);
    expect(video.opens).toBe(1);
    expect(sandbox.platformA.state.posts.get(published.platformPostId)!.contentKind).toBe('video');
    expect(sandbox.platformA.state.calls('createPost')).toBe(2);
  });

  it('gives up on an upload after the bounded attempts', async () => {
    const { platform, accessToken, authorRef } = await setup();
    sandbox.platformA.faults.failAlways('uploadDocument', 503);
    const err = await failure(
      platform.publish({
        accessToken,
        authorRef,
        text: 'doc',
        media: [mediaFile(pdfBytes(), 'application/pdf')],
      }),
    );
    expect(err.kind).toBe('unavailable');
    expect(err.retryable).toBe(true);
    expect(sandbox.platformA.state.calls('uploadDocument')).toBe(4);
    expect(sandbox.platformA.state.calls('createPost')).toBe(0);
  });

  it('calls beforeCreate once, after the uploads and before the create', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const seen: { creates: number; assetStatus: string | undefined }[] = [];
    await platform.publish({
      accessToken,
      authorRef,
      text: 'hook',
      media: [mediaFile(pngBytes(), 'image/png')],
      beforeCreate: async () => {
        seen.push({
          creates: sandbox.platformA.state.calls('createPost'),
          assetStatus: [...sandbox.platformA.state.assets.values()][0]?.status,
        });
      },
    });
    expect(seen).toEqual([{ creates: 0, assetStatus: 'AVAILABLE' }]);
    expect(sandbox.platformA.state.calls('createPost')).toBe(1);

    const stop = new Error('claim lost');
    const err = await platform
      .publish({ accessToken, authorRef, text: 'no', media: [], beforeCreate: () => Promise.reject(stop) })
      .catch((e) => e);
    expect(err).toBe(stop);
    expect(sandbox.platformA.state.calls('createPost')).toBe(1);
  });
});
