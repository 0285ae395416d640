import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Ctx } from '../context.ts';

/**
 * One agent tool: a thin door onto the service verb its REST route calls. The input schema
 * is the REST request schema (plus the path id for `{id}` routes); the output schema is the
 * REST response schema, so a tool returns exactly the JSON the route would.
 */
export interface ToolDef<In extends z.ZodObject = z.ZodObject, Out extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model choosing tools: what it does, when to use it, what it costs. */
  description: string;
  input: In;
  output: Out;
  /** All four MCP hints, always stated, so a client can ask before a tool publishes or deletes. */
  annotations: ToolHints;
  /** Spends the tighter model-backed rate budget, as the REST route's `modelBudget` flag does. */
  modelBacked?: boolean;
  /**
   * The REST route whose Idempotency-Key space the tool shares. The tool then accepts an
   * optional `idempotencyKey` argument, and the same key with the same arguments replays the
   * first result whichever door (REST or tool) ran it first.
   */
  idempotentAs?: { method: 'POST'; url: string; status: number };
  run(ctx: Ctx, input: z.output<In>): Promise<z.input<Out>>;
  /** One line for the model: what happened, with the ids it will need next. */
  summarize(result: z.output<Out>): string;
}

/** Keeps each tool's input and output types tied together while the catalog holds them all. */
export function defineTool<In extends z.ZodObject, Out extends z.ZodObject>(def: ToolDef<In, Out>): ToolDef {
  return def as unknown as ToolDef;
}

/** The four behaviour hints of the MCP spec, each stated (the spec's defaults are the cautious ones). */
export type ToolHints = ToolAnnotations &
  Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

/** Annotation presets: clients use them to decide what needs a human's confirmation. */
export const readOnly: ToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const creates: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
/** `openWorld`: the change reaches outside Postkit (e.g. a post goes out on a social platform). */
export const changes = (destructive: boolean, idempotent: boolean, openWorld = false): ToolHints => ({
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});

/** `12 Jan 2027 14:30 UTC` for summaries. */
export function formatWhen(epochMs: number | null): string {
  if (epochMs === null) return 'no time';
  return `${new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
