import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { z } from 'zod';
import { isDependencyOutage } from '../domain/dependency-outage.ts';
import { type ErrorDetail, Invalid } from '../domain/errors.ts';
import { AppError, errorObject, toAppError } from '../http/errors.ts';

/**
 * A successful call: the one-line summary a model reads first, the same JSON serialized for
 * clients that only show text (the MCP spec asks for it), and the JSON as structured content.
 */
export function toolSuccess(
  summary: string,
  structured: Record<string, unknown>,
  replayed = false,
): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
    ...(replayed ? { _meta: { idempotentReplay: true } } : {}),
  };
}

/**
 * A failed call as a tool error (`isError: true`), so the model sees it and can correct
 * itself: a line `code: message` with the field details, then the REST error body as JSON,
 * `{error: {code, message, details?, ...about, requestId}}` (e.g. `error.post`, the post in the
 * way) plus any top-level extras (publish's failed `post`). It is text, not structured content: structured content must match the
 * tool's output schema, which describes success.
 */
export function toolError(appError: AppError, requestId: string): CallToolResult {
  const details = appError.details?.map((d) => ({ ...d, path: argumentPath(d.path) }));
  const error = errorObject(appError, requestId, details);
  const lines = [`${appError.code}: ${appError.message}`];
  for (const detail of details ?? []) lines.push(`- ${detail.path}: ${detail.message}`);
  const retryAfter = appError.headers?.['retry-after'];
  if (retryAfter) lines.push(`Retry after ${retryAfter}s.`);
  return {
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: JSON.stringify({ error, ...appError.extra }) },
    ],
    isError: true,
  };
}

/**
 * A service names a query or path field as REST sees it (`querystring.from`); a tool has only
 * arguments, so the detail names the argument (`from`), as argument validation does.
 */
const argumentPath = (path: string) => path.replace(/^(querystring|params)\./, '');

/**
 * Domain errors answer as their REST mapping does (src/http/errors.ts); anything else (as in
 * the REST error handler) says nothing internal.
 */
export function asAppError(err: unknown, log: Logger): AppError {
  const answer = toAppError(err);
  if (answer) {
    if (answer.status >= 500) log.warn({ err, code: answer.code }, 'tool call failed upstream');
    return answer;
  }
  if (isDependencyOutage(err)) {
    log.error({ err }, 'dependency unavailable during a tool call');
    return new AppError(503, 'dependency_unavailable', 'A backing service is unavailable; retry shortly.', {
      headers: { 'retry-after': '2' },
    });
  }
  log.error({ err }, 'unhandled error in a tool call');
  return new AppError(500, 'internal_error', 'Something went wrong on our side; retry later.');
}

/** Argument problems in the REST error format: one detail per field, `items[2].runAt` paths. */
export function invalidArguments(error: z.ZodError): Invalid {
  const details: ErrorDetail[] = error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: pathOf([...issue.path, key]),
        message: 'Unknown field; remove it',
      }));
    }
    return [{ path: pathOf(issue.path), message: issue.message }];
  });
  return new Invalid('The arguments did not validate: fix the listed fields.', details);
}

function pathOf(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const seg of segments) {
    if (typeof seg === 'number') path += `[${seg}]`;
    else path += path ? `.${String(seg)}` : String(seg);
  }
  return path || '(arguments)';
}
