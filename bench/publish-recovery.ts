import type { AppDeps } from '../src/context.ts';
import { channelListing } from '../src/features/posts/publishing/channel-listing.ts';
import type { Platform, PostLookup } from '../src/platforms/platform.ts';
import { createPlatformB } from '../src/platforms/platformB/adapter.ts';
import { matchIn } from '../src/platforms/recent-posts.ts';
import { startSandbox } from '../src/sandbox/sandbox.ts';
import { fmt, report } from './lib.ts';

/**
 * bench/publish-recovery: the look-ups crash recovery makes to settle the creates a dead
 * process left in doubt on one channel, through the real platformB adapter over HTTP to the
 * sandbox. BENCH_DOUBT creates in doubt (default 100), the oldest first, under BENCH_LATER
 * posts the member made since (default 1,000: a busy minute). Half of the creates had landed.
 *
 * Measured: recovery's shared listing (channel-listing.ts: the look-ups of one take-over read
 * one listing of the channel back to its oldest create in doubt, each matching its own text),
 * against a baseline in the same run: one listing per post (`lookupPost` for each, as recovery
 * asked before the listing was shared, though with no cap on pages). Both settle every post
 * identically (checked); the figures are list requests per recovered post and the wall time.
 */
const DOUBT = Number(process.env.BENCH_DOUBT ?? 100);
const LATER = Number(process.env.BENCH_LATER ?? 1_000);

const sandbox = await startSandbox({ platformB: { timelineLimit: 100_000 } });
const state = sandbox.platformB.state;
const member = state.addMember();
const { accessToken } = state.issueToken({
  userId: member.id,
  scopes: ['tweet.read', 'tweet.write', 'users.read'],
});
const platform: Platform = createPlatformB({
  clientId: sandbox.platformB.clientId,
  clientSecret: sandbox.platformB.clientSecret,
  redirectUri: 'http://127.0.0.1:9/callback',
  authUrl: sandbox.platformB.authUrl,
  tokenUrl: sandbox.platformB.tokenUrl,
  apiUrl: sandbox.platformB.apiUrl,
  timelineLimit: 100_000,
});
const authorRef = platform.authorRef(member.id);

const start = Date.now() - 120_000;
const doubts = Array.from({ length: DOUBT }, (_, i) => ({ text: `In doubt ${i}`, since: start + i * 100 }));
const tweet = (text: string, createdAt: number) => {
  const id = state.newTweetId();
  state.tweets.set(id, {
    id,
    authorId: member.id,
    text,
    mediaIds: [],
    replyTo: null,
    createdAt,
    deletedAt: null,
    metrics: {},
  } as never);
  return id;
};
const landed = new Map<string, string>();
for (const [i, d] of doubts.entries()) if (i % 2 === 0) landed.set(d.text, tweet(d.text, d.since + 50));
for (let i = 0; i < LATER; i++) tweet(`A later post ${i}`, start + DOUBT * 100 + i * 10);

const settled = (answers: PostLookup[]) =>
  answers.every((a, i) => {
    const want = landed.get(doubts[i]!.text);
    return want ? a.kind === 'found' && a.post.platformPostId === want : a.kind === 'absent';
  });

async function measure(run: () => Promise<PostLookup[]>) {
  const before = state.calls('listTweets');
  const t = performance.now();
  const answers = await run();
  const ms = performance.now() - t;
  if (!settled(answers)) throw new Error('a look-up settled a post wrongly');
  return { lists: state.calls('listTweets') - before, ms };
}

// Per post: each look-up lists the member's posts since its own create.
const perPostRun = () =>
  measure(() =>
    Promise.all(
      doubts.map((d) => platform.lookupPost!({ accessToken, authorRef, text: d.text, since: d.since })),
    ),
  );

// Shared: the take-over notes the oldest create; every look-up reads the one listing.
const sharedRun = () => {
  const deps = {
    clock: { now: Date.now },
    memory: { channelListings: new Map([['chn_bench', { wanted: doubts[0]!.since, current: null }]]) },
  } as unknown as AppDeps;
  const takenAt = Date.now();
  return measure(() =>
    Promise.all(
      doubts.map(async (d): Promise<PostLookup> => {
        const listing = channelListing(
          deps,
          { platform, accessToken, authorRef },
          'chn_bench',
          d.since,
          takenAt,
        )!;
        const answer = await listing.result;
        if (answer.kind !== 'listed') return answer;
        const found = matchIn(answer, d.text, d.since, (id) => listing.taken.has(id));
        if (!found) return { kind: 'absent' };
        listing.taken.add(found.platformPostId);
        return {
          kind: 'found',
          post: { platformPostId: found.platformPostId, platformUrl: found.platformUrl },
        };
      }),
    ),
  );
};

// A first round of each warms the adapter, the sandbox and the compiler; the second is reported.
await perPostRun();
await sharedRun();
const perPost = await perPostRun();
const shared = await sharedRun();
await sandbox.close();

console.log(`creates in doubt: ${fmt(DOUBT)}, later posts on the channel: ${fmt(LATER)}`);
console.log(
  `one listing per post (baseline): ${fmt(perPost.lists)} list requests (${fmt(perPost.lists / DOUBT, 2)} a post), ${fmt(perPost.ms)} ms`,
);
console.log(
  `one listing per channel (recovery): ${fmt(shared.lists)} list requests (${fmt(shared.lists / DOUBT, 2)} a post), ${fmt(shared.ms)} ms`,
);
console.log(
  `list requests: ${fmt(perPost.lists / shared.lists, 1)}x fewer; time: ${fmt(perPost.ms / shared.ms, 1)}x faster`,
);
report('publish-recovery', {
  doubt: DOUBT,
  later: LATER,
  baselineListsPerPost: perPost.lists / DOUBT,
  sharedListsPerPost: shared.lists / DOUBT,
  listRatio: perPost.lists / shared.lists,
  baselineMs: perPost.ms,
  sharedMs: shared.ms,
  timeRatio: perPost.ms / shared.ms,
});
