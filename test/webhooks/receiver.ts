import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../helpers/until.ts';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body exactly as it arrived (what the signature covers). */
  body: string;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Resolves once `n` requests have arrived (polls; the caller's test timeout bounds it). */
  waitFor(n: number): Promise<Received[]>;
  close(): Promise<void>;
}

type Respond = (req: Received, index: number, res: ServerResponse) => number | Promise<number> | 'handled';

/** A real HTTP receiver on 127.0.0.1:0 that records every request and answers as told. */
export async function startReceiver(respond: Respond = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const entry: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = received.push(entry) - 1;
      const status = await respond(entry, index, res);
      if (status === 'handled') return;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`status ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    async waitFor(n) {
      return until(`${n} deliveries at the receiver`, () => received.length >= n && received, 60_000, 5);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
