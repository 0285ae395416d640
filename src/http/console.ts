import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';

/**
 * Postkit Studio, the web console: the files `vite build` wrote to web/dist, served at `/` by
 * the API process (the API stays under /v1, the reference at /docs). Only @fastify/static is
 * loaded here: the build toolchain is never imported at run time.
 *
 * It also carries the console's return from a channel connect: the console sets the cookie
 * `kit_console_connect=<state>` before sending the browser to the platform's consent page; when
 * the OAuth callback is reached with that same state, its answer becomes a 303 back to the
 * console's Channels page (with the new channel's id, or the error's code and message). Without
 * the cookie, or with another state, the callback answers JSON exactly as the contract says.
 */
export const CONSOLE_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));
export const CONNECT_COOKIE = 'kit_console_connect';

const CALLBACK_ROUTE = /^\/v1\/channels\/[A-Za-z0-9]+\/callback$/;

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Postkit</title></head>
<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">
<h1>The console is not built</h1>
<p>Build it with <code>npm run build:web</code> (or start with <code>npm start</code>, which builds it when needed), then reload.</p>
<p>The API is running: see <a href="/docs">/docs</a>.</p></body></html>`;

export interface ConsoleOptions {
  /** Where the built console lives (default web/dist). */
  dir?: string;
}

export async function registerConsole(app: FastifyInstance, options: ConsoleOptions = {}): Promise<void> {
  registerConnectReturn(app);
  const dir = options.dir ?? CONSOLE_DIR;
  const route = { config: { public: true }, schema: { hide: true }, logLevel: 'warn' as const };
  const notBuilt = (reply: FastifyReply) => reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  if (!existsSync(dir)) {
    app.get('/', route, async (_request, reply) => notBuilt(reply));
    return;
  }
  // Files are looked up at each request, so a console rebuilt while the server runs
  // (`npm run build:web`) is served at once, new asset names included.
  await app.register(fastifyStatic, { root: dir, serve: false });
  app.get('/', route, (_request, reply) =>
    existsSync(`${dir}/index.html`)
      ? reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false })
      : notBuilt(reply),
  );
  // Only /assets/<name> is reachable under /. Vite names assets by content hash, so they are
  // cached for good.
  app.get<{ Params: { file: string } }>('/assets/:file', route, (request, reply) =>
    ASSET_NAME.test(request.params.file)
      ? reply.sendFile(`assets/${request.params.file}`, { maxAge: '365d', immutable: true })
      : reply.callNotFound(),
  );
}

const ASSET_NAME = /^[\w-][\w.-]*$/;

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Turns the OAuth callback's answer into a redirect to the console when the flow began there. */
function registerConnectReturn(app: FastifyInstance) {
  // Attached to the callback routes only: an async onSend hook on every route costs every request.
  app.addHook('onRoute', (route) => {
    if (route.method !== 'GET' || !CALLBACK_ROUTE.test(route.url)) return;
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), connectReturn];
  });
}

const connectReturn: onSendHookHandler = async (request, reply, payload) => {
  const state = (request.query as { state?: unknown } | undefined)?.state;
  const remembered = cookieValue(request.headers.cookie, CONNECT_COOKIE);
  if (!remembered || typeof state !== 'string' || remembered !== state) return payload;
  let body: { channel?: { id?: unknown }; error?: { code?: unknown; message?: unknown } } = {};
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : String(payload));
  } catch {}
  const query = new URLSearchParams();
  if (reply.statusCode === 200 && typeof body.channel?.id === 'string')
    query.set('connected', body.channel.id);
  else {
    query.set('connectError', String(body.error?.code ?? reply.statusCode));
    query.set('message', String(body.error?.message ?? 'Connecting the channel failed.'));
  }
  reply
    .code(303)
    .header('location', `/#/channels?${query}`)
    .header('set-cookie', `${CONNECT_COOKIE}=; Path=/v1/channels; Max-Age=0; SameSite=Lax`)
    .header('content-type', 'text/plain; charset=utf-8')
    .removeHeader('content-length');
  return 'Back to the console: /#/channels';
};
