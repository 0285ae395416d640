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

function idLike(ctx: SchemaContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(ctx.knownIds().length ? ctx.knownIds() : ['pst_missing'])),
    fc.constantFrom('brd_nope', 'voi_nope', 'chn_nope', 'med_nope', 'pst_nope', 'whk_nope'),
    safeString(1, 30),
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
      return safeString(s.minLength ?? 0, Math.min(s.maxLength ?? 60, 60));
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
