import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { ArmedFault, FaultBoard } from './fault-board.ts';
import { drain, type Exchange, type LaneCtx, type Route } from './http.ts';

/**
 * One platform's emulator inside the sandbox (src/sandbox/<id>/index.ts exports one). The shell
 * (sandbox.ts) serves every lane on one port from one list; a lane owns its wire routes, its
 * admin routes under `/_sandbox/<id>/`, its post page, its section of the index page and the
 * in-process controls tests reach as `sandbox.<id>`.
 */
/** `X` is what the lane's failures add to the shared fields (fault-board.ts). */
export interface LaneDefinition<
  O,
  C extends LaneCtx & { faults: FaultBoard<R, X> },
  R extends string,
  H,
  X extends object = object,
> {
  /** Its state, faults and settings from the options (defaults filled in), on the shared context. */
  create(options: O, base: LaneCtx): C;
  routes: readonly Route<C, R>[];
  /** Counts a request to one of its platform routes, faulted ones included. */
  record(ctx: C, route: R, method: string, path: string): void;
  /** An injected failure, shaped like this platform's own answer on that route. */
  sendFault(ctx: C, res: ServerResponse, route: R, fault: ArmedFault<R, X>): void;
  /** Its part of the index page (`/`): the posts it holds. */
  indexSection(ctx: C): string;
  /** What `sandbox.<id>` is: its URLs, client, state, faults and env(); called once listening. */
  controls(ctx: C): H;
}

/** A lane's route with the lane's context bound and its faults applied first. */
export interface ServedRoute {
  method: string;
  path: RegExp;
  query?: (url: URL) => boolean;
  serve(ex: Omit<Exchange, 'ctx'>): Promise<void>;
}

export interface RunningLane<H> {
  /** The shared part of its context, so the shell can set `baseUrl` once listening. */
  ctx: LaneCtx;
  routes: ServedRoute[];
  indexSection(): string;
  controls(): H;
}

/** Makes a lane's context and binds its routes to it (type parameters checked here, erased after). */
export function startLane<
  O,
  C extends LaneCtx & { faults: FaultBoard<R, X> },
  R extends string,
  H,
  X extends object = object,
>(lane: LaneDefinition<O, C, R, H, X>, options: O, base: LaneCtx): RunningLane<H> {
  const ctx = lane.create(options, base);
  const routes = lane.routes.map(
    (route): ServedRoute => ({
      method: route.method,
      path: route.path,
      query: route.query,
      async serve(ex) {
        if (route.name !== 'admin' && route.name !== 'page') {
          const name = route.name as R;
          lane.record(ctx, name, ex.req.method ?? 'GET', ex.url.pathname);
          const wait = ctx.faults.latencyFor(name);
          if (wait > 0) await delay(wait);
          const fault = ctx.faults.takeFault(name);
          if (fault) {
            await drain(ex.req);
            if (fault.drop) {
              ex.req.socket.destroy();
              return;
            }
            return lane.sendFault(ctx, ex.res, name, fault);
          }
        }
        await route.handle({ ...ex, ctx });
      },
    }),
  );
  return { ctx, routes, indexSection: () => lane.indexSection(ctx), controls: () => lane.controls(ctx) };
}
