/**
 * Reading /v1/openapi.json as an attacker's inventory: every operation, every request field and
 * its bounds, and the routes the server really registered. The security tests are generic over
 * these, so a route or field added later is covered (or fails for want of a fixture).
 */

export type Doc = any;
export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  /** The documented path, e.g. `/v1/posts/{id}`. */
  path: string;
  /** `METHOD /path`, e.g. `PATCH /v1/posts/{id}`: the key fixture tables use. */
  key: string;
  op: any;
}

export function operations(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      out.push({ method: method.toUpperCase(), path, key: `${method.toUpperCase()} ${path}`, op });
    }
  }
  return out;
}

/** Public per the document: an explicit empty security requirement. */
export const isPublic = (o: Operation) => Array.isArray(o.op.security) && o.op.security.length === 0;

export function resolve(doc: Doc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) {
    s = doc.components.schemas[s.$ref.split('/').pop()!];
  }
  return s;
}

/** The non-null branch of `anyOf [X, null]`, else the schema itself. */
function nonNull(doc: Doc, schema: Schema | undefined): Schema {
  const s = resolve(doc, schema);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (!branches) return s;
  const real = branches.map((b) => resolve(doc, b)).filter((b) => b.type !== 'null');
  return real.length === 1 ? nonNull(doc, real[0]) : s;
}

export function jsonBodySchema(doc: Doc, o: Operation): Schema | undefined {
  const schema = o.op.requestBody?.content?.['application/json']?.schema;
  return schema ? nonNull(doc, schema) : undefined;
}

export interface Field {
  /** `text`, `items[].runAt`, `mediaIds[]` (an element), `mediaIds` (the array). */
  path: string;
  schema: Schema;
  kind: 'string' | 'array' | 'number' | 'integer' | 'boolean' | 'object' | 'other';
}

const kindOf = (s: Schema): Field['kind'] => {
  const t = Array.isArray(s.type) ? s.type.find((x: string) => x !== 'null') : s.type;
  if (s.enum || s.const !== undefined) return 'other';
  if (
    t === 'string' ||
    t === 'array' ||
    t === 'number' ||
    t === 'integer' ||
    t === 'boolean' ||
    t === 'object'
  )
    return t;
  return s.properties ? 'object' : 'other';
};

/** Every field of a body schema, depth first; objects are listed too (for additionalProperties). */
export function fieldsOf(doc: Doc, schema: Schema, prefix = ''): Field[] {
  const s = nonNull(doc, schema);
  const out: Field[] = [{ path: prefix, schema: s, kind: kindOf(s) }];
  if (s.properties) {
    for (const [name, sub] of Object.entries<Schema>(s.properties)) {
      out.push(...fieldsOf(doc, sub, prefix ? `${prefix}.${name}` : name));
    }
  }
  if (kindOf(s) === 'array' && s.items) out.push(...fieldsOf(doc, s.items, `${prefix}[]`));
  return out;
}

/** A value the schema accepts, built from the schema alone (formats, enums, minimums honoured). */
export function sampleOf(doc: Doc, schema: Schema): unknown {
  const s = nonNull(doc, schema);
  if (s.enum) return s.enum[0];
  if (s.const !== undefined) return s.const;
  switch (kindOf(s)) {
    case 'string':
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'uri') return 'https://example.com/';
      return 'a'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleOf(doc, s.items ?? {}));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sampleOf(doc, s.properties[name]);
      return out;
    }
    default:
      return 'a';
  }
}

/** A string one character over the field's maxLength that still satisfies its format. */
export function overLong(s: Schema): string {
  const n = (s.maxLength as number) + 1;
  if (s.format === 'email') return `${'a'.repeat(n - '@example.com'.length)}@example.com`;
  return 'a'.repeat(n);
}

/**
 * Sets `value` at a field path in a body, creating one element for `[]` segments:
 * `items[].text` sets items[0].text; `mediaIds[]` sets mediaIds to [value].
 */
export function setAt(body: Record<string, any>, path: string, value: unknown, seed: (p: string) => unknown) {
  const parts = path.split('.');
  let target: any = body;
  let walked = '';
  for (const [i, raw] of parts.entries()) {
    const isElement = raw.endsWith('[]');
    const name = isElement ? raw.slice(0, -2) : raw;
    walked = walked ? `${walked}.${raw}` : raw;
    const last = i === parts.length - 1;
    if (!isElement) {
      if (last) target[name] = value;
      else target = target[name] ??= {};
      continue;
    }
    if (last) {
      target[name] = [value];
    } else {
      if (!Array.isArray(target[name])) target[name] = [];
      const list = target[name] as unknown[];
      if (list.length === 0) list.push(seed(walked));
      target = list[0];
    }
  }
}

/** The path the error handler reports for a field path: `items[].text` -> `items[0].text`. */
export const reportedPath = (path: string) => path.replaceAll('[]', '[0]');

/** The operation a concrete request path belongs to (literal segments win over `{id}`). */
export function templateOf(doc: Doc, method: string, concretePath: string): string | null {
  const path = concretePath.split('?')[0]!;
  const candidates = Object.keys(doc.paths ?? {})
    .filter((p) => doc.paths[p][method.toLowerCase()])
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  for (const template of candidates) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path)) return template;
  }
  return null;
}

/**
 * The routes Fastify really serves, as `METHOD /path` with `{param}` segments, parsed from
 * printRoutes' tree (each level indents by four characters).
 */
export function registeredRoutes(tree: string): Set<string> {
  const out = new Set<string>();
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      out.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}
