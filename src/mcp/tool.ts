import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Ctx } from '../context.ts';
import type { Role } from '../domain/roles.ts';
import type { Scope } from '../domain/scopes.ts';

/**
 * The REST route whose Idempotency-Key space the tool shares. The tool then accepts an
 * optional `idempotencyKey` argument, and the same key with the same arguments replays the
 * first result whichever door (REST or tool) ran it first.
 */
export interface IdempotentAs {
  method: 'POST';
  url: string;
  status: number;
}

/**
 * One agent tool: a thin door onto the service verb its REST route calls. The input schema
 * is the REST request schema (plus the path id for `{id}` routes); the output schema is the
 * REST response schema, so a tool returns exactly the JSON the route would.
 *
 * The type makes a new tool state what an agent's client needs to handle it safely, or it
 * does not compile: a title, all four hints, the scope it needs, and, for a tool whose effect
 * reaches the public (openWorldHint: true), a description saying it posts publicly and an
 * idempotency key so a retry never posts twice.
 */
export type ToolDef<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> = ToolBase<
  In,
  Out
> &
  (PublishingTool | PrivateTool);

interface ToolBase<In extends z.ZodObject, Out extends z.ZodObject> {
  name: string;
  title: string;
  input: In;
  output: Out;
  /** The scope a caller (API key or OAuth grant) must hold; without it the call is a tool error naming it. */
  scope: Scope;
  /**
   * The least role the caller's member must hold when it is more than the scope's
   * (`roleNeeded` in src/domain/roles.ts, the rule the REST routes' `role` follows too).
   */
  role?: Role;
  /** Spends the tighter model-backed rate budget, as the REST route's `modelBudget` flag does. */
  modelBacked?: boolean;
  run(ctx: Ctx, input: z.output<In>): Promise<z.input<Out>>;
  /** One line for the model: what happened, with the ids it will need next. */
  summarize(result: z.output<Out>): string;
}

/** A tool whose effect goes out on a social platform, where everyone can see it. */
interface PublishingTool {
  /** Written for a model choosing tools; it must say that the tool posts publicly. */
  description: `${string}publicly${string}`;
  annotations: ToolHints & { openWorldHint: true };
  idempotentAs: IdempotentAs;
}

/** A tool whose effect stays inside Postkit. */
interface PrivateTool {
  /** Written for a model choosing tools: what it does, when to use it, what it costs. */
  description: string;
  annotations: ToolHints & { openWorldHint: false };
  idempotentAs?: IdempotentAs;
}

/** Keeps each tool's input and output types tied together while the catalog holds them all. */
export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(def: ToolDef<In, Out>): ToolDef {
  return def as unknown as ToolDef;
}

/** The four behaviour hints of the MCP spec, each stated (the spec's defaults are the cautious ones). */
export type ToolHints = ToolAnnotations &
  Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

/** Annotation presets: clients use them to decide what needs a human's confirmation. */
export const readOnly = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const satisfies ToolHints;
export const creates = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const satisfies ToolHints;
/** A change that stays inside Postkit. */
export const changes = (destructive: boolean, idempotent: boolean) =>
  ({
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: false,
  }) as const satisfies ToolHints;
/** A change that reaches outside Postkit: a post goes out on a social platform. */
export const publishes = (destructive: boolean, idempotent: boolean) =>
  ({
    readOnlyHint: false,
    destructiveHint: destructive,
    idempotentHint: idempotent,
    openWorldHint: true,
  }) as const satisfies ToolHints;

/** `12 Jan 2027 14:30 UTC` for summaries. */
export function formatWhen(epochMs: number | null): string {
  if (epochMs === null) return 'no time';
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
