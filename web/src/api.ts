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

/** The typed client (packages/client), same origin, with the stored key on every call. */
export const api = createPostkitClient({ baseUrl: '', apiKey: () => keyStore.get() });

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
    xhr.setRequestHeader('authorization', `Bearer ${keyStore.get() ?? ''}`);
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
    headers: { authorization: `Bearer ${keyStore.get() ?? ''}` },
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
