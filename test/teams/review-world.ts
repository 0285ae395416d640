import { connected } from '../channels/helpers.ts';
import { type PostWorld, startPostWorld } from '../posts/world.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/**
 * A workspace requiring approvals, as the review tests need it: an owner, a lead (admin, who
 * turned approvals on) and a writer (editor), a platformA channel on the sandbox whose posts are
 * the channel author's own, so "reached the platform" is what the sandbox holds for that author.
 */
export interface ReviewWorld {
  w: PostWorld;
  team: Team;
  lead: TeamMember;
  writer: TeamMember;
  channelId: string;
  /** The sandbox's URN of the channel's author. */
  author: string;
  /** The posts with exactly this text that reached the platform for the channel's author. */
  onPlatform(text: string): { text: string }[];
}

export async function startReviewWorld(): Promise<ReviewWorld> {
  const w = await startPostWorld();
  const team = await startTeam(w.t);
  const lead = await team.add('admin');
  const writer = await team.add('editor');
  const sub = w.sandbox.platformA.state.addMember().sub;
  w.sandbox.platformA.state.useMember(sub);
  const channelId = (await connected(w, team.owner.apiKey)).id;
  const author = `urn:li:person:${sub}`;
  const on = await w.t.request('PATCH', '/v1/account/settings', {
    key: lead.apiKey,
    body: { approvals: 'required' },
  });
  if (on.status !== 200 || on.body.settings.approvals !== 'required')
    throw new Error(`the lead could not require approvals: ${on.status} ${on.text}`);
  return {
    w,
    team,
    lead,
    writer,
    channelId,
    author,
    onPlatform: (text) => w.sandbox.platformA.state.listPosts({ author }).filter((p) => p.text === text),
  };
}
