import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export { countedLength, countingWords, overflowIndex, type TextCounting } from './text-length.js';
export type { components, paths };

/** Every named schema of the API, e.g. `Schemas['Post']`, `Schemas['ScoreResult']`. */
export type Schemas = components['schemas'];

/** The JSON body a call answers with on success, e.g. `Ok<'/v1/posts', 'get'>`. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { 'application/json': infer B } } }
    ? B
    : R extends { 201: { content: { 'application/json': infer B } } }
      ? B
      : never
  : never;

/** The error body every failing call answers with. */
export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    details?: { path?: string; message?: string }[];
    requestId?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface PostkitClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** e.g. http://127.0.0.1:8080 (no /v1: the paths carry it). Default: same origin. */
  baseUrl?: string;
  /** A kit_sk_… key, or a function read before each request (for keys that change). */
  apiKey?: string | (() => string | null | undefined);
}

export type PostkitClient = Client<paths>;

/**
 * A typed client for the Postkit REST API: every path, parameter and body is checked against
 * the OpenAPI document the API serves, so a contract change fails the caller's type-check.
 */
export function createPostkitClient(options: PostkitClientOptions = {}): PostkitClient {
  const { apiKey, baseUrl = '', ...rest } = options;
  const client = createFetchClient<paths>({ baseUrl, ...rest });
  if (apiKey !== undefined) {
    client.use({
      onRequest({ request }) {
        const key = typeof apiKey === 'function' ? apiKey() : apiKey;
        if (key && !request.headers.has('authorization'))
          request.headers.set('authorization', `Bearer ${key}`);
        return request;
      },
    });
  }
  return client;
}
