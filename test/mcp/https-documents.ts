import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What the document server answers at a path; `hold` never answers (a host that hangs). */
export interface DocumentResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  hold?: boolean;
}

export interface DocumentServer {
  /** The https URL of a path on this server. */
  url(path: string): string;
  /** The certificate (PEM) the server presents, for the app to trust. */
  cert: string;
  serve(path: string, response: DocumentResponse): void;
  /** Requests received at a path so far. */
  hits(path: string): number;
  close(): Promise<void>;
}

/**
 * An https server on loopback with a certificate made for this run (openssl, a self-signed
 * certificate for 127.0.0.1 and localhost, valid one day), standing in for the web host of an
 * agent's client ID metadata document.
 */
export async function startDocumentServer(): Promise<DocumentServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cimd-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const routes = new Map<string, DocumentResponse>();
  const counts = new Map<string, number>();
  const server: Server = createServer({ key, cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const answer = routes.get(path) ?? { status: 404, body: 'not found' };
    if (answer.hold) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    cert,
    serve: (path, response) => routes.set(path, response),
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
