/**
 * Connection-level failures of PostgreSQL or Redis (through any wrapping), as opposed to bugs.
 * The REST handler and the MCP result mapping answer them with 503 `dependency_unavailable`;
 * `main.ts` keeps running when one surfaces as an unowned rejection.
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  '57P01', // admin_shutdown
  '57P03', // cannot_connect_now
]);

export function isDependencyOutage(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; message?: unknown } | undefined, i = 0;
    e && i < 5;
    i++
  ) {
    if (typeof e.code === 'string' && OUTAGE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /Connection is closed|Stream isn't writeable/.test(e.message))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
