/*
 * What the OpenAPI document needs beyond the routes' own schemas, so that it passes a standard
 * linter (Redocly's recommended rules; test/foundation/openapi-lint.test.ts) and generated clients
 * in any language name their methods well: an operationId for every operation, derived once from
 * the method and path (a route may name its own in `schema.operationId`), the servers, the
 * license, and no component nothing refers to.
 */

/** Words that name one thing or a mass, not a collection, though some end in "s". */
const SINGULAR = new Set([
  'account',
  'analytics',
  'calendar',
  'calibration',
  'health',
  'healthz',
  'insights',
  'meta',
  'metrics',
  'settings',
  'stats',
  'status',
]);
/** Collections whose plural is the word itself. */
const SAME_PLURAL = new Set(['history', 'media', 'series']);

const camel = (word: string) => word.replace(/[-_]+([a-zA-Z0-9])/g, (_m, c: string) => c.toUpperCase());
const pascal = (word: string) => {
  const c = camel(word);
  return c.charAt(0).toUpperCase() + c.slice(1);
};
const isCollection = (word: string) => SAME_PLURAL.has(word) || (!SINGULAR.has(word) && /[^s]s$/.test(word));

function singular(word: string): string {
  if (SINGULAR.has(word) || SAME_PLURAL.has(word)) return word;
  if (/ies$/.test(word)) return word.replace(/ies$/, 'y');
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

/**
 * The operations whose derived name would say less than the verb they run (the MCP tool of the
 * same verb, where there is one, gives the name) or would take another's.
 */
const NAMED: Record<string, string> = {
  'POST /v1/score': 'scorePost',
  'POST /v1/posts/{id}/score': 'scoreSavedPost',
  'POST /v1/rewrite': 'rewritePost',
  'POST /v1/generate': 'generatePost',
  'POST /v1/plan': 'planWeek',
  'POST /v1/history': 'importHistory',
  'GET /v1/posts/export': 'exportPosts',
  'GET /healthz': 'getLiveness',
  'POST /mcp': 'sendMcpMessages',
  'GET /mcp/tools/list': 'listMcpTools',
};

/**
 * `<verb><Noun>` in camelCase from the method and the path: GET /v1/posts is listPosts, POST
 * /v1/posts createPost, GET /v1/posts/{id} getPost, PATCH updatePost, DELETE deletePost, POST
 * /v1/posts/{id}/schedule schedulePost (a word after an id that is not a collection is an action),
 * DELETE /v1/history (a whole collection) clearHistory. A collection word before an id is singular
 * (`/v1/members/{id}/keys` is a member's keys: createMemberKey).
 */
export function operationIdOf(method: string, url: string): string {
  const named = NAMED[`${method.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`];
  if (named) return named;
  const segments = url.split('/').filter(Boolean);
  if (segments[0] === 'v1') segments.shift();
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith('{') || segment.startsWith(':')) return;
    const next = segments[i + 1];
    words.push(next && (next.startsWith('{') || next.startsWith(':')) ? singular(segment) : segment);
  });
  const last = segments.at(-1) ?? '';
  const verb = method.toLowerCase();
  const noun = (list: string[]) => list.map(pascal).join('');
  if (last.startsWith('{') || last.startsWith(':')) {
    const verbs: Record<string, string> = {
      get: 'get',
      patch: 'update',
      put: 'replace',
      delete: 'delete',
      post: 'create',
    };
    return (verbs[verb] ?? verb) + noun(words);
  }
  const head = words.slice(0, -1);
  const lastWord = words.at(-1) ?? '';
  if (!isCollection(last) && !SINGULAR.has(last) && verb === 'post' && head.length > 0)
    return camel(lastWord) + noun(head);
  switch (verb) {
    case 'get':
      return (isCollection(last) ? 'list' : 'get') + noun(words);
    case 'post':
      return `create${noun([...head, isCollection(last) ? singular(lastWord) : lastWord])}`;
    case 'put':
      return `replace${noun(words)}`;
    case 'patch':
      return `update${noun(words)}`;
    case 'delete':
      return (isCollection(last) ? 'clear' : 'delete') + noun(words);
    default:
      return verb + noun(words);
  }
}

interface Doc {
  [key: string]: unknown;
  components?: { schemas?: Record<string, unknown>; [key: string]: unknown };
}

/** Every `#/components/<kind>/<name>` the value refers to. */
function refsOf(value: unknown, into: Set<string>) {
  if (Array.isArray(value)) for (const v of value) refsOf(v, into);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) into.add(v);
      else refsOf(v, into);
    }
}

/** Drops the schemas no operation reaches, directly or through other schemas. */
function withoutUnusedSchemas(doc: Doc): Doc {
  const schemas = doc.components?.schemas;
  if (!schemas) return doc;
  const reached = new Set<string>();
  const pending: unknown[] = [doc.paths, doc.webhooks];
  while (pending.length) {
    const found = new Set<string>();
    refsOf(pending.pop(), found);
    for (const ref of found) {
      if (reached.has(ref)) continue;
      reached.add(ref);
      const name = ref.split('/').at(-1)!;
      if (ref.startsWith('#/components/schemas/') && schemas[name] !== undefined) pending.push(schemas[name]);
    }
  }
  const kept = Object.fromEntries(
    Object.entries(schemas).filter(([name]) => reached.has(`#/components/schemas/${name}`)),
  );
  return { ...doc, components: { ...doc.components, schemas: kept } };
}

/** The finished document: servers (this deployment's public address, else this origin) and no dead components. */
export function finishDocument(doc: Doc, publicBaseUrl: string | undefined): Doc {
  const finished = withoutUnusedSchemas(doc);
  finished.servers = [
    publicBaseUrl
      ? { url: publicBaseUrl.replace(/\/+$/, ''), description: 'This deployment' }
      : { url: '/', description: 'The server this document was read from' },
  ];
  return finished;
}
