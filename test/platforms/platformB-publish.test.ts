import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { mediaFile, mp4Bytes, pdfBytes, pngBytes } from './helpers.ts';
import { adapterB, memberB } from './platformB-helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

async function setup(options: Parameters<typeof startSandbox>[0] = {}) {
  sandbox = await startSandbox(options);
  return { platform: adapterB(sandbox, { chunkBytes: 64 * 1024 }), ...memberB(sandbox) };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a PlatformError');
    },
    (e) => {
      expect(e).toBeInstanceOf(PlatformError);
      return e as PlatformError;
    },
  );
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const gifBytes = (n: number) => Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(n - 6, 7)]);

describe('platformB publishing against the sandbox', () => {
  it('creates a text post and names the member in its URL', async () => {
    const { platform, accessToken, authorRef, member } = await setup();
    const out = await platform.publish({
      accessToken,
      authorRef,
      text: 'Hello, B!',
      media: [],
      handle: `@${member.username}`,
    });
    expect(out.platformUrl).toBe(`https://x.com/${member.username}/status/${out.platformPostId}`);
    expect(sandbox.platformB.state.tweets.get(out.platformPostId)).toMatchObject({
      authorId: member.id,
      text: 'Hello, B!',
      replyTo: null,
      mediaIds: [],
    });
    const noHandle = await platform.publish({ accessToken, authorRef, text: 'Again', media: [] });
    expect(noHandle.platformUrl).toBe(`https://x.com/i/web/status/${noHandle.platformPostId}`);
  });

  it('publishes a reply chain: each part replies to the one before it', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const first = await platform.publish({ accessToken, authorRef, text: 'part 1', media: [] });
    const second = await platform.publish({
      accessToken,
      authorRef,
      text: 'part 2',
      media: [],
      replyTo: first.platformPostId,
    });
    const third = await platform.publish({
      accessToken,
      authorRef,
      text: 'part 3',
      media: [],
      replyTo: second.platformPostId,
    });
    const state = sandbox.platformB.state;
    expect(state.repliesTo(first.platformPostId).map((t) => t.id)).toEqual([second.platformPostId]);
    expect(state.tweets.get(third.platformPostId)!.replyTo).toBe(second.platformPostId);
  });

  it('uploads up to 4 images in chunks and attaches them in order', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const images = [pngBytes(150_000), pngBytes(3000), pngBytes(70_000), pngBytes(5000)];
    const out = await platform.publish({
      accessToken,
      authorRef,
      text: 'four',
      media: images.map((b) => mediaFile(b, 'image/png', { stream: true, chunk: 4096 })),
    });
    const tweet = sandbox.platformB.state.tweets.get(out.platformPostId)!;
    expect(tweet.mediaIds.map((id) => sandbox.platformB.state.media.get(id)!.sha256)).toEqual(
      images.map(sha),
    );
    // 150 000 bytes in 64 KiB chunks: 3 appends; the rest one each.
    expect(sandbox.platformB.state.calls('mediaAppend')).toBe(3 + 1 + 2 + 1);
  });

  it('uploads a video in segments, waits for processing, then posts it', async () => {
    const { platform, accessToken, authorRef } = await setup({ platformB: { mediaProcessingPolls: 2 } });
    const bytes = mp4Bytes(300_000);
    const out = await platform.publish({
      accessToken,
      authorRef,
      text: 'video',
      media: [mediaFile(bytes, 'video/mp4', { stream: true })],
    });
    const media = sandbox.platformB.state.media.get(
      sandbox.platformB.state.tweets.get(out.platformPostId)!.mediaIds[0]!,
    )!;
    expect(media).toMatchObject({
      category: 'tweet_video',
      state: 'succeeded',
      sha256: sha(bytes),
      totalBytes: 300_000,
    });
    expect(sandbox.platformB.state.calls('mediaAppend')).toBe(5);
    expect(sandbox.platformB.state.calls('mediaStatus')).toBe(3);
  });

  it('posts one GIF; a failed processing is a final bad_request and nothing is posted', async () => {
    const { platform, accessToken, authorRef } = await setup();
    await platform.publish({
      accessToken,
      authorRef,
      text: 'gif',
      media: [mediaFile(gifBytes(2000), 'image/gif')],
    });
    sandbox.platformB.faults.failMediaProcessing();
    const err = await failure(
      platform.publish({
        accessToken,
        authorRef,
        text: 'gif 2',
        media: [mediaFile(gifBytes(2000), 'image/gif')],
      }),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toContain('could not process the media');
    expect(sandbox.platformB.state.listTweets()).toHaveLength(1);
  });

  it('refuses 5 images, a PDF, a video with an image, and over-long text before any upload', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const five = Array.from({ length: 5 }, () => mediaFile(pngBytes(100), 'image/png'));
    expect(
      (await failure(platform.publish({ accessToken, authorRef, text: 'x', media: five }))).message,
    ).toContain('at most 4 images');
    const pdf = [mediaFile(pdfBytes(), 'application/pdf')];
    expect(
      (await failure(platform.publish({ accessToken, authorRef, text: 'x', media: pdf }))).message,
    ).toContain('PDF');
    const mix = [mediaFile(mp4Bytes(1000), 'video/mp4'), mediaFile(pngBytes(100), 'image/png')];
    expect(
      (await failure(platform.publish({ accessToken, authorRef, text: 'x', media: mix }))).message,
    ).toContain('not a mix');
    const long = await failure(
      platform.publish({ accessToken, authorRef, text: 'é'.repeat(281), media: [] }),
    );
    expect(long.kind).toBe('bad_request');
    // A URL counts 23, however long: 257 characters plus one long link fit.
    await platform.publish({
      accessToken,
      authorRef,
      text: `${'a'.repeat(256)} https://example.com/${'p'.repeat(200)}`,
      media: [],
    });
    expect(sandbox.platformB.state.calls('mediaInit')).toBe(0);
  });

  it('finds a post whose create answer was lost, and deletes posts (a missing one counts as deleted)', async () => {
    const { platform, accessToken, authorRef } = await setup();
    const since = Date.now();
    sandbox.platformB.faults.dropAfterCreate();
    const lost = await failure(platform.publish({ accessToken, authorRef, text: 'lost answer', media: [] }));
    expect(lost.kind).toBe('outcome_unknown');
    const found = await platform.findPublished!({ accessToken, authorRef, text: 'lost answer', since });
    const stored = sandbox.platformB.state.listTweets()[0]!;
    expect(found?.platformPostId).toBe(stored.id);
    expect(await platform.findPublished!({ accessToken, authorRef, text: 'never sent', since })).toBeNull();
    expect(await platform.lookupPost!({ accessToken, authorRef, text: 'never sent', since })).toEqual({
      kind: 'absent',
    });
    expect((await platform.lookupPost!({ accessToken, authorRef, text: 'lost answer', since })).kind).toBe(
      'found',
    );
    await platform.deletePost!({ accessToken, platformPostId: stored.id });
    expect(sandbox.platformB.state.tweets.get(stored.id)!.deletedAt).not.toBeNull();
    await platform.deletePost!({ accessToken, platformPostId: stored.id });
  });

  it('pages through more than 100 recent posts when looking one up', async () => {
    const { platform, accessToken, authorRef } = await setup({ platformB: { createLimit: 1000 } });
    const since = Date.now();
    const target = await platform.publish({ accessToken, authorRef, text: 'the oldest', media: [] });
    for (let i = 0; i < 120; i++)
      await platform.publish({ accessToken, authorRef, text: `filler ${i}`, media: [] });
    const found = await platform.findPublished!({ accessToken, authorRef, text: 'the oldest', since });
    expect(found?.platformPostId).toBe(target.platformPostId);
    expect(sandbox.platformB.state.calls('listTweets')).toBe(2);
  });
});
