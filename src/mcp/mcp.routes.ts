import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { z } from 'zod';
import { enforceBudget, hitBudgets } from '../api/rate-limit.ts';
import { ErrorBody, errorResponses } from '../api/schemas.ts';
import type { FeatureRoutes } from '../features/feature-routes.ts';
import { baseUrlOf, resourceMetadataUrlOf } from '../features/oauth/issuer.ts';
import { budgetDigestOf } from '../http/auth.ts';
import { AppError } from '../http/errors.ts';
import { keyBudgets } from '../http/key-budgets.ts';
import { toolDefinitions } from './catalog.ts';
import { handleMcpPost } from './mcp-server.ts';
import { emptyBatchBody } from './rpc-errors.ts';

const tags = ['agent tools'];

/** The headers the transport reads; nothing else (cookies, authorization) is handed to it. */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  'last-event-id',
];

const ToolListResult = z
  .object({
    tools: z.array(
      z
        .object({
          name: z.string(),
          title: z.string().optional(),
          description: z.string().optional(),
          inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of the arguments'),
          outputSchema: z.record(z.string(), z.unknown()).optional(),
          annotations: z.record(z.string(), z.unknown()).optional(),
          _meta: z
            .record(z.string(), z.unknown())
            .optional()
            .describe(
              '`postkit/scope`: the scope (read, write, publish) a caller needs for this tool; `postkit/role`: the least role (viewer, editor, admin, owner) of the caller’s member',
            ),
        })
        .describe('As MCP tools/list describes the tool'),
    ),
  })
  .meta({ id: 'ToolListResult' });

function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(new URL(request.url, 'http://postkit.invalid'), { method: request.method, headers });
}

/**
 * The auth hook counted this HTTP request once; a JSON-RPC batch counts once per message, so
 * batching cannot stretch the overall budget. A batch over the transport's limit is refused by
 * the transport, so it is charged no more than the limit.
 */
async function chargeBatch(request: FastifyRequest, reply: FastifyReply, keyDigest: string) {
  const extra = Array.isArray(request.body) ? Math.min(request.body.length, MAX_BATCH_SIZE) - 1 : 0;
  if (extra <= 0) return;
  const { deps, log } = request.ctx;
  const budget = keyBudgets(deps, keyDigest).requests;
  // One round trip for the whole batch: the same budget spent `extra` times, atomically.
  const hits = await hitBudgets(deps.memory.budgetLeases, Array(extra).fill(budget), log);
  enforceBudget(reply, budget, hits.at(-1) ?? null);
}

const methodNotAllowed = () =>
  new AppError(
    405,
    'method_not_allowed',
    'This MCP server is stateless: send JSON-RPC messages with POST /mcp; there is no event stream or session to open or close.',
    { headers: { allow: 'POST' } },
  );

export const mcpRoutes: FeatureRoutes = async (app, { deps }) => {
  /**
   * A 401 from /mcp names where to learn how to sign in (MCP authorization, RFC 9728 section
   * 5.1): an agent that has no token yet follows resource_metadata to the authorization server.
   */
  const challenge: onSendHookHandler = async (request, reply, payload) => {
    if (reply.statusCode !== 401) return payload;
    const metadata = resourceMetadataUrlOf(baseUrlOf(deps.config, request));
    const error = request.headers.authorization
      ? ', error="invalid_token", error_description="The bearer token is unknown, expired or revoked"'
      : '';
    reply.header('www-authenticate', `Bearer resource_metadata="${metadata}"${error}`);
    return payload;
  };

  app.post(
    '/mcp',
    {
      onSend: challenge,
      config: {
        // Each tool checks its own scope (ToolDef.scope), answering a tool error naming it.
        scope: 'any',
        mcpResource: true,
        // Tools check their own arguments' text, answering tool errors rather than an HTTP 400.
        checksOwnBodyText: true,
        rawResponses: {
          200: { description: 'JSON-RPC response(s)', types: ['application/json'] },
          202: { description: 'Accepted: the request held only notifications or responses', types: [] },
        },
      },
      schema: {
        tags,
        summary: 'MCP endpoint (Streamable HTTP)',
        description:
          'Model Context Protocol over the Streamable HTTP transport, stateless with JSON responses: send JSON-RPC messages (initialize, tools/list, tools/call) with `Accept: application/json, text/event-stream`. Same bearer key and budgets as the REST API; model-backed tools also spend the model budget and the monthly quota. See docs/mcp.md.',
        response: errorResponses(401, 429),
      },
    },
    async (request, reply) => {
      if (Array.isArray(request.body) && request.body.length === 0)
        return reply
          .status(400)
          .type('application/json')
          .send(emptyBatchBody() as never);
      const keyDigest = budgetDigestOf(request.ctx.caller, request.headers.authorization);
      await chargeBatch(request, reply, keyDigest);
      const response = await handleMcpPost(
        { ctx: request.ctx, keyDigest, reply },
        webRequestOf(request),
        request.body,
      );
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      const text = await response.text();
      // Already-serialized JSON-RPC (or nothing for a 202): sent as is, past the typed error schemas.
      return reply.send((text === '' ? undefined : text) as never);
    },
  );

  // A stateless server has no standalone event stream (GET) and no session to end (DELETE):
  // the transport spec answers both with 405. Nothing is read, so no key is needed. They are
  // the transport's answers, not REST operations, so the OpenAPI document leaves them out.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { public: true },
      schema: {
        tags,
        hide: true,
        summary: `${method} /mcp is not supported (405)`,
        security: [],
        response: { 405: ErrorBody.describe('Method not allowed: use POST') },
      },
      handler: async () => {
        throw methodNotAllowed();
      },
    });
  }

  app.get(
    '/mcp/tools/list',
    {
      config: { scope: 'any', mcpResource: true },
      onSend: challenge,
      schema: {
        tags,
        summary: 'List the agent tools',
        description:
          'Every agent tool (the contract’s 14 and the extensions) with its description and the JSON Schema of its arguments and result, exactly as MCP tools/list returns them.',
        response: { 200: ToolListResult, ...errorResponses(401, 429) },
      },
    },
    async () => ({ tools: toolDefinitions }),
  );
};
