import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The webhook receiver `npm run demo` serves on this machine, so its Webhooks page has somewhere to
 * send a test event: POST /hooks records what arrived (its x-kit-* headers and body) and answers
 * 200; GET /hooks lists the latest deliveries as JSON, newest first, for the console to show
 * (CORS open: it holds only what was sent to it); GET / is the same list as a page. It keeps the
 * last MAX_KEPT deliveries in memory and forgets them on exit, like the sandbox.
 */

export interface ArrivedDelivery {
  receivedAt: number;
  event: string | null;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookInbox {
  /** The address to register as a webhook endpoint (and to GET for what arrived). */
  url: string;
  arrived(): ArrivedDelivery[];
  close(): Promise<void>;
}

const MAX_KEPT = 50;
const MAX_BODY = 256 * 1024;
/** What a receiver looks at; the rest (host, connection, …) says nothing about the delivery. */
const SHOWN = /^(x-kit-|content-type$|user-agent$)/;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function page(arrived: ArrivedDelivery[], url: string): string {
  const items = arrived
    .map(
      (d) =>
        `<li><h2>${escapeHtml(d.event ?? 'A request without x-kit-event')} <small>${new Date(d.receivedAt).toISOString()}</small></h2><dl>${Object.entries(
          d.headers,
        )
          .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><code>${escapeHtml(v)}</code></dd>`)
          .join('')}</dl><pre>${escapeHtml(d.body)}</pre></li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Demo webhook receiver</title></head><body style="font-family:system-ui;max-width:60rem;margin:2rem auto;padding:0 1rem"><h1>Demo webhook receiver</h1><p>Register <code>${escapeHtml(url)}</code> on the console's Webhooks page; what Postkit sends it is listed here, newest first (the last ${MAX_KEPT}). Reload to see new ones.</p>${items ? `<ol>${items}</ol>` : '<p>Nothing has arrived yet.</p>'}</body></html>`;
}

export async function startWebhookInbox(
  options: { port?: number; host?: string } = {},
): Promise<WebhookInbox> {
  const arrived: ArrivedDelivery[] = [];
  let url = '';
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('access-control-allow-origin', '*');
    if (req.method === 'POST' && path === '/hooks') {
      const body = await readBody(req).catch(() => null);
      if (body === null) {
        res.writeHead(413, { 'content-type': 'application/json' }).end('{"received":false}');
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([k, v]) =>
          SHOWN.test(k) && typeof v === 'string' ? [[k, v]] : [],
        ),
      );
      arrived.unshift({ receivedAt: Date.now(), event: headers['x-kit-event'] ?? null, headers, body });
      arrived.length = Math.min(arrived.length, MAX_KEPT);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      return;
    }
    if (req.method === 'GET' && path === '/hooks') {
      res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ arrived }));
      return;
    }
    if (req.method === 'GET' && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(arrived, url));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: POST or GET /hooks, or GET /');
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host}:${port}/hooks`;
  return {
    url,
    arrived: () => [...arrived],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
