import { afterEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/platforms/platform.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { adapterFor, connected } from './helpers.ts';
import { adapterB, memberB } from './platformB-helpers.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

describe('a first comment on both platforms (adapter level, against the sandbox)', () => {
  it('platformA: a comment under the post, found again for recovery, refused over 1,250 characters', async () => {
    sandbox = await startSandbox();
    const platform = adapterFor(sandbox);
    const { accessToken, authorRef } = await connected(sandbox, platform);
    expect(platform.profile.threads).toBeNull();
    const post = await platform.publish({ accessToken, authorRef, text: 'A post', media: [] });
    const since = Date.now();
    const sent: string[] = [];
    const made = await platform.comment({
      accessToken,
      authorRef,
      parentId: post.platformPostId,
      text: 'Link in the first comment: https://example.com (plain, no escaping)',
      beforeCreate: async () => void sent.push('sent'),
    });
    expect(sent).toEqual(['sent']);
    expect(made.commentId).toMatch(/^urn:li:comment:\(urn:li:activity:\d+,\d+\)$/);
    expect(sandbox.platformA.state.comments.get(made.commentId)).toMatchObject({
      postUrn: post.platformPostId,
      actor: authorRef,
      text: 'Link in the first comment: https://example.com (plain, no escaping)',
    });
    const found = await platform.findComment!({
      accessToken,
      authorRef,
      parentId: post.platformPostId,
      text: 'Link in the first comment: https://example.com (plain, no escaping)',
      since,
    });
    expect(found).toEqual(made);
    expect(
      await platform.findComment!({
        accessToken,
        authorRef,
        parentId: post.platformPostId,
        text: 'other',
        since,
      }),
    ).toBeNull();
    const long = await platform
      .comment({ accessToken, authorRef, parentId: post.platformPostId, text: 'x'.repeat(1251) })
      .catch((e) => e);
    expect(long).toBeInstanceOf(PlatformError);
    expect((long as PlatformError).kind).toBe('bad_request');
    sandbox.platformA.faults.dropNext('createComment');
    const lost = await platform
      .comment({ accessToken, authorRef, parentId: post.platformPostId, text: 'lost' })
      .catch((e) => e);
    expect((lost as PlatformError).kind).toBe('outcome_unknown');
  });

  it('platformB: the first comment is a reply to the post', async () => {
    sandbox = await startSandbox();
    const platform = adapterB(sandbox);
    const m = memberB(sandbox);
    expect(platform.profile.threads?.maxFollowUps).toBe(24);
    const post = await platform.publish({
      accessToken: m.accessToken,
      authorRef: m.authorRef,
      text: 'root',
      media: [],
    });
    const since = Date.now();
    const made = await platform.comment({
      accessToken: m.accessToken,
      authorRef: m.authorRef,
      parentId: post.platformPostId,
      text: 'first comment',
    });
    expect(sandbox.platformB.state.tweets.get(made.commentId)!.replyTo).toBe(post.platformPostId);
    expect(
      await platform.findComment!({
        accessToken: m.accessToken,
        authorRef: m.authorRef,
        parentId: post.platformPostId,
        text: 'first comment',
        since,
      }),
    ).toEqual(made);
  });
});
