import { connect as netConnect, type Socket } from 'node:net';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';

/**
 * A small SMTP client (RFC 5321) for the few plain-text messages Postkit sends (invitations):
 * `smtp://` (STARTTLS when the server offers it, required with `?tls=required`) or `smtps://`
 * (TLS from the first byte), AUTH PLAIN with the URL's user and password, one recipient, a
 * UTF-8 text body in base64 (so no line is too long and no line starts with a dot). Each reply
 * is awaited with a timeout; any refusal throws SmtpError with the server's words.
 */
export interface SmtpMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

export class SmtpError extends Error {
  override name = 'SmtpError';
}

export interface SmtpOptions {
  /** Milliseconds allowed for the connection and for each reply. */
  timeoutMs?: number;
  /** The name this host gives in EHLO. */
  clientName?: string;
  /** Extra TLS options (tests pass a CA or `rejectUnauthorized`). */
  tls?: { rejectUnauthorized?: boolean; ca?: string | Buffer };
}

interface Reply {
  code: number;
  lines: string[];
}

/** Reads SMTP replies (possibly multi-line: `250-…` continues, `250 …` ends) off a socket. */
class ReplyReader {
  #buffer = '';
  #waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | null = null;
  #ready: Reply[] = [];
  #failure: Error | null = null;
  #lines: string[] = [];

  attach(socket: Socket | TLSSocket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.#feed(chunk));
    socket.on('error', (err) => this.#fail(err));
    socket.on('close', () => this.#fail(new SmtpError('The mail server closed the connection.')));
  }

  /** Stops listening to a socket about to be upgraded to TLS. */
  detach(socket: Socket) {
    socket.removeAllListeners('data');
    socket.removeAllListeners('error');
    socket.removeAllListeners('close');
  }

  #feed(chunk: string) {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf('\r\n');
    while (end >= 0) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.#lines.push(line.slice(4));
      if (line[3] !== '-') {
        const reply = { code: Number(line.slice(0, 3)), lines: this.#lines };
        this.#lines = [];
        if (this.#waiting) {
          const w = this.#waiting;
          this.#waiting = null;
          w.resolve(reply);
        } else this.#ready.push(reply);
      }
      end = this.#buffer.indexOf('\r\n');
    }
  }

  #fail(err: Error) {
    this.#failure ??= err;
    if (this.#waiting) {
      const w = this.#waiting;
      this.#waiting = null;
      w.reject(err);
    }
  }

  next(timeoutMs: number): Promise<Reply> {
    const ready = this.#ready.shift();
    if (ready) return Promise.resolve(ready);
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting = null;
        reject(new SmtpError(`The mail server did not answer within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.#waiting = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }
}

/** `=?UTF-8?B?…?=` for a header with anything beyond printable ASCII (RFC 2047). */
const headerText = (value: string) =>
  /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;

/** An address as it may appear in a header or an envelope: no line breaks, no angle brackets. */
function address(value: string): string {
  if (/[\r\n<>]/.test(value) || !value.includes('@')) throw new SmtpError(`Not a mail address: ${value}`);
  return value;
}

/** The message as sent after DATA: headers, a blank line, the base64 body in 76-character lines, the end mark. */
export function formatMessage(message: SmtpMessage, now: Date, messageId: string): string {
  const body = Buffer.from(message.text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  return [
    `From: ${address(message.from)}`,
    `To: ${address(message.to)}`,
    `Subject: ${headerText(message.subject.replace(/[\r\n]+/g, ' '))}`,
    `Date: ${now.toUTCString()}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    body,
    '.',
    '',
  ].join('\r\n');
}

/** Sends one message through the server at `url` (smtp:// or smtps://, user and password in it). */
export async function sendMail(url: string, message: SmtpMessage, options: SmtpOptions = {}): Promise<void> {
  const target = new URL(url);
  const implicitTls = target.protocol === 'smtps:';
  if (!implicitTls && target.protocol !== 'smtp:')
    throw new SmtpError('SMTP_URL must be smtp:// or smtps://');
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const port = Number(target.port || (implicitTls ? 465 : 587));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const requireTls = target.searchParams.get('tls') === 'required';
  const name = options.clientName ?? 'postkit.localhost';
  const reader = new ReplyReader();
  let socket: Socket | TLSSocket = await open(host, port, implicitTls, timeoutMs, options);
  reader.attach(socket);
  const expect = async (codes: number[], what: string) => {
    const reply = await reader.next(timeoutMs);
    if (!codes.includes(reply.code))
      throw new SmtpError(`The mail server refused ${what}: ${reply.code} ${reply.lines.join(' ')}`);
    return reply;
  };
  const send = (line: string) => socket.write(`${line}\r\n`);
  try {
    await expect([220], 'the connection');
    send(`EHLO ${name}`);
    let hello = await expect([250], 'EHLO');
    const offers = (word: string) => hello.lines.some((l) => l.toUpperCase().startsWith(word));
    if (!implicitTls && (offers('STARTTLS') || requireTls)) {
      send('STARTTLS');
      await expect([220], 'STARTTLS');
      reader.detach(socket);
      socket = await upgrade(socket as Socket, host, timeoutMs, options);
      reader.attach(socket);
      send(`EHLO ${name}`);
      hello = await expect([250], 'EHLO after STARTTLS');
    }
    if (target.username) {
      const user = decodeURIComponent(target.username);
      const pass = decodeURIComponent(target.password);
      send(`AUTH PLAIN ${Buffer.from(`\0${user}\0${pass}`, 'utf8').toString('base64')}`);
      await expect([235], 'the sign-in (AUTH PLAIN)');
    }
    send(`MAIL FROM:<${address(message.from)}>`);
    await expect([250], 'the sender');
    send(`RCPT TO:<${address(message.to)}>`);
    await expect([250, 251], 'the recipient');
    send('DATA');
    await expect([354], 'DATA');
    const domain = message.from.split('@')[1] ?? 'postkit.localhost';
    socket.write(
      formatMessage(message, new Date(), `${Date.now()}.${Math.random().toString(36).slice(2)}@${domain}`),
    );
    await expect([250], 'the message');
    send('QUIT');
    await reader.next(timeoutMs).catch(() => undefined);
  } finally {
    socket.destroy();
  }
}

function open(host: string, port: number, tls: boolean, timeoutMs: number, options: SmtpOptions) {
  return new Promise<Socket | TLSSocket>((resolve, reject) => {
    const socket = tls
      ? tlsConnect({ host, port, servername: host, ...options.tls }, () => done(null))
      : netConnect({ host, port }, () => done(null));
    const timer = setTimeout(
      () => done(new SmtpError(`Could not reach the mail server within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    const onError = (err: Error) => done(err);
    socket.once('error', onError);
    function done(err: Error | null) {
      clearTimeout(timer);
      socket.off('error', onError);
      if (err) {
        socket.destroy();
        reject(err);
      } else resolve(socket);
    }
  });
}

function upgrade(plain: Socket, host: string, timeoutMs: number, options: SmtpOptions) {
  return new Promise<TLSSocket>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new SmtpError('The TLS handshake with the mail server timed out.')),
      timeoutMs,
    );
    const secure = tlsConnect({ socket: plain, servername: host, ...options.tls }, () => {
      clearTimeout(timer);
      resolve(secure);
    });
    secure.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}
