import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { AppError, type ErrorDetail } from './errors.ts';

/**
 * Text PostgreSQL cannot store as sent, refused at the door for every request.
 *
 * - NUL (U+0000): `text` columns refuse the byte and `jsonb` refuses the `\u0000` escape.
 * - Lone surrogates (U+D800-U+DFFF without their pair): a `jsonb` value refuses the escape, and
 *   a `text` column would silently store U+FFFD instead (the driver encodes to UTF-8).
 *
 * Both are refused, never stripped or replaced: what is stored is what the caller sent, and a
 * caller that sends them learns which field to fix (docs/decisions.md). Everything else that is
 * valid Unicode (bidi controls, zero-width characters, non-characters) is stored as sent.
 */
export type UnstorableReason = 'nul' | 'lone_surrogate';

const REASON_MESSAGES: Record<UnstorableReason, string> = {
  nul: 'Contains a NUL character (U+0000), which cannot be stored; remove it',
  lone_surrogate:
    'Contains an unpaired UTF-16 surrogate (U+D800-U+DFFF), which is not valid Unicode text; send well-formed text',
};

export function unstorableReason(text: string): UnstorableReason | null {
  if (text.includes('\u0000')) return 'nul';
  if (!text.isWellFormed()) return 'lone_surrogate';
  return null;
}

function isPlainContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  // Plain objects, and the null-prototype objects the router and query parser build; never a
  // Buffer or stream (an upload's body).
  const proto = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

const joinPath = (parent: string, key: string | number) =>
  typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/**
 * Every string (values and object keys) in a parsed JSON value, parameters or query object that
 * cannot be stored, with its path in the API's error format (`items[2].text`). Iterative, so a
 * deeply nested body cannot overflow the stack; stops after `limit` findings.
 */
export function findUnstorableText(value: unknown, root = '', limit = 20): ErrorDetail[] {
  const found: ErrorDetail[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length && found.length < limit) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      const reason = unstorableReason(current);
      if (reason) found.push({ path: path || '(body)', message: REASON_MESSAGES[reason] });
      continue;
    }
    if (!isPlainContainer(current)) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], joinPath(path, i)]);
      continue;
    }
    const entries = Object.entries(current);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i]!;
      const reason = unstorableReason(key);
      if (reason) {
        // The key itself is the problem: name it by what it is, escaped so the path is printable.
        found.push({
          path: joinPath(path, JSON.stringify(key).slice(1, -1)),
          message: REASON_MESSAGES[reason],
        });
        continue;
      }
      stack.push([child, joinPath(path, key)]);
    }
  }
  return found;
}

export const unstorableTextError = (where: string, details: ErrorDetail[]) =>
  new AppError(
    400,
    'invalid_request',
    `The ${where} carried text that cannot be stored: fix the listed fields.`,
    {
      details,
    },
  );

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler checks its own body's text (the MCP endpoint answers JSON-RPC, so its tools
     * check their arguments); path and query are still checked here.
     */
    checksOwnBodyText?: boolean;
  }
}

/**
 * One hook for every route, present and future: path parameters, query strings and JSON bodies
 * are checked before any validator or handler sees them, so no route can forget it. It runs
 * after authentication, so an unauthenticated caller still gets 401 first.
 */
export function registerTextSafety(app: FastifyInstance) {
  // Attached to each route as it is registered (first among its preValidation hooks).
  app.addHook('onRoute', (route) => {
    const own = route.preValidation ? [route.preValidation].flat() : [];
    if (own.includes(checkText) || own.includes(checkTextNotBody)) return;
    route.preValidation = [route.config?.checksOwnBodyText ? checkTextNotBody : checkText, ...own];
  });
}

/** No string can hide in it: absent, or an object or array with no own keys. */
function holdsNothing(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const _ in value) return false;
  return true;
}

/**
 * A callback hook: a request with nothing to check (most GETs: no path parameter, query or
 * body) costs no promise and no walk.
 */
function textCheck(withBody: boolean): preValidationHookHandler {
  return (request, _reply, done) => {
    if (
      holdsNothing(request.params) &&
      holdsNothing(request.query) &&
      (!withBody || holdsNothing(request.body))
    )
      return done();
    const details = [
      ...findUnstorableText(request.params, 'params'),
      ...findUnstorableText(request.query, 'querystring'),
    ];
    if (withBody) details.push(...findUnstorableText(request.body));
    if (!details.length) return done();
    const where = details.every((d) => d.path.startsWith('params'))
      ? 'path'
      : details.every((d) => d.path.startsWith('querystring'))
        ? 'query string'
        : 'request';
    done(unstorableTextError(where, details));
  };
}

const checkText = textCheck(true);
const checkTextNotBody = textCheck(false);
