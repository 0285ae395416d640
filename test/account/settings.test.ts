import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/** GET/PATCH /v1/account/settings (the account's time zone, and where it is the default) and PATCH /v1/account. */
let w: PostWorld;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const req = (m: Pick<Member, 'apiKey'>, method: string, path: string, body?: unknown) =>
  w.t.request(method, path, { key: m.apiKey, body });

describe('account settings', () => {
  it('start at UTC, take an IANA zone by its canonical name, and stay the account’s own', async () => {
    const start = await req(alice, 'GET', '/v1/account/settings');
    expect(start.status, start.text).toBe(200);
    expect(start.body).toEqual({ settings: { timezone: 'UTC', approvals: 'off' } });
    const set = await req(alice, 'PATCH', '/v1/account/settings', { timezone: 'europe/paris' });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ settings: { timezone: 'Europe/Paris', approvals: 'off' } });
    expect((await req(alice, 'GET', '/v1/account/settings')).body.settings.timezone).toBe('Europe/Paris');
    // Another account's settings are untouched.
    expect((await req(bob, 'GET', '/v1/account/settings')).body.settings.timezone).toBe('UTC');
    // An empty change changes nothing.
    const none = await req(alice, 'PATCH', '/v1/account/settings', {});
    expect(none.body.settings.timezone).toBe('Europe/Paris');
  });

  it('refuse a zone that is not IANA, and an unknown field, each at its field', async () => {
    const bad = await req(bob, 'PATCH', '/v1/account/settings', { timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([{ path: 'timezone', message: 'Not an IANA time zone' }]);
    expect(bad.body.error.message).toBe(
      'Unknown time zone "Mars/Olympus"; use an IANA name such as Europe/Paris.',
    );
    const extra = await req(bob, 'PATCH', '/v1/account/settings', { timezone: 'UTC', theme: 'dark' });
    expect(extra.status).toBe(400);
    expect((await req(bob, 'GET', '/v1/account/settings')).body.settings.timezone).toBe('UTC');
  });

  it('are the default zone of a new queue, queue suggestions, a series and insights', async () => {
    const m = await w.member();
    await req(m, 'PATCH', '/v1/account/settings', { timezone: 'Asia/Tokyo' });
    const empty = await req(m, 'GET', `/v1/channels/${m.channelId}/queue`);
    expect(empty.body.queue.timezone).toBe('Asia/Tokyo');
    const suggest = await req(m, 'GET', `/v1/channels/${m.channelId}/queue/suggest`);
    expect(suggest.status, suggest.text).toBe(200);
    expect(suggest.body.timezone).toBe('Asia/Tokyo');
    const insights = await req(m, 'GET', '/v1/insights');
    expect(insights.status, insights.text).toBe(200);
    expect(insights.body.timezone).toBe('Asia/Tokyo');
    // A zone in the request still wins.
    expect((await req(m, 'GET', '/v1/insights?timezone=Europe/Berlin')).body.timezone).toBe('Europe/Berlin');
    const series = await req(m, 'POST', '/v1/posts', {
      text: 'Every week, in the account’s zone',
      channelId: m.channelId,
      runAt: w.clock.now() + 86_400_000,
      repeat: { every: { unit: 'week', n: 1 }, count: 2 },
    });
    expect(series.status, series.text).toBe(201);
    expect(series.body.series.timezone).toBe('Asia/Tokyo');
    const put = await req(m, 'PUT', `/v1/channels/${m.channelId}/queue`, {
      slots: [{ day: 1, time: '09:00' }],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.queue.timezone).toBe('Asia/Tokyo');
    // Another account's default stays its own.
    expect((await req(bob, 'GET', `/v1/channels/${bob.channelId}/queue`)).body.queue.timezone).toBe('UTC');
  });
});

describe('PATCH /v1/account', () => {
  it('changes the email, whoami tells it at once, and the old address is free again', async () => {
    const m = await w.member();
    const before = (await req(m, 'GET', '/v1/account')).body.account.email as string;
    const email = `moved-${Date.now()}@example.com`;
    const res = await req(m, 'PATCH', '/v1/account', { email });
    expect(res.status, res.text).toBe(200);
    expect(res.body.account.email).toBe(email);
    const who = await req(m, 'GET', '/v1/account');
    expect(who.body.account.email).toBe(email);
    expect(who.body.member.email).toBe(email);
    const again = await w.t.request('POST', '/v1/account', { body: { email: before } });
    expect(again.status, again.text).toBe(201);
    const taken = await w.t.request('POST', '/v1/account', { body: { email: email.toUpperCase() } });
    expect(taken.status).toBe(409);
  });

  it('refuses another account’s email (any case) with 409, and a bad one with 400, changing nothing', async () => {
    const bobs = (await req(bob, 'GET', '/v1/account')).body.account.email as string;
    const aliceBefore = (await req(alice, 'GET', '/v1/account')).body.account.email;
    const taken = await req(alice, 'PATCH', '/v1/account', { email: bobs.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('email_taken');
    expect(taken.body.error.message).toBe('Another account already uses that email; choose another one.');
    const bad = await req(alice, 'PATCH', '/v1/account', { email: 'not an email' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('email');
    expect((await req(alice, 'GET', '/v1/account')).body.account.email).toBe(aliceBefore);
    expect((await req(bob, 'GET', '/v1/account')).body.account.email).toBe(bobs);
    // Its own email again is no conflict.
    const same = await req(alice, 'PATCH', '/v1/account', { email: aliceBefore });
    expect(same.status, same.text).toBe(200);
  });
});
