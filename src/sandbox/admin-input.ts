import { type Exchange, HttpError, type LaneCtx, type Route, readBody, sendJson } from './http.ts';

/** Reading the fault-control requests of the sandbox's admin routes (both platforms' lanes). */

export const badAdminInput = (message: string) => new HttpError(400, { error: message });

/** The request's JSON object; an empty body is `{}`. */
export async function adminBody(ex: Exchange): Promise<Record<string, unknown>> {
  const raw = (await readBody(ex.req)).toString('utf8').trim();
  if (raw === '') return {};
  try {
    const parsed = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {}
  throw badAdminInput('Send a JSON object');
}

/** A count such as `times` or `after`: a non-negative integer, or `'always'` for no end. */
export function countOf(v: unknown, fallback: number, name: string): number {
  if (v === undefined) return fallback;
  if (v === 'always') return Number.POSITIVE_INFINITY;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw badAdminInput(`${name} must be a non-negative integer`);
  return v;
}

/** A fault's route: `'*'` (every route) or one of `routes`. */
export function routeOf<R extends string>(routes: readonly R[], v: unknown): R | '*' {
  if (v === undefined || v === '*') return '*';
  if (typeof v === 'string' && (routes as readonly string[]).includes(v)) return v as R;
  throw badAdminInput(`route must be '*' or one of ${routes.join(', ')}`);
}

/**
 * A POST admin endpoint of a lane: reads the JSON body, runs `handle` and answers its result
 * (`{ok: true}` when it returns nothing); anything it throws that is not an HttpError is a 400
 * carrying the message, since it means the input was wrong.
 */
export function adminAction<C extends LaneCtx>(
  path: RegExp,
  handle: (ex: Exchange<C>, b: Record<string, unknown>) => unknown,
): Route<C, never> {
  return {
    method: 'POST',
    path,
    name: 'admin',
    async handle(ex) {
      const b = await adminBody(ex);
      let result: unknown;
      try {
        result = handle(ex, b);
      } catch (err) {
        throw err instanceof HttpError
          ? err
          : badAdminInput(err instanceof Error ? err.message : String(err));
      }
      sendJson(ex.res, 200, result ?? { ok: true });
    },
  };
}
