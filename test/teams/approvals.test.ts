import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRecord } from '../../src/features/posts/csv-cells.ts';
import { eventsOf, type PostWorld, postRow } from '../posts/world.ts';
import { type ReviewWorld, startReviewWorld } from './review-world.ts';
import { startTeam, type Team, type TeamMember } from './team-world.ts';

/**
 * Approvals on a real workspace: an owner, a lead (admin) and a writer (editor), a platformA
 * channel on the sandbox, the publish sweep run by hand. "Reached the platform" is what the
 * sandbox holds for the channel's author.
 */
let w: PostWorld;
let team: Team;
let lead: TeamMember;
let writer: TeamMember;
let channelId: string;
let author: string;
let onPlatform: ReviewWorld['onPlatform'];

beforeAll(async () => {
  ({ w, team, lead, writer, channelId, author, onPlatform } = await startReviewWorld());
  const queue = await w.t.request('PUT', `/v1/channels/${channelId}/queue`, {
    key: team.owner.apiKey,
    body: { timezone: 'UTC', slots: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' })) },
  });
  expect(queue.status, queue.text).toBe(200);
});
afterAll(async () => {
  await w?.close();
});

const HOUR = 3_600_000;
const call = (m: TeamMember, method: string, url: string, body?: unknown) =>
  w.t.request(method, url, { key: m.apiKey, body });
const postCount = async () =>
  (await call(team.owner, 'GET', '/v1/posts?limit=100')).body.posts.length as number;
async function draft(m: TeamMember, text: string) {
  const res = await call(m, 'POST', '/v1/posts', { text, channelId });
  expect(res.status, res.text).toBe(201);
  return res.body.post as { id: string };
}
/** Every due post's turn: the clock past `at`, one sweep. */
async function sweepPast(at: number) {
  if (w.clock.now() < at) w.clock.advance(at - w.clock.now() + 1000);
  await w.t.service.runner!.runOnce();
}

describe('the approvals setting', () => {
  it('is off until an owner or admin sets it; an editor cannot, and a bad value writes nothing', async () => {
    const other = await startTeam(w.t);
    const read = await call(other.owner, 'GET', '/v1/account/settings');
    expect(read.body.settings).toEqual({ timezone: 'UTC', approvals: 'off' });
    const editor = await other.add('editor');
    const byEditor = await call(editor, 'PATCH', '/v1/account/settings', { approvals: 'required' });
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.error).toMatchObject({ code: 'forbidden', role: 'admin' });
    const bad = await call(other.owner, 'PATCH', '/v1/account/settings', { approvals: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('approvals');
    expect((await call(other.owner, 'GET', '/v1/account/settings')).body.settings.approvals).toBe('off');
  });
});

describe('with approvals required, nothing an editor does reaches a platform before an approval', () => {
  it('refuses schedule, publish now, queue, series, group and bulk with 409 approval_required', async () => {
    const tag = `held ${Date.now()}`;
    const before = await postCount();
    const runAt = w.clock.now() + HOUR;
    const refused = async (res: { status: number; body: any; text: string }) => {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error.code).toBe('approval_required');
    };
    // New posts that would be scheduled at once: nothing is created.
    await refused(await call(writer, 'POST', '/v1/posts', { text: `${tag} runAt`, channelId, runAt }));
    await refused(await call(writer, 'POST', '/v1/posts', { text: `${tag} queue`, channelId, queue: true }));
    await refused(
      await call(writer, 'POST', '/v1/posts', {
        text: `${tag} series`,
        channelId,
        runAt,
        repeat: { every: { unit: 'day', n: 1 }, count: 3 },
      }),
    );
    await refused(
      await call(writer, 'POST', '/v1/post-groups', {
        variants: [{ channelId, text: `${tag} group` }],
        runAt,
      }),
    );
    await refused(
      await call(writer, 'POST', '/v1/posts/bulk-schedule', {
        items: [{ text: `${tag} bulk`, channelId, runAt }],
      }),
    );
    const csv = w.t.request('POST', '/v1/posts/bulk-schedule', {
      key: writer.apiKey,
      raw: csvRecord(['text', 'channelId', 'queue']) + csvRecord([`${tag} csv`, channelId, 'true']),
      headers: { 'content-type': 'text/csv' },
    });
    await refused(await csv);
    expect(await postCount()).toBe(before);

    // Drafts are the editor's to write; sending one out is not.
    const p = await draft(writer, `${tag} draft`);
    await refused(await call(writer, 'POST', `/v1/posts/${p.id}/schedule`, { runAt }));
    await refused(await call(writer, 'POST', `/v1/posts/${p.id}/schedule`, { queue: true }));
    const now = await call(writer, 'POST', `/v1/posts/${p.id}/publish`);
    await refused(now);
    expect(now.body.post.status).toBe('draft');
    const group = await call(writer, 'POST', '/v1/post-groups', {
      variants: [{ channelId, text: `${tag} gd` }],
    });
    expect(group.status, group.text).toBe(201);
    const publishGroup = await call(writer, 'POST', `/v1/post-groups/${group.body.group.id}/publish`);
    expect(publishGroup.body.refused.map((r: { code: string }) => r.code)).toEqual(['approval_required']);

    await sweepPast(runAt + 2 * 24 * HOUR);
    expect(w.sandbox.platformA.state.listPosts({ author }).filter((x) => x.text.startsWith(tag))).toEqual([]);
    expect((await postRow(w.t, p.id))!.status).toBe('draft');
  });

  it('a submitted post waits; the lead approves and it publishes at the time asked for, once', async () => {
    const text = `Approved launch ${Date.now()}`;
    const p = await draft(writer, text);
    expect((await call(writer, 'GET', `/v1/posts/${p.id}`)).body.post.approval).toBeNull();
    const runAt = w.clock.now() + HOUR;
    const submitted = await call(writer, 'POST', `/v1/posts/${p.id}/submit`, { runAt });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.post.status).toBe('draft');
    expect(submitted.body.post.approval).toEqual({
      state: 'pending',
      requestedBy: writer.memberId,
      requestedAt: expect.any(Number),
      runAt,
      decidedBy: null,
      decidedAt: null,
      note: null,
    });
    const queue = await call(lead, 'GET', '/v1/posts?approval=pending&limit=100');
    expect(queue.body.posts.map((x: { id: string }) => x.id)).toContain(p.id);
    // Still held: the writer cannot schedule it themselves, the editor cannot approve it.
    expect((await call(writer, 'POST', `/v1/posts/${p.id}/schedule`, { runAt })).body.error.code).toBe(
      'approval_required',
    );
    expect((await call(writer, 'POST', `/v1/posts/${p.id}/approve`, {})).status).toBe(403);

    const approved = await call(lead, 'POST', `/v1/posts/${p.id}/approve`, { note: 'Good to go.' });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.post).toMatchObject({ status: 'scheduled', scheduledFor: runAt });
    expect(approved.body.post.approval).toMatchObject({
      state: 'approved',
      decidedBy: lead.memberId,
      note: 'Good to go.',
    });
    expect(onPlatform(text)).toHaveLength(0);
    await sweepPast(runAt);
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('published');
    expect(onPlatform(text)).toHaveLength(1);
    const types = (await eventsOf(w.t, team.accountId)).map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['post.approval_requested', 'post.approved', 'post.published']),
    );
  });

  it('changes requested: the writer edits, submits again, and an approved draft is theirs to publish', async () => {
    const text = `Needs work ${Date.now()}`;
    const p = await draft(writer, text);
    expect((await call(writer, 'POST', `/v1/posts/${p.id}/submit`, {})).status).toBe(200);
    const noNote = await call(lead, 'POST', `/v1/posts/${p.id}/request-changes`, {});
    expect(noNote.status).toBe(400);
    expect(noNote.body.error.details[0].path).toBe('note');
    const back = await call(lead, 'POST', `/v1/posts/${p.id}/request-changes`, {
      note: 'Lead with the number.',
    });
    expect(back.status, back.text).toBe(200);
    expect(back.body.post.approval).toMatchObject({
      state: 'changes_requested',
      decidedBy: lead.memberId,
      note: 'Lead with the number.',
    });
    const held = await call(writer, 'POST', `/v1/posts/${p.id}/publish`);
    expect(held.status).toBe(409);
    expect(held.body.error.message).toContain('asked for changes');
    const fixed = `${text}: 40% faster`;
    expect((await call(writer, 'PATCH', `/v1/posts/${p.id}`, { text: fixed })).status).toBe(200);
    expect((await call(writer, 'POST', `/v1/posts/${p.id}/submit`, {})).body.post.approval.state).toBe(
      'pending',
    );
    const ok = await call(lead, 'POST', `/v1/posts/${p.id}/approve`, {});
    expect(ok.body.post).toMatchObject({ status: 'draft', approval: { state: 'approved', note: null } });
    const published = await call(writer, 'POST', `/v1/posts/${p.id}/publish`);
    expect(published.status, published.text).toBe(200);
    expect(published.body.post.status).toBe('published');
    expect(onPlatform(fixed)).toHaveLength(1);
    expect(onPlatform(text)).toHaveLength(0);
  });

  it('editing an approved post sends it back to pending; a scheduled one does not fall due until approved again', async () => {
    const text = `Scheduled then edited ${Date.now()}`;
    const p = await draft(writer, text);
    const runAt = w.clock.now() + HOUR;
    await call(writer, 'POST', `/v1/posts/${p.id}/submit`, { runAt });
    expect((await call(lead, 'POST', `/v1/posts/${p.id}/approve`, {})).body.post.status).toBe('scheduled');
    const edited = `${text}, now unreviewed`;
    const revised = await call(writer, 'PATCH', `/v1/posts/${p.id}/scheduled`, { text: edited });
    expect(revised.status, revised.text).toBe(200);
    expect(revised.body.post).toMatchObject({
      status: 'scheduled',
      approval: { state: 'pending', requestedBy: writer.memberId, decidedBy: null },
    });
    await sweepPast(runAt);
    expect((await postRow(w.t, p.id))!.status).toBe('scheduled');
    expect(onPlatform(edited)).toHaveLength(0);
    const again = await call(lead, 'POST', `/v1/posts/${p.id}/approve`, {});
    expect(again.body.post.approval.state).toBe('approved');
    await w.t.service.runner!.runOnce();
    expect((await postRow(w.t, p.id))!.status).toBe('published');
    expect(onPlatform(edited)).toHaveLength(1);
  });

  it('owners and admins are not held; scheduling a post under review is their approval', async () => {
    const own = await draft(lead, `Lead's own ${Date.now()}`);
    const runAt = w.clock.now() + HOUR;
    const scheduled = await call(lead, 'POST', `/v1/posts/${own.id}/schedule`, { runAt });
    expect(scheduled.status, scheduled.text).toBe(200);
    expect(scheduled.body.post.approval).toBeNull();
    const p = await draft(writer, `Under review ${Date.now()}`);
    await call(writer, 'POST', `/v1/posts/${p.id}/submit`, {});
    const byOwner = await call(team.owner, 'POST', `/v1/posts/${p.id}/schedule`, { runAt });
    expect(byOwner.status, byOwner.text).toBe(200);
    expect(byOwner.body.post.approval).toMatchObject({ state: 'approved', decidedBy: team.owner.memberId });
  });

  it('refuses to submit an approved post, to review a published one, and to send back one never submitted', async () => {
    const p = await draft(writer, `Reviewed twice ${Date.now()}`);
    await call(writer, 'POST', `/v1/posts/${p.id}/submit`, {});
    await call(lead, 'POST', `/v1/posts/${p.id}/approve`, {});
    const twice = await call(writer, 'POST', `/v1/posts/${p.id}/submit`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('already_approved');
    expect((await call(lead, 'POST', `/v1/posts/${p.id}/approve`, {})).body.post.approval.state).toBe(
      'approved',
    );
    await call(writer, 'POST', `/v1/posts/${p.id}/publish`);
    const late = await call(lead, 'POST', `/v1/posts/${p.id}/request-changes`, { note: 'Too late' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('not_reviewable');
    const fresh = await draft(writer, `Never submitted ${Date.now()}`);
    const notIn = await call(lead, 'POST', `/v1/posts/${fresh.id}/request-changes`, { note: 'Hm' });
    expect(notIn.body.error.code).toBe('not_in_review');
    const past = await call(writer, 'POST', `/v1/posts/${fresh.id}/submit`, { runAt: w.clock.now() - 1 });
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].path).toBe('runAt');
    expect((await call(writer, 'GET', `/v1/posts/${fresh.id}`)).body.post.approval).toBeNull();
  });

  it("another workspace's post is 404 to submit, approve and request changes", async () => {
    const other = await startTeam(w.t);
    const p = await draft(writer, `Ours ${Date.now()}`);
    for (const verb of ['submit', 'approve', 'request-changes']) {
      const res = await call(
        other.owner,
        'POST',
        `/v1/posts/${p.id}/${verb}`,
        verb === 'request-changes' ? { note: 'x' } : {},
      );
      expect(res.status, verb).toBe(404);
    }
    expect((await postRow(w.t, p.id))!.approvalState).toBeNull();
  });
});
