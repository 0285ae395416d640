import { Readable } from 'node:stream';
import { type MediaFile, PlatformError } from '../platform.ts';
import { type HttpCall, headerValue, sendExpecting, withRetries } from './http.ts';
import { platformAMediaRule } from './media-rules.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';
import { readRanges } from './ranges.ts';
import { waitForVideo } from './video-status.ts';

/** What a post carries, decided from its media before anything is uploaded. */
export type ContentPlan =
  | { kind: 'none' }
  | { kind: 'image'; file: MediaFile }
  | { kind: 'multiImage'; files: MediaFile[] }
  | { kind: 'video'; file: MediaFile }
  | { kind: 'document'; file: MediaFile };

/**
 * Turns the media into an upload plan; platformAMediaRule decides what the set amounts to,
 * so validate and the post rules refuse exactly what this would.
 */
export function planContent(media: MediaFile[]): ContentPlan {
  const verdict = platformAMediaRule.check(media.map((f) => f.contentType));
  if (!verdict.ok) throw new PlatformError('bad_request', verdict.reason);
  switch (verdict.kind) {
    case 'none':
      return { kind: 'none' };
    case 'single-image':
      return { kind: 'image', file: media[0]! };
    case 'multi-image':
      return { kind: 'multiImage', files: media };
    case 'video':
      return { kind: 'video', file: media[0]! };
    case 'document':
      return { kind: 'document', file: media[0]! };
  }
}

/** Uploads the plan's media and returns the post's `content`, or null for a text post. */
export async function uploadContent(
  opts: ResolvedOptions,
  accessToken: string,
  owner: string,
  plan: ContentPlan,
): Promise<Record<string, unknown> | null> {
  switch (plan.kind) {
    case 'none':
      return null;
    case 'image':
      return { media: { id: await uploadWhole(opts, accessToken, owner, plan.file, 'image') } };
    case 'multiImage': {
      const images: { id: string }[] = [];
      for (const file of plan.files)
        images.push({ id: await uploadWhole(opts, accessToken, owner, file, 'image') });
      return { multiImage: { images } };
    }
    case 'document': {
      const id = await uploadWhole(opts, accessToken, owner, plan.file, 'document');
      return { media: { id, title: titleOf(plan.file, 'Document') } };
    }
    case 'video': {
      const id = await uploadVideo(opts, accessToken, owner, plan.file);
      return { media: { id, title: titleOf(plan.file, 'Video') } };
    }
  }
}

function titleOf(file: MediaFile, fallback: string): string {
  const base = (file.filename ?? '').replace(/\.[^.]*$/, '').trim();
  return base === '' ? fallback : base.slice(0, 400);
}

