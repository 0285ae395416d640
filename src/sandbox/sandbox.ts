import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drain, HttpError, sendHtml, sendJson } from './http.ts';
import { type LaneDefinition, type RunningLane, type ServedRoute, startLane } from './lane.ts';
import { page } from './page.ts';
import { platformALane } from './platformA/index.ts';
import { platformBLane } from './platformB/index.ts';

export type { FaultSpec } from './fault-board.ts';

/**
 * Every emulated platform, one lane each (src/sandbox/<id>/), served on one port: the key is the
 * platform id, the `sandbox.<id>` of tests, the `<id>` options key and the `/_sandbox/<id>/` admin
 * prefix. A new platform is one lane folder and one entry here.
 */
const LANES = {
  platformA: platformALane,
  platformB: platformBLane,
} as const;

type Lanes = typeof LANES;
type LaneId = keyof Lanes;
type OptionsOf<L> = L extends LaneDefinition<infer O, infer _C, infer _R, infer _H> ? O : never;
type ControlsOf<L> = L extends LaneDefinition<infer _O, infer _C, infer _R, infer H> ? H : never;

const LANE_IDS = Object.keys(LANES) as LaneId[];
/** The ids of the platforms the sandbox emulates, in the order of its lanes. */
export const SANDBOX_PLATFORMS: readonly LaneId[] = LANE_IDS;

export type SandboxOptions = {
  /** Default 0 (any free port). */
  port?: number;
  host?: string;
  /** Redirect straight back with a code (default true); false shows each platform's consent page with Approve. */
  autoApprove?: boolean;
  now?: () => number;
} & { [K in LaneId]?: OptionsOf<Lanes[K]> };

export type Sandbox = {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Every lane's variables pointing a Postkit served at `postkitUrl` at this sandbox. */
  envFor(postkitUrl?: string): Record<string, string>;
  close(): Promise<void>;
} & { [K in LaneId]: ControlsOf<Lanes[K]> };

/** Starts every platform's emulator on 127.0.0.1 (in-process; `npm run sandbox` wraps it). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const autoApprove = options.autoApprove ?? true;
  const lanes = new Map<LaneId, RunningLane<unknown>>();
  for (const id of LANE_IDS) {
    // Each entry is checked against its own options and controls by the mapped types above;
    // in this loop over every id they are one erased shape.
    const lane = LANES[id] as unknown as LaneDefinition<unknown, never, string, unknown>;
    lanes.set(id, startLane(lane, options[id] ?? {}, { baseUrl: '', now, autoApprove }));
  }
  const routes = [...lanes.values()].flatMap((lane) => lane.routes);
  const indexPage = () =>
    page(
      'Sandbox',
      `<p>Emulators of ${LANE_IDS.join(' and ')} on one port, for trying Postkit without live accounts.
<code>npm run sandbox</code> prints the variables that point Postkit at it. Posts live in memory.</p>
${[...lanes.values()].map((lane) => lane.indexSection()).join('\n')}`,
      { refreshSeconds: 5 },
    );

  let baseUrl = '';
  const server = createServer((req, res) => {
    dispatch(routes, indexPage, baseUrl, req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { status: 500, message: 'Internal sandbox error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  baseUrl = url;
  for (const lane of lanes.values()) lane.ctx.baseUrl = url;

  const controls = Object.fromEntries(LANE_IDS.map((id) => [id, lanes.get(id)!.controls()])) as {
    [K in LaneId]: ControlsOf<Lanes[K]>;
  };
  return {
    url,
    ...controls,
    envFor: (postkitUrl = 'http://127.0.0.1:8080') =>
      Object.assign(
        {},
        ...LANE_IDS.map((id) => controls[id].env(`${postkitUrl}/v1/channels/${id}/callback`)),
      ) as Record<string, string>,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function dispatch(
  routes: readonly ServedRoute[],
  indexPage: () => string,
  baseUrl: string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  let url: URL;
  try {
    url = new URL(req.url ?? '/', baseUrl);
  } catch {
    await drain(req);
    return sendJson(res, 400, { status: 400, message: 'Bad request URL' });
  }
  if (req.method === 'GET' && url.pathname === '/') return sendHtml(res, 200, indexPage());
  let params: string[] = [];
  const route = routes.find((r) => {
    if (r.method !== req.method || (r.query && !r.query(url))) return false;
    const m = r.path.exec(url.pathname);
    if (m) params = m.slice(1);
    return Boolean(m);
  });
  if (!route) {
    await drain(req);
    return sendJson(res, 404, { status: 404, message: `No resource ${req.method} ${url.pathname}` });
  }
  try {
    params = params.map((p) => decodeURIComponent(p));
  } catch {
    await drain(req);
    return sendJson(res, 400, { status: 400, message: 'Malformed URL encoding' });
  }
  try {
    await route.serve({ req, res, url, params });
  } catch (err) {
    await drain(req).catch(() => {});
    if (res.headersSent || res.destroyed) return;
    if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
    process.stderr.write(
      `sandbox: ${req.method} ${url.pathname} failed: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
    sendJson(res, 500, { status: 500, message: 'Internal sandbox error' });
  }
}
