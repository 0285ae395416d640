import { randomBytes } from 'node:crypto';
import { type MediaFile, PlatformError } from '../platform.ts';
import { readRanges } from '../platformA/ranges.ts';
import type { HttpCall } from '../transport.ts';
import { dataOf, getCall, sendExpecting, withRetries } from './http.ts';
import { categoryOf, type MediaCategory, platformBMediaRule } from './media-rules.ts';
import { bearer, type ResolvedOptions } from './options.ts';

const MB = 1024 * 1024;
const LIMITS: Record<MediaCategory, { bytes: number; noun: string }> = {
  tweet_image: { bytes: 5 * MB, noun: 'image' },
  tweet_gif: { bytes: 15 * MB, noun: 'GIF' },
  tweet_video: { bytes: 512 * MB, noun: 'video' },
};

/** Checks the set and each file's size before any upload. */
export function planMedia(media: MediaFile[]): { file: MediaFile; category: MediaCategory }[] {
  const verdict = platformBMediaRule.check(media.map((m) => m.contentType));
  if (!verdict.ok) throw new PlatformError('bad_request', verdict.reason);
  return media.map((file) => {
    const category = categoryOf(file.contentType)!;
    const limit = LIMITS[category];
    if (file.size > limit.bytes) {
      throw new PlatformError(
        'bad_request',
        `A platformB ${limit.noun} is at most ${limit.bytes / MB} MB (this one is ${(file.size / MB).toFixed(1)} MB).`,
      );
    }
    return { file, category };
  });
}

function jsonCall(
  opts: ResolvedOptions,
  accessToken: string,
  what: string,
  path: string,
  body?: unknown,
): HttpCall {
  return {
    kind: 'upload',
    what,
    method: 'POST',
    url: `${opts.apiUrl}${path}`,
    headers: {
      ...bearer(accessToken),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: opts.requestTimeoutMs,
    secrets: [accessToken],
  };
}

/** initialize, append each chunk (one chunk in memory at a time), finalize, wait for processing. */
export async function uploadMedia(
  opts: ResolvedOptions,
  accessToken: string,
  item: { file: MediaFile; category: MediaCategory },
): Promise<string> {
  const { file, category } = item;
  const init = await withRetries(opts, () =>
    sendExpecting(
      jsonCall(opts, accessToken, 'start the media upload', '/2/media/upload/initialize', {
        media_type: file.contentType,
        total_bytes: file.size,
        media_category: category,
      }),
      [200, 201],
    ),
  );
  const id = dataOf(init, 'start the media upload').id;
  if (typeof id !== 'string' || id === '') {
    throw new PlatformError('unavailable', 'platformB answered the media upload start without a media id.');
  }
  const path = `/2/media/upload/${encodeURIComponent(id)}`;
  const ranges = readRanges(await file.open());
  try {
    for (let index = 0, sent = 0; sent < file.size; index++) {
      const chunk = await ranges.read(Math.min(opts.chunkBytes, file.size - sent));
      sent += chunk.length;
      const form = multipart(
        { segment_index: String(index) },
        { name: 'media', filename: file.filename ?? 'media', data: chunk },
      );
      await withRetries(opts, () =>
        sendExpecting(
          {
            ...jsonCall(opts, accessToken, `upload media segment ${index}`, `${path}/append`),
            headers: { ...bearer(accessToken), 'content-type': form.contentType },
            body: form.body,
            timeoutMs: opts.uploadTimeoutMs,
          },
          [200, 201, 204],
        ),
      );
    }
  } finally {
    ranges.close();
  }
  const finalized = await withRetries(opts, () =>
    sendExpecting(jsonCall(opts, accessToken, 'finalize the media upload', `${path}/finalize`), [200, 201]),
  );
  await waitForProcessing(opts, accessToken, id, processingOf(finalized.json));
  return id;
}

interface Processing {
  state?: unknown;
  check_after_secs?: unknown;
  error?: { message?: unknown };
}

function processingOf(json: unknown): Processing | null {
  const body = (json ?? {}) as { data?: { processing_info?: Processing }; processing_info?: Processing };
  return body.data?.processing_info ?? body.processing_info ?? null;
}

/** Polls STATUS while processing is pending or in progress, as long as `check_after_secs` says. */
async function waitForProcessing(
  opts: ResolvedOptions,
  accessToken: string,
  id: string,
  first: Processing | null,
): Promise<void> {
  const deadline = opts.now() + opts.mediaTimeoutMs;
  let info = first;
  for (;;) {
    if (!info || info.state === 'succeeded') return;
    if (info.state === 'failed') {
      const message = typeof info.error?.message === 'string' ? ` (${info.error.message.slice(0, 200)})` : '';
      throw new PlatformError('bad_request', `platformB could not process the media${message}.`);
    }
    if (opts.now() >= deadline) {
      throw new PlatformError(
        'unavailable',
        `platformB was still processing the media after ${Math.round(opts.mediaTimeoutMs / 1000)} s.`,
      );
    }
    const after =
      typeof info.check_after_secs === 'number' && info.check_after_secs > 0 ? info.check_after_secs : 1;
    await opts.sleep(Math.min(after, 60) * 1000 * opts.backoffScale);
    const what = 'read the media processing status';
    const answer = await withRetries(opts, () =>
      sendExpecting(
        getCall(opts, accessToken, what, `/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`),
        [200],
      ),
    );
    info = processingOf(answer.json) ?? { state: 'succeeded' };
  }
}

/**
 * A multipart/form-data body built by hand: one chunk (at most 5 MB) is in memory anyway, and
 * a Buffer has a known length (undici's FormData body stalled on large binary parts).
 */
export function multipart(
  fields: Record<string, string>,
  file: { name: string; filename: string; data: Buffer },
): { contentType: string; body: Buffer } {
  const boundary = `postkit-${randomBytes(12).toString('hex')}`;
  const quote = (v: string) => v.replace(/["\\\r\n]/g, '_');
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quote(k)}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.name)}"; filename="${quote(file.filename)}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head + fileHead), file.data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}
