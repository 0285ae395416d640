import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { startTeam } from './team-world.ts';

/**
 * Invitations mailed through a real SMTP conversation: a small SMTP server on loopback, written
 * for this test, that asks for AUTH PLAIN, can refuse a recipient, and keeps what it received.
 */
interface Received {
  auth: string | null;
  from: string;
  to: string[];
  data: string;
}

interface SmtpWorld {
  url: string;
  received: Received[];
  /** Recipients the server answers 550 to. */
  refuse: Set<string>;
  close(): Promise<void>;
}

async function startSmtpServer(credentials: { user: string; pass: string }): Promise<SmtpWorld> {
  const received: Received[] = [];
  const refuse = new Set<string>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    const say = (line: string) => socket.write(`${line}\r\n`);
    let current: Received = { auth: null, from: '', to: [], data: '' };
    let buffer = '';
    let inData = false;
    say('220 test.smtp ESMTP ready');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { auth: current.auth, from: '', to: [], data: '' };
          say('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          socket.write('250-test.smtp\r\n250-AUTH PLAIN\r\n250 8BITMIME\r\n');
        } else if (line.startsWith('AUTH PLAIN ')) {
          const [, user, pass] = Buffer.from(line.slice(11), 'base64').toString('utf8').split('\0');
          if (user === credentials.user && pass === credentials.pass) {
            current.auth = user!;
            say('235 accepted');
          } else say('535 bad credentials');
        } else if (verb === 'MAIL') {
          if (!current.auth) say('530 sign in first');
          else {
            current.from = line.replace(/^MAIL FROM:<(.*)>.*$/i, '$1');
            say('250 ok');
          }
        } else if (verb === 'RCPT') {
          const to = line.replace(/^RCPT TO:<(.*)>.*$/i, '$1');
          if (refuse.has(to)) say('550 no such mailbox here');
          else {
            current.to.push(to);
            say('250 ok');
          }
        } else if (verb === 'DATA') {
          inData = true;
          say('354 go ahead');
        } else if (verb === 'QUIT') {
          say('221 bye');
          socket.end();
        } else say('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `smtp://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.pass)}@127.0.0.1:${port}`,
    received,
    refuse,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Headers (unfolded) and the decoded body of a received message. */
function parse(data: string) {
  const [head, ...rest] = data.split('\r\n\r\n');
  const headers = new Map<string, string>();
  for (const line of head!.split('\r\n')) {
    const at = line.indexOf(':');
    headers.set(line.slice(0, at).toLowerCase(), line.slice(at + 1).trim());
  }
  const body = Buffer.from(rest.join('\r\n\r\n').replace(/\r\n/g, ''), 'base64').toString('utf8');
  return { headers, body };
}

const decodeHeader = (value: string) =>
  value.replace(/=\?UTF-8\?B\?([^?]+)\?=/g, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));

describe('invitations by mail', () => {
  let smtp: SmtpWorld;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: 'postkit', pass: 'mail pass: wörd' });
    t = await startTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'invites@agency.example' });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails the invitation with the same single-use link the inviter gets, and says so', async () => {
    const team = await startTeam(t);
    const lead = await team.add('admin');
    const res = await t.request('POST', '/v1/invitations', {
      key: lead.apiKey,
      body: { email: 'zoe@brand.example', role: 'editor' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.mailed).toBe(true);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.auth).toBe('postkit');
    expect(mail.from).toBe('invites@agency.example');
    expect(mail.to).toEqual(['zoe@brand.example']);
    const { headers, body } = parse(mail.data);
    expect(headers.get('to')).toBe('zoe@brand.example');
    expect(headers.get('from')).toBe('invites@agency.example');
    expect(headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(decodeHeader(headers.get('subject')!)).toBe(`${lead.email} invited you to a Postkit workspace`);
    expect(body).toContain(
      `${lead.email} invited you to join the Postkit workspace of ${team.owner.email} as an editor.`,
    );
    expect(body).toContain(`\r\n${res.body.acceptUrl}\r\n`);
    expect(body).toMatch(/It works once, until [A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d{2} [AP]M UTC:/);
    // The mailed link is the working one: it joins once.
    const token = decodeURIComponent(res.body.acceptUrl.split('?token=')[1]);
    const joined = await t.request('POST', '/v1/invitations/accept', { body: { token } });
    expect(joined.status, joined.text).toBe(201);
    expect(joined.body.member).toMatchObject({ email: 'zoe@brand.example', role: 'editor' });
  });

  it('a refused mail leaves the invitation made and the link in the answer, mailed false', async () => {
    const team = await startTeam(t);
    smtp.refuse.add('nobody@brand.example');
    const before = smtp.received.length;
    const res = await t.request('POST', '/v1/invitations', {
      key: team.owner.apiKey,
      body: { email: 'nobody@brand.example', role: 'viewer' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.mailed).toBe(false);
    expect(res.body.acceptUrl).toContain('token=kit_inv_');
    expect(smtp.received.length).toBe(before);
    const listed = await t.request('GET', '/v1/invitations', { key: team.owner.apiKey });
    expect(listed.body.invitations.map((i: { email: string }) => i.email)).toEqual(['nobody@brand.example']);
  });

  it('wrong SMTP credentials or no server at all: mailed false, the invitation stands', async () => {
    const closed = await startSmtpServer({ user: 'x', pass: 'y' });
    const port = new URL(closed.url).port;
    await closed.close();
    for (const env of [
      { SMTP_URL: smtp.url.replace('postkit:', 'someone-else:') },
      { SMTP_URL: `smtp://127.0.0.1:${port}` },
    ]) {
      const other = await startTestApp(env);
      try {
        const team = await startTeam(other);
        const res = await other.request('POST', '/v1/invitations', {
          key: team.owner.apiKey,
          body: { email: 'writer@brand.example', role: 'editor' },
        });
        expect(res.status, res.text).toBe(201);
        expect(res.body.mailed).toBe(false);
      } finally {
        await other.close();
      }
    }
  });
});

describe('invitations without SMTP', () => {
  it('are not mailed: mailed false, the inviter sends the link', async () => {
    const t = await startTestApp({ SMTP_URL: undefined });
    try {
      const team = await startTeam(t);
      const res = await t.request('POST', '/v1/invitations', {
        key: team.owner.apiKey,
        body: { email: 'writer@brand.example', role: 'editor' },
      });
      expect(res.status).toBe(201);
      expect(res.body.mailed).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('a malformed SMTP_URL stops the service at start, saying what it must be', async () => {
    await expect(startTestApp({ SMTP_URL: 'mail.example.com:25' })).rejects.toThrow(
      /smtp:\/\/ or smtps:\/\//,
    );
  });
});

describe('the message as sent', () => {
  it('encodes a non-ASCII subject, keeps body lines at 76 characters, and ends with the lone dot', async () => {
    const { formatMessage } = await import('../../src/lib/smtp.ts');
    const text = `Zoë’s invitation: ${'long words '.repeat(30)}\r\n.a line that starts with a dot`;
    const raw = formatMessage(
      { from: 'a@b.example', to: 'c@d.example', subject: 'Zoë invited you\r\nBcc: x@y.example', text },
      new Date(0),
      'id@b.example',
    );
    const { headers, body } = parse(raw.slice(0, raw.lastIndexOf('\r\n.\r\n')));
    expect(decodeHeader(headers.get('subject')!)).toBe('Zoë invited you Bcc: x@y.example');
    expect(headers.has('bcc')).toBe(false);
    expect(body).toBe(text);
    const bodyLines = raw.split('\r\n\r\n')[1]!.split('\r\n');
    expect(bodyLines.every((l) => (l.length <= 76 && !l.startsWith('.')) || l === '.' || l === '')).toBe(
      true,
    );
    expect(raw.endsWith('\r\n.\r\n')).toBe(true);
    expect(() =>
      formatMessage(
        { from: 'a@b.example', to: 'c@d.example>\r\nRCPT TO:<e@f', subject: 's', text: 't' },
        new Date(0),
        'i',
      ),
    ).toThrow(/Not a mail address/);
  });
});