function apiCall(
  opts: ResolvedOptions,
  accessToken: string,
  what: string,
  path: string,
  body: unknown,
): HttpCall {
  return {
    kind: 'upload',
    what,
    method: 'POST',
    url: `${opts.apiUrl}${path}`,
    headers: { ...restHeaders(opts, accessToken), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: opts.requestTimeoutMs,
    secrets: [accessToken],
  };
}

function answerValue(json: unknown, what: string): Record<string, unknown> {
  const value = (json as { value?: unknown } | null)?.value;
  if (!value || typeof value !== 'object') {
    throw new PlatformError('unavailable', `platformA answered the request to ${what} without a value.`);
  }
  return value as Record<string, unknown>;
}

/** Images and documents: initializeUpload, then one PUT of the whole file to its upload URL. */
async function uploadWhole(
  opts: ResolvedOptions,
  accessToken: string,
  owner: string,
  file: MediaFile,
  noun: 'image' | 'document',
): Promise<string> {
  const what = `start the ${noun} upload`;
  const init = await withRetries(opts.retry, () =>
    sendExpecting(
      apiCall(opts, accessToken, what, `/rest/${noun}s?action=initializeUpload`, {
        initializeUploadRequest: { owner },
      }),
      [200, 201],
    ),
  );
  const value = answerValue(init.json, what);
  const uploadUrl = value.uploadUrl;
  const urn = value[noun];
  if (typeof uploadUrl !== 'string' || typeof urn !== 'string') {
    throw new PlatformError(
      'unavailable',
      `platformA answered the request to ${what} without an upload URL.`,
    );
  }
  // Each attempt re-opens the file: a stream cannot be replayed, and nothing is buffered here.
  await withRetries(opts.retry, async () => {
    const data = await file.open();
    const body = Buffer.isBuffer(data) ? data : Readable.from(data);
    try {
      await sendExpecting(
        {
          kind: 'upload',
          what: `upload the ${noun}`,
          method: 'PUT',
          url: uploadUrl,
          headers: {
            authorization: `Bearer ${accessToken}`,
            'content-type': file.contentType,
            'content-length': String(Buffer.isBuffer(data) ? data.length : file.size),
          },
          body,
          timeoutMs: opts.uploadTimeoutMs,
          secrets: [accessToken],
        },
        [200, 201],
      );
    } finally {
      if (!Buffer.isBuffer(body)) body.destroy();
    }
  });
  return urn;
}

interface UploadInstruction {
  uploadUrl: string;
  firstByte: number;
  lastByte: number;
}

/** Videos: initializeUpload, PUT each byte range (one range in memory at a time), finalize, wait. */
async function uploadVideo(opts: ResolvedOptions, accessToken: string, owner: string, file: MediaFile) {
  const what = 'start the video upload';
  const init = await withRetries(opts.retry, () =>
    sendExpecting(
      apiCall(opts, accessToken, what, '/rest/videos?action=initializeUpload', {
        initializeUploadRequest: {
          owner,
          fileSizeBytes: file.size,
          uploadCaptions: false,
          uploadThumbnail: false,
        },
      }),
      [200, 201],
    ),
  );
  const value = answerValue(init.json, what);
  const video = value.video;
  const uploadToken = typeof value.uploadToken === 'string' ? value.uploadToken : '';
  const instructions = checkInstructions(value.uploadInstructions, file.size);
  if (typeof video !== 'string')
    throw new PlatformError('unavailable', `platformA answered the request to ${what} without a video id.`);

  const etags: string[] = [];
  const data = await file.open();
  const ranges = readRanges(data);
  try {
    for (const part of instructions) {
      const chunk = await ranges.read(part.lastByte - part.firstByte + 1);
      const call: HttpCall = {
        kind: 'upload',
        what: `upload video bytes ${part.firstByte}-${part.lastByte}`,
        method: 'PUT',
        url: part.uploadUrl,
        headers: { 'content-type': 'application/octet-stream' },
        body: chunk,
        timeoutMs: opts.uploadTimeoutMs,
        secrets: [accessToken],
      };
      const etag = await withRetries(opts.retry, async () => {
        const answer = await sendExpecting(call, [200, 201]);
        const tag = headerValue(answer.headers, 'etag');
        if (!tag)
          throw new PlatformError('unavailable', `platformA answered the ${call.what} without an ETag.`);
        return tag;
      });
      etags.push(etag);
    }
  } finally {
    ranges.close();
  }

  await withRetries(opts.retry, () =>
    sendExpecting(
      apiCall(opts, accessToken, 'finalize the video upload', '/rest/videos?action=finalizeUpload', {
        finalizeUploadRequest: { video, uploadToken, uploadedPartIds: etags },
      }),
      [200, 201, 204],
    ),
  );
  await waitForVideo(opts, accessToken, video);
  return video;
}

/** The ranges must tile the file from byte 0 to its last byte, in order. */
function checkInstructions(raw: unknown, size: number): UploadInstruction[] {
  const list = Array.isArray(raw) ? (raw as Partial<UploadInstruction>[]) : [];
  const parts = list
    .filter(
      (p): p is UploadInstruction =>
        typeof p?.uploadUrl === 'string' && Number.isInteger(p.firstByte) && Number.isInteger(p.lastByte),
    )
    .sort((a, b) => a.firstByte - b.firstByte);
  let next = 0;
  for (const part of parts) {
    if (part.firstByte !== next || part.lastByte < part.firstByte) break;
    next = part.lastByte + 1;
  }
  if (parts.length === 0 || parts.length !== list.length || next !== size) {
    throw new PlatformError(
      'unavailable',
      'platformA answered the video upload with byte ranges that do not cover the file.',
    );
  }
  return parts;
}
