import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { API_VERSION } from '../api/version.ts';
import { callTool, type ToolSession } from './call-tool.ts';
import { catalog, toolDefinitions } from './catalog.ts';
import { rpcError, withReadableParamErrors } from './rpc-errors.ts';

const INSTRUCTIONS = [
  'Postkit scores, rewrites, generates and plans social posts, and drafts, schedules and publishes them exactly once.',
  'Typical flow: list_brands / list_voices / list_channels for ids, generate_post or rewrite_post (score_post to check), create_post as a draft, then schedule_post with a channelId.',
  'score_post, rewrite_post, generate_post, plan_week and build_voice are model-backed: each counts against the monthly model quota and a per-minute budget, so do not call them in loops.',
  'Failures come back as tool errors starting with an error code (e.g. not_found, invalid_request, post_terminal, quota_exceeded, rate_limited) followed by how to fix the call.',
].join(' ');

/** Built once: only elicitation would use it, and each server would otherwise compile its own. */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

/**
 * One MCP server for one HTTP request. The low-level `Server` (rather than `McpServer`) is used
 * because the tools validate their own arguments: a bad argument must come back as a tool
 * error carrying `invalid_request` and per-field details, like the REST 400, and the listing
 * must be the same inlined JSON Schema that GET /mcp/tools/list serves.
 */
function createServer(session: ToolSession): Server {
  const server = new Server(
    { name: 'postkit', title: 'Postkit', version: API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const entry = catalog.get(request.params.name);
    if (!entry) {
      throw rpcError(
        ErrorCode.InvalidParams,
        `Unknown tool ${request.params.name}; call tools/list for the ${catalog.size} tools.`,
      );
    }
    return callTool(session, entry, request.params.arguments);
  });
  return withReadableParamErrors(server);
}

/**
 * Answers one POST of the Streamable HTTP transport, statelessly: no session id, a fresh server
 * and transport per request, JSON responses instead of SSE streams. Any API process can answer
 * any request, so the endpoint scales like the REST routes behind a load balancer.
 */
export async function handleMcpPost(
  session: ToolSession,
  request: Request,
  body: unknown,
): Promise<Response> {
  const server = createServer(session);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    await transport.close();
    await server.close();
  }
}
