import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withChannelAccess } from '../../src/features/channels/channel-access.ts';
import {
  authorize,
  type ChannelWorld,
  callback,
  connected,
  issuedSecrets,
  startChannelWorld,
} from './helpers.ts';

const DAY = 86_400_000;
const lines: string[] = [];
let w: ChannelWorld;

beforeAll(async () => {
  // No redaction here: the test checks what the service itself puts in log lines.
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  w = await startChannelWorld({ env: { LOG_LEVEL: 'trace' }, log: pino({ level: 'trace' }, sink) });
});
afterAll(async () => {
  await w?.close();
});

describe('tokens appear in no log line', () => {
  it('across connect, failures, refresh, revocation and the sweep', async () => {
    const { apiKey, accountId } = await w.t.signup();
    const states: string[] = [];

    const channel = await connected(w, apiKey);
    const failed = await authorize(w, apiKey);
    states.push(failed.connect.state);
    w.sandbox.platformA.faults.failNext('token', 400, { code: 'invalid_grant' });
    expect((await callback(w, failed.back.search)).status).toBe(502);

    w.clock.advance(59.5 * DAY);
    w.sandbox.platformA.faults.failNext('token', 400, { code: 'invalid_grant' });
    expect((await w.t.request('POST', `/v1/channels/${channel.id}/refresh`, { key: apiKey })).status).toBe(
      502,
    );
    expect((await w.t.request('POST', `/v1/channels/${channel.id}/refresh`, { key: apiKey })).status).toBe(
      200,
    );
    await w.t.service.runner!.runOnce();

    w.sandbox.platformA.faults.revoke({ sub: channel.platformUserId });
    await withChannelAccess(w.t.service.deps, { accountId, channelId: channel.id }, (a) =>
      a.platform.publish({ accessToken: a.accessToken, authorRef: a.authorRef, text: 'x', media: [] }),
    ).catch(() => {});

    const log = lines.join('');
    expect(log).toContain('channel connected');
    expect(log).toContain('channel refresh failed');
    const secrets = [...issuedSecrets(w.sandbox), ...states, w.vaultKey];
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets)
      expect(log.includes(secret), `log leaked ${secret.slice(0, 10)}…`).toBe(false);
  });
});
