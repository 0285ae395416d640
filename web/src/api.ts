import { type components, createPostkitClient } from '@postkit/client';
import { ApiError } from './lib/errors.ts';

export type Schemas = components['schemas'];
export type Post = Schemas['Post'];
export type Channel = Schemas['Channel'];
export type Media = Schemas['Media'];
/** Every platform id, as the API's enumeration (a platform added there reaches the console's types). */
export type PlatformId = Schemas['Platform'];
/** The platform a new post or plan starts on: the API's default (GET /v1/meta `maxPostLength` is its limit). */
export const DEFAULT_PLATFORM: PlatformId = 'platformA';
export type ScoreResult = Schemas['ScoreResult'];

const KEY_STORAGE = 'postkit.apiKey';
/** Set from sign-up until the person copies or downloads the new key: this browser holds the only copy. */
const UNSAVED_STORAGE = 'postkit.apiKeyUnsaved';

export const keyStore = {
  get: (): string | null => localStorage.getItem(KEY_STORAGE),
  set: (key: string) => localStorage.setItem(KEY_STORAGE, key),
  clear: () => {
    localStorage.removeItem(KEY_STORAGE);
    localStorage.removeItem(UNSAVED_STORAGE);
  },
  /** The account email of a key only this browser holds yet, or null once it is saved elsewhere. */
  unsaved: (): string | null => localStorage.getItem(UNSAVED_STORAGE),
  markUnsaved: (email: string) => localStorage.setItem(UNSAVED_STORAGE, email),
  markSaved: () => localStorage.removeItem(UNSAVED_STORAGE),
};

/**
 * A console session (email and password): the browser holds its cookie (httpOnly, sent by
 * itself on same-origin calls); the page keeps only the session's CSRF token, in memory, which
 * every call that changes something must send (docs/security.md, "Console sessions").
 */
const SESSION_STORAGE = 'postkit.session';

export const sessionStore = {
  csrf: null as string | null,
  /** Whether this browser started a session (the cookie itself is out of the page's reach). */
  started: (): boolean => localStorage.getItem(SESSION_STORAGE) === '1',
  start(csrf: string) {
    this.csrf = csrf;
    localStorage.setItem(SESSION_STORAGE, '1');
  },
  forget() {
    this.csrf = null;
    localStorage.removeItem(SESSION_STORAGE);
  },
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The headers that authenticate a hand-made call (uploads, CSV): the stored key, or in a session
 * the CSRF token for a method that changes something.
 */
export function authHeaders(method = 'GET'): Record<string, string> {
  const key = keyStore.get();
  if (key) return { authorization: `Bearer ${key}` };
  if (sessionStore.csrf && !SAFE_METHODS.has(method.toUpperCase()))
    return { 'x-csrf-token': sessionStore.csrf };
  return {};
}

/** The typed client (packages/client), same origin, with the stored key (or the session's CSRF token) on every call. */
export const api = createPostkitClient({ baseUrl: '', apiKey: () => keyStore.get() });
api.use({
  onRequest({ request }) {
    if (!request.headers.has('authorization'))
      for (const [name, value] of Object.entries(authHeaders(request.method)))
        request.headers.set(name, value);
    return request;
  },
});

/** openapi-fetch's answer: data on success, else an ApiError with the API's error body. */
export async function ok<T>(
  promise: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<NonNullable<T>> {
  const { data, error, response } = await promise;
  if (error !== undefined || !response.ok) {
    const retry = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, error ?? null, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return data as NonNullable<T>;
}

/** Raw-bytes upload with progress (fetch cannot report upload progress). */
export function uploadMedia(file: File, onProgress: (fraction: number) => void): Promise<Media> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/media');
    for (const [name, value] of Object.entries(authHeaders('POST'))) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name));
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {}
      if (xhr.status === 201) resolve((body as { media: Media }).media);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.send(file);
  });
}

/** A blob URL for a media item's bytes (the content route needs the bearer key). */
export async function mediaObjectUrl(id: string): Promise<string> {
  const res = await fetch(`/v1/media/${encodeURIComponent(id)}/content`, {
    headers: authHeaders('GET'),
  });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return URL.createObjectURL(await res.blob());
}

/** Marks the connect flow as begun here, so the OAuth callback sends the browser back to the console. */
export function rememberConsoleConnect(state: string) {
  // Read by src/http/console.ts's callback hook; only the flow with this exact state returns here.
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers still in use
  document.cookie = `kit_console_connect=${encodeURIComponent(state)}; Path=/v1/channels; Max-Age=600; SameSite=Lax`;
}
