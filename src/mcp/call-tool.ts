import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply } from 'fastify';
import { enforceBudget, hitBudget } from '../api/rate-limit.ts';
import { principalOf, requireRole, requireScope } from '../caller.ts';
import type { Ctx } from '../context.ts';
import { roleNeeded } from '../domain/roles.ts';
import {
  beginIdempotent,
  completeIdempotent,
  fingerprintOf,
  type IdempotencyClaim,
} from '../http/idempotency.ts';
import { keyBudgets } from '../http/key-budgets.ts';
import { findUnstorableText, unstorableTextError } from '../http/text-safety.ts';
import type { CatalogEntry } from './catalog.ts';
import { asAppError, invalidArguments, toolError, toolSuccess } from './tool-result.ts';

/** Who is calling tools in this HTTP request, and where the rate headers go. */
export interface ToolSession {
  ctx: Ctx;
  /** The calling key's digest: the rate budgets are keyed by it. */
  keyDigest: string;
  /** The HTTP reply: a model-backed call sets x-ratelimit-llm-* on it, as its REST route would. */
  reply: FastifyReply;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Runs one tool the way its REST route runs: model budget, then validation, then the
 * Idempotency-Key claim, then the verb; the result goes through the route's response schema.
 * Every failure becomes a tool error carrying the API error code.
 */
export async function callTool(
  session: ToolSession,
  entry: CatalogEntry,
  args: unknown,
): Promise<CallToolResult> {
  const { ctx } = session;
  const { tool } = entry;
  let claim: IdempotencyClaim | undefined;
  try {
    // First: a member without the role, or a connection without the scope, learns which one
    // it lacks, and spends nothing.
    requireRole(ctx.caller, roleNeeded(tool.scope, tool.role), tool.name);
    requireScope(ctx.caller, tool.scope, tool.name);
    if (tool.modelBacked) {
      const budget = keyBudgets(ctx.deps, session.keyDigest).model;
      enforceBudget(session.reply, budget, await hitBudget(ctx.deps.memory.budgetLeases, budget, ctx.log));
    }
    // The same refusal the REST routes get from their hook (src/http/text-safety.ts).
    const unstorable = findUnstorableText(args);
    if (unstorable.length) throw unstorableTextError('arguments', unstorable);
    const parsed = entry.input.safeParse(args ?? {});
    if (!parsed.success) throw invalidArguments(parsed.error);
    const { idempotencyKey, ...input } = parsed.data as { idempotencyKey?: string };
    if (tool.idempotentAs && idempotencyKey !== undefined) {
      const { method, url } = tool.idempotentAs;
      const started = await beginIdempotent(
        ctx.deps.kv,
        principalOf(ctx.caller),
        idempotencyKey,
        fingerprintOf(method, url, input),
      );
      if (started.kind === 'replay') {
        const output = tool.output.parse(JSON.parse(started.body));
        ctx.deps.metrics.toolCall(tool.name, 'ok');
        return toolSuccess(tool.summarize(output), output, true);
      }
      claim = started.claim;
    }
    const output = tool.output.parse(await tool.run(ctx, input));
    if (claim) {
      const done = claim;
      claim = undefined;
      await completeIdempotent(
        ctx.deps.kv,
        done,
        tool.idempotentAs!.status,
        JSON_TYPE,
        JSON.stringify(output),
      ).catch((err) => ctx.log.warn({ err }, 'could not store idempotent tool result'));
    }
    ctx.log.info({ tool: tool.name }, 'tool call succeeded');
    ctx.deps.metrics.toolCall(tool.name, 'ok');
    return toolSuccess(tool.summarize(output), output);
  } catch (err) {
    // A failed run releases the key so it can be reused, as a non-2xx REST response does.
    if (claim) {
      await completeIdempotent(ctx.deps.kv, claim, 500, JSON_TYPE, '').catch((releaseErr) =>
        ctx.log.warn({ err: releaseErr }, 'could not release idempotency key'),
      );
    }
    const appError = asAppError(err, ctx.log);
    ctx.log.info({ tool: tool.name, code: appError.code }, 'tool call failed');
    ctx.deps.metrics.toolCall(tool.name, appError.code);
    return toolError(appError, ctx.requestId);
  }
}
