import { type Exchange, HttpError, readBody } from './http.ts';

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
