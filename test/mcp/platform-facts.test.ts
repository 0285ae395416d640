import { describe, expect, it } from 'vitest';
import { postTools } from '../../src/mcp/tools/posts.tools.ts';
import { PROFILES } from '../../src/platforms/profiles.ts';

/** create_post's description reads the platforms' limits from their profiles, in plain words. */
describe('create_post describes each platform from its profile', () => {
  const description = postTools.find((t) => t.name === 'create_post')!.description;

  it('states every limit, media rule, thread and first comment the profiles hold', () => {
    expect(description).toContain(
      'The text and media must fit the channel’s platform (platformA 3,000 characters and 1-20 images, or one video, or one PDF document; platformB 280 weighted characters (a URL counts 23) and 1-4 images, or one video or GIF (no PDF))',
    );
    expect(description).toContain(
      '`thread` (platformB only, up to 24 follow-up parts of 280 weighted characters (a URL counts 23), each published as a reply to the part before)',
    );
    expect(description).toContain(
      '`firstComment` (published right after the post: platformA a comment of up to 1,250 characters, platformB a reply)',
    );
  });

  it('score_post names the default platform and the others', async () => {
    const { intelligenceTools } = await import('../../src/mcp/tools/intelligence.tools.ts');
    const score = intelligenceTools.find((t) => t.name === 'score_post')!;
    expect(score.description).toContain('feed-ranking behaviour (default platformA; platformB accepted)');
  });

  it('follows the profile when a number changes', async () => {
    const profile = PROFILES.platformB;
    const saved = profile.threads;
    (profile as { threads: typeof saved }).threads = { maxFollowUps: 9, reply: profile.post };
    try {
      const { threadProse } = await import('../../src/platforms/profile-prose.ts');
      expect(threadProse()).toContain('up to 9 follow-up parts');
    } finally {
      (profile as { threads: typeof saved }).threads = saved;
    }
  });
});
