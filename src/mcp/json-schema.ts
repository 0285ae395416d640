import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonSchemaObject = { type: 'object'; [key: string]: unknown };

/**
 * A tool schema as JSON Schema (2020-12, MCP's default dialect), fully inlined. zod moves
 * every named component (`.meta({id})`, e.g. PostStatus) into `$defs` behind a `$ref`; MCP
 * wants `type: "object"` at the root and many agent clients do not follow references, so the
 * references are replaced by their definitions. The schemas are small and acyclic.
 */
export function toolJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): JsonSchemaObject {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as {
    [key: string]: Json;
  };
  const defs = (generated.$defs ?? {}) as Record<string, Json>;
  const inlined = inline(generated, defs, []);
  if (!isObject(inlined) || inlined.type !== 'object') {
    throw new Error('A tool schema must describe a JSON object');
  }
  return inlined as JsonSchemaObject;
}

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function inline(node: Json, defs: Record<string, Json>, resolving: string[]): Json {
  if (Array.isArray(node)) return node.map((item) => inline(item, defs, resolving));
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  const ref = node.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace(/^#\/\$defs\//, '');
    const def = defs[name];
    if (def === undefined || resolving.includes(name)) {
      throw new Error(`Tool schemas cannot inline ${ref}`);
    }
    Object.assign(out, inline(def, defs, [...resolving, name]));
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' || key === '$defs' || key === '$schema') continue;
    // zod bounds every integer by the safe-integer range: noise in a model's context.
    if ((key === 'minimum' || key === 'maximum') && Math.abs(Number(value)) === Number.MAX_SAFE_INTEGER)
      continue;
    out[key] = inline(value, defs, resolving);
  }
  return out;
}
