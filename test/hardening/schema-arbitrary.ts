import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values that satisfy a
 * schema, and mutations that (usually) break it. Used to throw generated traffic at every
 * documented operation.
 */
type Schema = Record<string, any>;

export interface SchemaContext {
  components: Record<string, Schema>;
  /** Ids of resources seen in earlier responses, so generated references sometimes hit. */
  knownIds: () => string[];
}

export function deref(schema: Schema, ctx: SchemaContext): Schema {
  let current = schema;
  for (let i = 0; i < 10 && current?.$ref; i++) {
    const name = String(current.$ref).split('/').pop()!;
    current = ctx.components[name] ?? {};
  }
  return current ?? {};
}

const safeString = (min = 0, max = 40) => fc.string({ minLength: min, maxLength: Math.max(min, max) });

/**
 * Characters hostile callers send (issue 14): NUL and lone surrogates (which PostgreSQL cannot
 * store), bidi and zero-width controls, a byte-order mark, a non-character.
 */
export const HOSTILE_CHARACTERS = [
  '\u0000',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u200f',
  '\u200b',
  '\ufeff',
  '\uffff',
];

/**
 * A string for a field of at most `max` characters: usually ordinary, often holding a hostile
 * character somewhere, sometimes any UTF-16 at all, and sometimes one character too long.
 */
export function hostileString(min = 0, max = 60): fc.Arbitrary<string> {
  const around = fc.string({ maxLength: 8 });
  return fc.oneof(
    { weight: 3, arbitrary: safeString(min, Math.min(max, 60)) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(around, fc.constantFrom(...HOSTILE_CHARACTERS), around)
        .map(([a, bad, b]) => `${a}${bad}${b}`.padEnd(min, 'x')),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 60) }) },
    { weight: 1, arbitrary: fc.constant('y'.repeat(Math.min(max, 200_000) + 1)) },
  );
}

/**
 * A path segment for a string, percent-encoded. A lone surrogate cannot be UTF-8, so it goes out
 * as the bytes a careless encoder would produce (CESU-8, e.g. %ED%A0%80): invalid UTF-8 the
 * server must refuse cleanly.
 */
export function encodePathSegment(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(char);
  }
  return out;
}

function idLike(ctx: SchemaContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(ctx.knownIds().length ? ctx.knownIds() : ['pst_missing'])),
    fc.constantFrom('brd_nope', 'voi_nope', 'chn_nope', 'med_nope', 'pst_nope', 'whk_nope'),
    hostileString(1, 64),
  );
}

export function validValue(schema: Schema, ctx: SchemaContext, depth = 0, key = ''): fc.Arbitrary<unknown> {
  const s = deref(schema, ctx);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (Array.isArray(union)) return fc.oneof(...union.map((u: Schema) => validValue(u, ctx, depth + 1, key)));
  if (Array.isArray(s.type))
    return fc.oneof(...s.type.map((t: string) => validValue({ ...s, type: t }, ctx, depth + 1, key)));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1_000_000);
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1_000_000);
      if (/runAt|from|to|At$/.test(key))
        return fc.integer({ min: Date.now() - 86_400_000, max: Date.now() + 86_400_000 * 30 });
      return fc.integer({
        min: Math.max(min, Number.MIN_SAFE_INTEGER),
        max: Math.min(max, Number.MAX_SAFE_INTEGER),
      });
    }
    case 'number':
      return fc.double({
        min: s.minimum ?? -1e6,
        max: s.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string': {
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
      if (s.pattern)
        return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200));
      if (/(^id$|Id$)/.test(key)) return idLike(ctx);
      return hostileString(s.minLength ?? 0, s.maxLength ?? 60);
    }
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const items = s.items ? validValue(s.items, ctx, depth + 1, key.replace(/s$/, '')) : fc.jsonValue();
      return fc.array(items, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
    }
    case 'object':
    case undefined: {
      if (!s.properties)
        return depth > 3 ? fc.constant({}) : fc.dictionary(safeString(1, 8), fc.jsonValue(), { maxKeys: 3 });
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, prop] of Object.entries<Schema>(s.properties))
        props[name] = validValue(prop, ctx, depth + 1, name);
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((r: string) => r in props) });
    }
    default:
      return fc.jsonValue();
  }
}

/** A value built to break the schema in one way (type, missing field, unknown field, size). */
export function invalidValue(schema: Schema, ctx: SchemaContext): fc.Arbitrary<unknown> {
  const s = deref(schema, ctx);
  const wrongRoot = fc.oneof(
    fc.integer(),
    fc.string(),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.boolean(),
  );
  if (s.type !== 'object' || !s.properties) return wrongRoot;
  const valid = validValue(s, ctx) as fc.Arbitrary<Record<string, unknown>>;
  const names = Object.keys(s.properties);
  return fc.oneof(
    wrongRoot,
    // a property of the wrong type
    fc
      .tuple(
        valid,
        fc.constantFrom(...names),
        fc.oneof(fc.integer(), fc.string({ maxLength: 5000 }), fc.constant(null), fc.object()),
      )
      .map(([v, name, bad]) => ({ ...v, [name]: bad })),
    // a required property missing
    fc.tuple(valid, fc.constantFrom(...(s.required?.length ? s.required : names))).map(([v, name]) => {
      const copy = { ...v };
      delete copy[name as string];
      return copy;
    }),
    // an unknown property
    fc
      .tuple(valid, fc.string({ minLength: 1, maxLength: 12 }))
      .map(([v, extra]) => ({ ...v, [`x_${extra}`]: 1 })),
    // huge strings and numbers
    fc.tuple(valid, fc.constantFrom(...names)).map(([v, name]) => ({ ...v, [name]: 'x'.repeat(20_000) })),
    fc.tuple(valid, fc.constantFrom(...names)).map(([v, name]) => ({ ...v, [name]: 1e300 })),
  );
}
