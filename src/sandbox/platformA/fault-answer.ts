import type { ServerResponse } from 'node:http';
import type { FaultSpec } from '../fault-board.ts';
import { sendJson } from '../http.ts';
import type { PlatformAFault, PlatformARoute } from './faults.ts';

const TOKEN_CODES: Record<string, number> = {
  INVALID_ACCESS_TOKEN: 65600,
  REVOKED_ACCESS_TOKEN: 65601,
  EXPIRED_ACCESS_TOKEN: 65602,
};

/** An injected failure, shaped like platformA's own answer for that status. */
export function sendAFault(res: ServerResponse, route: PlatformARoute, fault: FaultSpec<PlatformAFault>) {
  const status = fault.status!;
  if (route === 'token' || route === 'authorize') {
    const error =
      fault.code ??
      (status === 401
        ? 'invalid_client'
        : status === 429
          ? 'rate_limited'
          : status >= 500
            ? 'server_error'
            : 'invalid_request');
    return sendJson(res, status, { error, error_description: fault.message ?? `Injected ${status}` });
  }
  const defaults: Record<number, [string, string, number?]> = {
    401: ['INVALID_ACCESS_TOKEN', 'Invalid access token'],
    403: ['ACCESS_DENIED', 'Not enough permissions to access this resource', 100],
    422: ['UNPROCESSABLE_ENTITY', 'Unprocessable entity'],
    426: ['NONEXISTENT_VERSION', 'Requested version is not active'],
    429: ['TOO_MANY_REQUESTS', 'Resource level throttle limit for calls to this resource is reached'],
  };
  const [code, message, serviceCode] = defaults[status] ?? [
    undefined,
    status >= 500 ? 'Internal Server Error' : `Injected ${status}`,
  ];
  const finalCode = fault.code === null ? undefined : (fault.code ?? code);
  sendJson(res, status, {
    status,
    ...(fault.serviceErrorCode !== undefined
      ? { serviceErrorCode: fault.serviceErrorCode }
      : finalCode && TOKEN_CODES[finalCode]
        ? { serviceErrorCode: TOKEN_CODES[finalCode] }
        : serviceCode
          ? { serviceErrorCode: serviceCode }
          : {}),
    ...(finalCode ? { code: finalCode } : {}),
    message: fault.message ?? message,
  });
}
