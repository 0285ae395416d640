/*
 * An error as a log line may show it: what failed and where, never the values it failed with.
 * A failed query's error carries the statement's parameters (Drizzle's DrizzleQueryError puts
 * them in `params` and at the end of its message and stack; the PostgreSQL drivers in
 * `parameters`, `args`, and the row's values in `detail`), and those are a key's digest, a token's,
 * an email, a post's text. The SQL itself (placeholders only) stays: it says which statement failed.
 */

/** Fields of database errors that hold the values a statement ran with or a row's contents. */
const VALUE_FIELDS = new Set([
  'params',
  'parameters',
  'args',
  'detail',
  'where',
  'internalQuery',
  'internal_query',
]);
const MAX_CAUSES = 8;
const VALUE = '[value]';

/** A message without the parameter values Drizzle appends, nor a value PostgreSQL quotes last. */
export function withoutValues(message: string): string {
  return message
    .replace(/\nparams: [\s\S]*$/, '')
    .replace(/^((?:invalid input syntax|invalid input value)[^:]*): [\s\S]*$/, `$1: ${VALUE}`);
}

function stackOf(err: Error, message: string): string {
  const stack = typeof err.stack === 'string' ? err.stack : `${err.name}: ${message}`;
  const at = err.message ? stack.indexOf(err.message) : -1;
  const cleaned = at < 0 ? stack : stack.slice(0, at) + message + stack.slice(at + err.message.length);
  // Whatever else the first lines held (a message rewritten after capture), frames only follow.
  return cleaned.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '');
}

/**
 * pino's error shape (type, message and stack joined along `cause`, the error's own fields),
 * with the value-bearing fields left out and the messages and stacks cut before their values.
 * `field` cleans every other field (the logger's scrub of secret-named keys).
 */
export function safeError(value: unknown, field: (v: unknown) => unknown = (v) => v): unknown {
  if (!(value instanceof Error)) return value;
  const chain: Error[] = [value];
  for (let c = value.cause; c instanceof Error && chain.length < MAX_CAUSES; c = c.cause) chain.push(c);
  const messages = chain.map((e) => withoutValues(e.message));
  const out: Record<string, unknown> = {
    type: value.constructor?.name || value.name,
    message: messages.filter(Boolean).join(': '),
    stack: chain.map((e, i) => stackOf(e, messages[i]!)).join('\ncaused by: '),
  };
  for (const key in value) {
    if (key in out || key === 'cause' || VALUE_FIELDS.has(key)) continue;
    const v = (value as unknown as Record<string, unknown>)[key];
    out[key] = v instanceof Error ? safeError(v, field) : field(v);
  }
  if (value instanceof AggregateError) out.errors = value.errors.map((e) => safeError(e, field));
  return out;
}
