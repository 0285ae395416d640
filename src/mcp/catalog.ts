import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { roleNeeded } from '../domain/roles.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../http/idempotency.ts';
import { toolJsonSchema } from './json-schema.ts';
import type { ToolDef } from './tool.ts';
import { approvalTools } from './tools/approvals.tools.ts';
import { bulkTools } from './tools/bulk.tools.ts';
import { channelTools } from './tools/channels.tools.ts';
import { historyTools } from './tools/history.tools.ts';
import { intelligenceTools } from './tools/intelligence.tools.ts';
import { memoryTools } from './tools/memory.tools.ts';
import { planTools } from './tools/plans.tools.ts';
import { postGroupTools } from './tools/post-groups.tools.ts';
import { postTools } from './tools/posts.tools.ts';
import { queueTools } from './tools/queues.tools.ts';

/** A tool with its argument schema (REST request + `idempotencyKey` when it has one) and its listing. */
export interface CatalogEntry {
  tool: ToolDef;
  input: z.ZodObject;
  definition: Tool;
}

const IdempotencyKeyArg = z
  .string()
  .min(1)
  .max(MAX_IDEMPOTENCY_KEY_LENGTH)
  .optional()
  .describe(
    'Optional. Send the same key again with the same arguments (e.g. when retrying after a timeout) and the first result is returned instead of running twice: no second post, no second quota charge. Kept 24 hours; shared with the REST Idempotency-Key header.',
  );

function compile(tool: ToolDef): CatalogEntry {
  const input = tool.idempotentAs ? tool.input.extend({ idempotencyKey: IdempotencyKeyArg }) : tool.input;
  return {
    tool,
    input,
    definition: {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: toolJsonSchema(input, 'input'),
      outputSchema: toolJsonSchema(tool.output, 'output'),
      annotations: { title: tool.title, ...tool.annotations },
      // What a credential must hold to call it, and the least role of its member (docs/mcp.md, "Scopes").
      _meta: { 'postkit/scope': tool.scope, 'postkit/role': roleNeeded(tool.scope, tool.role) },
    },
  };
}

/** The 14 tools of the contract, then the extensions, in the order a client lists them. */
export const TOOLS: readonly ToolDef[] = [
  ...intelligenceTools,
  ...memoryTools,
  ...postTools,
  ...channelTools,
  ...historyTools,
  ...queueTools,

  ...bulkTools,
  ...postGroupTools,
  ...approvalTools,
  ...planTools,
];

/** Built once at startup: every process serves the same listing. */
export const catalog: ReadonlyMap<string, CatalogEntry> = new Map(
  TOOLS.map((tool) => [tool.name, compile(tool)]),
);

export const toolDefinitions: Tool[] = [...catalog.values()].map((entry) => entry.definition);
