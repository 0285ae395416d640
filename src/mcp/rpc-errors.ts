import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorDetail } from '../http/errors.ts';

/**
 * JSON-RPC errors that read like the REST ones. The SDK answers a request whose params do not
 * match its schema (e.g. `initialize` with `params: {}`) with -32603 and the raw validation dump
 * as the message; these answer -32602 with one sentence naming the fields, and the REST error body
 * (`{code: 'invalid_request', message, details}`) as `data`.
 */
interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

function isValidationError(err: unknown): err is { issues: Issue[] } {
  // zod 4's error is not always an `Error` instance; its name and issues are what identify it.
  const candidate = err as { name?: unknown; issues?: unknown } | null;
  return /^\$?ZodError$/.test(String(candidate?.name)) && Array.isArray(candidate?.issues);
}

function pathOf(segments: readonly PropertyKey[]): string {
  let path = '';
  for (const seg of segments)
    path += typeof seg === 'number' ? `[${seg}]` : path ? `.${String(seg)}` : String(seg);
  return path || '(request)';
}

/**
 * A JSON-RPC error whose message is the sentence alone. McpError prefixes its message with
 * `MCP error <code>: `, and the SDK client prefixes the wire message again, so an agent read
 * `MCP error -32602: MCP error -32602: …`; the code is in the error's `code` already.
 */
export function rpcError(code: ErrorCode, message: string, data?: unknown): McpError {
  const error = new McpError(code, message, data);
  error.message = message;
  return error;
}

export function invalidParamsError(method: string, issues: Issue[]): McpError {
  const details: ErrorDetail[] = issues.map((i) => ({ path: pathOf(i.path), message: i.message }));
  const named = details.map((d) => `${d.path} (${d.message})`).join(', ');
  const message = `The ${method} request did not validate: fix ${named}.`;
  return rpcError(ErrorCode.InvalidParams, message, { code: 'invalid_request', message, details });
}

type Handler = (request: { method: string }, extra: unknown) => Promise<unknown>;

/** Wraps every request handler the server has, so schema failures become `invalidParamsError`. */
export function withReadableParamErrors(server: Server): Server {
  // The SDK keeps its handlers in a TypeScript-private map; this is the one place that reads it.
  const handlers = (server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        if (isValidationError(err)) throw invalidParamsError(method, err.issues);
        throw err;
      }
    });
  }
  return server;
}

const EMPTY_BATCH_MESSAGE = 'Invalid Request: the batch is empty; send at least one JSON-RPC message.';

/** JSON-RPC 2.0: an empty array is one Invalid Request error (the transport would answer 202). */
export const emptyBatchBody = () =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: ErrorCode.InvalidRequest,
      message: EMPTY_BATCH_MESSAGE,
      data: { code: 'invalid_request', message: EMPTY_BATCH_MESSAGE },
    },
  });
