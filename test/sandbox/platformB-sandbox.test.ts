import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

const json = async (res: Response): Promise<{ status: number; headers: Headers; body: any }> => ({
  status: res.status,
  headers: res.headers,
  body: await res.json(),
});

function call(path: string, token: string, init: { method?: string; body?: unknown } = {}) {
  return fetch(`${sandbox.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  }).then(json);
}

const basic = () =>
  `Basic ${Buffer.from(`${sandbox.platformB.clientId}:${sandbox.platformB.clientSecret}`).toString('base64')}`;

describe('the platformB sandbox over HTTP', () => {
  it('serves both platforms on one port; the page shows platformB posts with their reply chains', async () => {
    sandbox = await startSandbox();
    const t = sandbox.platformB.state.issueToken();
    const root = await call('/2/tweets', t.accessToken, { method: 'POST', body: { text: 'root <post>' } });
    expect(root.status).toBe(201);
    const reply = await call('/2/tweets', t.accessToken, {
      method: 'POST',
      body: { text: 'part 2', reply: { in_reply_to_tweet_id: root.body.data.id } },
    });
    await call('/2/tweets', t.accessToken, {
      method: 'POST',
      body: { text: 'part 3', reply: { in_reply_to_tweet_id: reply.body.data.id } },
    });
    const html = await (await fetch(`${sandbox.url}/`)).text();
    expect(html).toContain('platformA posts');
    expect(html).toContain('root &lt;post&gt;');
    // Nested lists: part 3 sits inside part 2's list, inside the root's.
    const at = (s: string) => html.indexOf(s);
    expect(at('root &lt;post&gt;')).toBeLessThan(at('part 2'));
    expect(at('part 2')).toBeLessThan(at('part 3'));
    expect(html.slice(at('part 2'), at('part 3'))).toContain('<ul>');
    const state = await json(await fetch(`${sandbox.url}/_sandbox/platformB/state`));
    expect(state.body.posts).toHaveLength(3);
  });

  it('rotates refresh tokens and ends the family when a spent one comes back', async () => {
    sandbox = await startSandbox();
    const t = sandbox.platformB.state.issueToken();
    const refresh = (rt: string) =>
      fetch(sandbox.platformB.tokenUrl, {
        method: 'POST',
        headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: rt,
          client_id: sandbox.platformB.clientId,
        }),
      }).then(json);
    const first = await refresh(t.refreshToken!);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'bearer', expires_in: 7200 });
    expect(first.body.refresh_token).not.toBe(t.refreshToken);
    const again = await refresh(t.refreshToken!);
    expect(again.body.error).toBe('invalid_grant');
    expect((await call('/2/users/me', first.body.access_token)).status).toBe(401);
    expect((await refresh(first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('injects 429 with x-rate-limit-reset, duplicate-content 403, expired tokens and latency', async () => {
    sandbox = await startSandbox();
    const t = sandbox.platformB.state.issueToken();
    const post = (text: string) => call('/2/tweets', t.accessToken, { method: 'POST', body: { text } });
    await fetch(`${sandbox.url}/_sandbox/platformB/rate-limit`, {
      method: 'POST',
      body: JSON.stringify({ resetInSeconds: 40 }),
    });
    const limited = await post('a');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('x-rate-limit-reset')) - Date.now() / 1000).toBeGreaterThan(38);
    expect(limited.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(limited.headers.get('retry-after')).toBeNull();
    await fetch(`${sandbox.url}/_sandbox/platformB/duplicates`, { method: 'POST' });
    const dup = await post('b');
    expect([dup.status, dup.body.detail]).toEqual([
      403,
      'You are not allowed to create a Tweet with duplicate content.',
    ]);
    sandbox.platformB.faults.latency(150, 'createTweet');
    const started = Date.now();
    expect((await post('c')).status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await fetch(`${sandbox.url}/_sandbox/platformB/tokens/expire`, {
      method: 'POST',
      body: JSON.stringify({ accessToken: t.accessToken }),
    });
    expect((await post('d')).status).toBe(401);
    expect(sandbox.platformB.state.listTweets().map((x) => x.text)).toEqual(['c']);
  });

  it('limits creates per member window and refuses a bad media set', async () => {
    sandbox = await startSandbox({ platformB: { createLimit: 1 } });
    const t = sandbox.platformB.state.issueToken();
    expect((await call('/2/tweets', t.accessToken, { method: 'POST', body: { text: 'one' } })).status).toBe(
      201,
    );
    const second = await call('/2/tweets', t.accessToken, { method: 'POST', body: { text: 'two' } });
    expect(second.status).toBe(429);
    const pdf = await call('/2/media/upload/initialize', t.accessToken, {
      method: 'POST',
      body: { media_type: 'application/pdf', total_bytes: 10, media_category: 'tweet_image' },
    });
    expect(pdf.status).toBe(400);
  });
});
