import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { prettyFactory } from 'pino-pretty';
import { stdoutSink } from './log-sink.ts';
import { safeError, withoutValues } from './safe-error.ts';

/** Keys whose values never reach a log line, at any depth, whatever logged them. */
const SECRET_KEYS = new Set([
  'authorization',
  'accesstoken',
  'refreshtoken',
  'access_token',
  'refresh_token',
  'apikey',
  'secret',
  'client_secret',
  'code_verifier',
  'codeverifier',
  'password',
]);
const CENSOR = '[redacted]';
const MAX_DEPTH = 6;

/**
 * A copy of a log object with secret-named fields censored, and every error, under any key,
 * reduced to what failed and where (safe-error.ts: never the values a query ran with).
 */
export function scrub(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return safeError(value, (v) => scrub(v, depth + 1));
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? CENSOR : scrub(v, depth + 1);
  }
  return out;
}

/** Query parameters whose values never reach a log line (an OAuth callback's code and state...). */
const SECRET_QUERY =
  /([?&](?:code|state|token|access_token|refresh_token|code_verifier|api_key|key|secret|signature)=)[^&#]*/gi;

/**
 * A request line shows what was asked, from where, and the status. Fastify's request and reply
 * objects reach these serializers as they are (the scrub would flatten them to `{}`); the
 * serializers pick the safe fields, and nothing from the headers.
 */
const serializers = {
  req: (req: { method?: string; url?: string; ip?: string }) => ({
    method: req.method,
    url: req.url?.replace(SECRET_QUERY, `$1${CENSOR}`),
    remoteAddress: req.ip,
  }),
  res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
  // The scrub has made errors safe already; this catches an error logged past it (pino's `err`).
  err: (err: unknown) => safeError(err, (v) => scrub(v)),
};

/** A log entry scrubbed, except the request and reply its serializers reduce to safe fields. */
function scrubEntry(object: Record<string, unknown>): Record<string, unknown> {
  const { req, res, ...rest } = object;
  const out = scrub(rest) as Record<string, unknown>;
  if (req !== undefined) out.req = req;
  if (res !== undefined) out.res = res;
  return out;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * One readable line per entry (time, level, message, then the fields) for a person at a
 * terminal. pino-pretty is loaded only here, so a service logging JSON never loads it; lines
 * still go through the same sink (or the given destination), so they never block either.
 */
function prettyDestination(target: pino.DestinationStream, colorize: boolean): pino.DestinationStream {
  const load = createRequire(import.meta.url)('pino-pretty') as { prettyFactory: typeof prettyFactory };
  const format = load.prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
  });
  return { write: (line: string) => target.write(format(line)) };
}

/**
 * JSON logs (or pretty lines: `format` pretty, or auto with stdout a terminal); token-bearing and
 * key-bearing fields are censored wherever they appear. The
 * scrub runs only when a line is actually written: pino's path-based `redact` is paid again on
 * every per-request child logger and cost a third of the API's throughput. Lines go to stdout
 * through a sink that never blocks or throws (log-sink.ts), whatever the reader does.
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  format: LogFormat = 'auto',
): Logger {
  const options = {
    level,
    serializers,
    formatters: { log: scrubEntry },
    hooks: {
      // `log.error(err)` alone makes the error's message the line's: without its values too.
      logMethod(this: Logger, args: unknown[], method: (...a: unknown[]) => void) {
        const [first] = args;
        if (first instanceof Error && args.length === 1)
          return method.call(this, { err: first }, withoutValues(first.message));
        return method.apply(this, args);
      },
    },
  };
  const toTerminal = destination === undefined && process.stdout.isTTY === true;
  const target = destination ?? stdoutSink();
  const pretty = format === 'pretty' || (format === 'auto' && toTerminal);
  return pino(options, pretty ? prettyDestination(target, toTerminal) : target);
}
