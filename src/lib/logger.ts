import pino, { type Logger } from 'pino';
import { stdoutSink } from './log-sink.ts';

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

/** A copy of a log object with secret-named fields censored (errors keep their own serializer). */
export function scrub(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || value instanceof Error)
    return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.has(key.toLowerCase()) ? CENSOR : scrub(v, depth + 1);
  }
  return out;
}

/**
 * JSON logs; token-bearing and key-bearing fields are censored wherever they appear. The
 * scrub runs only when a line is actually written: pino's path-based `redact` is paid again on
 * every per-request child logger and cost a third of the API's throughput. Lines go to stdout
 * through a sink that never blocks or throws (log-sink.ts), whatever the reader does.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = {
    level,
    formatters: { log: (object: Record<string, unknown>) => scrub(object) as Record<string, unknown> },
  };
  return pino(options, destination ?? stdoutSink());
}
