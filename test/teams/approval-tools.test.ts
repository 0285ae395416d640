import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callErr, callOk, connectClient } from '../mcp/helpers.ts';
import { type PostWorld, postRow } from '../posts/world.ts';
import { type ReviewWorld, startReviewWorld } from './review-world.ts';
import { startTeam, type TeamMember } from './team-world.ts';

/**
 * The approval tools through the official MCP SDK client, as an agent connects: a writer's
 * agent (editor key) submits, a lead's agent (admin key) approves or sends back, on a workspace
 * requiring approvals with a platformA channel on the sandbox.
 */
let w: PostWorld;
let lead: TeamMember;
let writer: TeamMember;
let channelId: string;
let onPlatform: ReviewWorld['onPlatform'];

beforeAll(async () => {
  ({ w, lead, writer, channelId, onPlatform } = await startReviewWorld());
});
afterAll(async () => {
  await w?.close();
});

describe('approval tools over MCP', () => {
  it("a writer's agent submits, a lead's agent approves, and the post publishes at its time once", async () => {
    const writerAgent = await connectClient(w.t.url, writer.apiKey);
    const leadAgent = await connectClient(w.t.url, lead.apiKey);
    const text = `Agent-written launch ${Date.now()}`;
    const { data } = await callOk(writerAgent, 'create_post', { text, channelId });
    const id = data.post.id;
    const runAt = w.clock.now() + 3_600_000;
    const held = await callErr(writerAgent, 'schedule_post', { id, runAt });
    expect(held.error.code).toBe('approval_required');

    const submitted = await callOk(writerAgent, 'submit_post', { id, runAt });
    expect(submitted.data.post.approval).toMatchObject({ state: 'pending', requestedBy: writer.memberId });
    expect(submitted.summary).toBe(`Post ${id} is waiting for an owner or admin to approve it (draft).`);
    expect((await callErr(writerAgent, 'approve_post', { id })).error.code).toBe('forbidden');

    const approved = await callOk(leadAgent, 'approve_post', { id, note: 'Ship it.' });
    expect(approved.data.post).toMatchObject({ status: 'scheduled', scheduledFor: runAt });
    expect(approved.data.post.approval).toMatchObject({ state: 'approved', decidedBy: lead.memberId });
    const rest = await w.t.request('GET', `/v1/posts/${id}`, { key: lead.apiKey });
    expect(approved.data).toEqual(rest.body);
    expect(onPlatform(text)).toHaveLength(0);
    w.clock.advance(runAt - w.clock.now() + 1000);
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, id))!.status).toBe('published');
    expect(onPlatform(text)).toHaveLength(1);
    await writerAgent.close();
    await leadAgent.close();
  });

  it("request_post_changes sends a post back with its note; another workspace's post is not found", async () => {
    const writerAgent = await connectClient(w.t.url, writer.apiKey);
    const leadAgent = await connectClient(w.t.url, lead.apiKey);
    const { data } = await callOk(writerAgent, 'create_post', { text: `Rough ${Date.now()}`, channelId });
    const id = data.post.id;
    await callOk(writerAgent, 'submit_post', { id });
    const noNote = await callErr(leadAgent, 'request_post_changes', { id });
    expect(noNote.error.details?.map((d) => d.path)).toContain('note');
    const back = await callOk(leadAgent, 'request_post_changes', { id, note: 'Name the customer.' });
    expect(back.data.post.approval).toMatchObject({ state: 'changes_requested', note: 'Name the customer.' });
    expect(back.summary).toContain('note: Name the customer.');
    expect((await callErr(writerAgent, 'publish_post_group', { id: 'pgr_none' })).error.code).toBe(
      'not_found',
    );

    const other = await startTeam(w.t);
    const stranger = await connectClient(w.t.url, other.owner.apiKey);
    for (const name of ['submit_post', 'approve_post'])
      expect((await callErr(stranger, name, { id })).error.code, name).toBe('not_found');
    expect((await callErr(stranger, 'request_post_changes', { id, note: 'x' })).error.code).toBe('not_found');
    expect((await postRow(w.t, id))!.approvalState).toBe('changes_requested');
    await Promise.all([writerAgent.close(), leadAgent.close(), stranger.close()]);
  });
});
