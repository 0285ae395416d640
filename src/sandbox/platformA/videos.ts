import { createHash } from 'node:crypto';
import { readJson, restError, sendEmpty, sendJson } from '../http.ts';
import { action, digestBody, initRequest, looksLike, newAsset } from './assets.ts';
import { authenticate, memberUrn, requireRestHeaders, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { randomId } from './state.ts';

/**
 * Videos: initializeUpload splits the file into byte ranges, each PUT to its own URL answers an
 * ETag, finalizeUpload takes every ETag in order, then the video is PROCESSING until AVAILABLE
 * (status reads are served by assets.ts).
 */

const MAX_VIDEO_BYTES = 500 * 1024 * 1024;

async function initVideo(ex: Exchange) {
  const { owner, request } = await initRequest(ex);
  const size = request.fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
    throw restError(400, 'initializeUploadRequest.fileSizeBytes must be a positive integer');
  }
  if (size > MAX_VIDEO_BYTES) throw restError(400, `Videos are limited to ${MAX_VIDEO_BYTES} bytes`);
  const asset = newAsset(ex, 'video', owner);
  asset.uploadKey = null;
  asset.fileSizeBytes = size;
  asset.uploadToken = randomId(12);
  const partSize = ex.ctx.settings.videoPartSize;
  for (let first = 0; first < size; first += partSize) {
    asset.parts.push({
      firstByte: first,
      lastByte: Math.min(size, first + partSize) - 1,
      uploadKey: randomId(18),
      etag: null,
      sha256: null,
    });
  }
  ex.ctx.state.assets.set(asset.id, asset);
  for (const [part, p] of asset.parts.entries())
    ex.ctx.state.uploadKeys.set(p.uploadKey, { assetId: asset.id, part });
  sendJson(ex.res, 200, {
    value: {
      uploadUrlsExpireAt: asset.uploadUrlExpiresAt,
      video: asset.id,
      uploadToken: asset.uploadToken,
      uploadInstructions: asset.parts.map((p) => ({
        uploadUrl: `${ex.ctx.baseUrl}/_uploads/videos/${p.uploadKey}`,
        firstByte: p.firstByte,
        lastByte: p.lastByte,
      })),
    },
  });
}

/** One byte range; the URL itself is the credential (no bearer), as on the live platform. */
async function uploadVideoPart(ex: Exchange) {
  const key = ex.ctx.state.uploadKeys.get(ex.params[0]!);
  const asset = key ? ex.ctx.state.assets.get(key.assetId) : undefined;
  const partIndex = key?.part ?? -1;
  if (asset?.kind !== 'video' || partIndex < 0) throw restError(404, 'Unknown upload URL');
  if (asset.status !== 'WAITING_UPLOAD') throw restError(400, 'The video upload was already finalized');
  const part = asset.parts[partIndex]!;
  const { size, sha256, head } = await digestBody(ex);
  const expected = part.lastByte - part.firstByte + 1;
  if (size !== expected) throw restError(400, `This part must be exactly ${expected} bytes (got ${size})`);
  part.sha256 = sha256;
  part.etag = `/ambry-video/sbx/${partIndex}-${sha256.slice(0, 24)}`;
  if (part.firstByte === 0) asset.head = head;
  sendEmpty(ex.res, 200, { etag: part.etag });
}

async function finalizeVideo(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  requireScope(token, 'w_member_social', 'uploads');
  const body = await readJson(ex.req);
  const request = body.finalizeUploadRequest as Record<string, unknown> | undefined;
  if (!request || typeof request !== 'object') throw restError(400, 'finalizeUploadRequest is required');
  const asset = ex.ctx.state.assets.get(String(request.video ?? ''));
  if (asset?.kind !== 'video') throw restError(404, 'Video not found');
  if (asset.owner !== memberUrn(token.sub))
    throw restError(403, 'Not allowed to finalize this video', 'ACCESS_DENIED');
  if ((request.uploadToken ?? '') !== asset.uploadToken) throw restError(400, 'uploadToken does not match');
  const ids = request.uploadedPartIds;
  const expected = asset.parts.map((p) => p.etag);
  if (expected.some((e) => e === null)) throw restError(400, 'Not every part has been uploaded');
  if (!Array.isArray(ids) || ids.length !== expected.length || ids.some((id, i) => id !== expected[i])) {
    throw restError(400, 'uploadedPartIds must list every part ETag, in order');
  }
  if (asset.status === 'WAITING_UPLOAD') {
    const whole = createHash('sha256');
    for (const p of asset.parts) whole.update(p.sha256!);
    asset.sha256 = whole.digest('hex');
    asset.size = asset.fileSizeBytes;
    asset.status = 'PROCESSING';
    asset.statusPolls = 0;
    asset.failProcessing =
      ex.ctx.faults.takeVideoFailure() || !looksLike('video', asset.head ?? Buffer.alloc(0));
    if (asset.failProcessing) asset.failureReason = 'the video could not be transcoded';
  }
  sendEmpty(ex.res, 200);
}

export const videoRoutes: Route[] = [
  {
    method: 'POST',
    path: /^\/rest\/videos$/,
    query: action('initializeUpload'),
    name: 'initVideo',
    handle: initVideo,
  },
  {
    method: 'POST',
    path: /^\/rest\/videos$/,
    query: action('finalizeUpload'),
    name: 'finalizeVideo',
    handle: finalizeVideo,
  },
  { method: 'PUT', path: /^\/_uploads\/videos\/([\w-]+)$/, name: 'uploadVideoPart', handle: uploadVideoPart },
];
