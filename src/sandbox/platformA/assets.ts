import { createHash } from 'node:crypto';
import { readJson, restError, sendEmpty, sendJson } from '../http.ts';
import { authenticate, memberUrn, requireRestHeaders, requireScope } from './guards.ts';
import type { Exchange, Route } from './lane.ts';
import { type AAsset, type AssetKind, randomId } from './state.ts';

/** Images, documents (one PUT each) and videos (byte-range PUTs, finalize, processing). */

const UPLOAD_URL_TTL_MS = 24 * 3_600_000;
const HEAD_BYTES = 16;

export function newAsset(ex: Exchange, kind: AssetKind, owner: string): AAsset {
  const prefix = kind === 'image' ? 'C4D10AQ' : kind === 'document' ? 'D4D10AQ' : 'D5D10AQ';
  return {
    id: `urn:li:${kind}:${prefix}${randomId(9)}`,
    kind,
    owner,
    status: 'WAITING_UPLOAD',
    size: null,
    sha256: null,
    uploadKey: randomId(18),
    uploadUrlExpiresAt: ex.ctx.now() + UPLOAD_URL_TTL_MS,
    head: null,
    failureReason: null,
    createdAt: ex.ctx.now(),
    fileSizeBytes: null,
    uploadToken: null,
    parts: [],
    statusPolls: 0,
    failProcessing: false,
  };
}

/** The initializeUpload owner must be the token's member. */
export async function initRequest(ex: Exchange) {
  requireRestHeaders(ex);
  const token = authenticate(ex);
  requireScope(token, 'w_member_social', 'uploads');
  const body = await readJson(ex.req);
  const request = body.initializeUploadRequest as Record<string, unknown> | undefined;
  if (!request || typeof request !== 'object') throw restError(400, 'initializeUploadRequest is required');
  const owner = request.owner;
  if (typeof owner !== 'string' || owner === '')
    throw restError(400, 'initializeUploadRequest.owner is required');
  if (owner !== memberUrn(token.sub))
    throw restError(403, 'Not allowed to upload for this owner', 'ACCESS_DENIED', 100);
  return { token, owner, request };
}

function initWhole(kind: 'image' | 'document') {
  return async (ex: Exchange) => {
    const { owner } = await initRequest(ex);
    const asset = newAsset(ex, kind, owner);
    ex.ctx.state.assets.set(asset.id, asset);
    ex.ctx.state.uploadKeys.set(asset.uploadKey!, { assetId: asset.id, part: -1 });
    sendJson(ex.res, 200, {
      value: {
        uploadUrlExpiresAt: asset.uploadUrlExpiresAt,
        uploadUrl: `${ex.ctx.baseUrl}/_uploads/${kind}s/${asset.uploadKey}`,
        [kind]: asset.id,
      },
    });
  };
}

/** Streams a request body through SHA-256, keeping only its size and first bytes. */
export async function digestBody(ex: Exchange) {
  const hash = createHash('sha256');
  let size = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  for await (const chunk of ex.req) {
    const buf = chunk as Buffer;
    hash.update(buf);
    size += buf.length;
    if (headBytes < HEAD_BYTES) {
      head.push(buf.subarray(0, HEAD_BYTES - headBytes));
      headBytes += Math.min(buf.length, HEAD_BYTES - headBytes);
    }
  }
  return { size, sha256: hash.digest('hex'), head: Buffer.concat(head) };
}

/** What the bytes look like (magic numbers), to fail processing like the platform would. */
export function looksLike(kind: AssetKind, head: Buffer): boolean {
  if (kind === 'document') return head.subarray(0, 5).toString('latin1') === '%PDF-';
  if (kind === 'video') return head.subarray(4, 8).toString('latin1') === 'ftyp';
  const png = head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  const gif = head.subarray(0, 4).toString('latin1') === 'GIF8';
  const webp =
    head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP';
  return png || jpeg || gif || webp;
}

function uploadWhole(kind: 'image' | 'document') {
  return async (ex: Exchange) => {
    // Image and document uploads carry the member's bearer token, as documented.
    const token = authenticate(ex);
    const key = ex.ctx.state.uploadKeys.get(ex.params[0]!);
    const asset = key ? ex.ctx.state.assets.get(key.assetId) : undefined;
    if (!asset || asset.kind !== kind) throw restError(404, 'Unknown upload URL');
    if (asset.owner !== memberUrn(token.sub))
      throw restError(403, 'Upload URL belongs to another member', 'ACCESS_DENIED');
    if (asset.uploadUrlExpiresAt <= ex.ctx.now()) throw restError(400, 'The upload URL has expired');
    const { size, sha256, head } = await digestBody(ex);
    if (size === 0) throw restError(400, 'The upload is empty');
    asset.size = size;
    asset.sha256 = sha256;
    asset.head = head;
    if (looksLike(kind, head)) asset.status = 'AVAILABLE';
    else {
      asset.status = 'PROCESSING_FAILED';
      asset.failureReason = `the bytes are not a supported ${kind} format`;
    }
    sendEmpty(ex.res, 201);
  };
}

function getAsset(kind: AssetKind) {
  return (ex: Exchange) => {
    requireRestHeaders(ex);
    const token = authenticate(ex);
    const asset = ex.ctx.state.assets.get(ex.params[0]!);
    if (!asset || asset.kind !== kind) throw restError(404, `${kind} not found`);
    if (asset.owner !== memberUrn(token.sub))
      throw restError(403, `Not allowed to read this ${kind}`, 'ACCESS_DENIED');
    if (kind === 'video' && asset.status === 'PROCESSING') {
      asset.statusPolls++;
      if (asset.statusPolls > ex.ctx.settings.videoProcessingPolls) {
        asset.status = asset.failProcessing ? 'PROCESSING_FAILED' : 'AVAILABLE';
      }
    }
    sendJson(ex.res, 200, {
      id: asset.id,
      owner: asset.owner,
      status: asset.status,
      ...(asset.failureReason && asset.status === 'PROCESSING_FAILED'
        ? { processingFailureReason: asset.failureReason }
        : {}),
      ...(asset.size === null ? {} : { fileSizeBytes: asset.size }),
    });
  };
}

export const action = (name: string) => (url: URL) => url.searchParams.get('action') === name;
const URN = '([^/]+)';

/** Images and documents. */
export const assetRoutes: Route[] = [
  {
    method: 'POST',
    path: /^\/rest\/images$/,
    query: action('initializeUpload'),
    name: 'initImage',
    handle: initWhole('image'),
  },
  {
    method: 'POST',
    path: /^\/rest\/documents$/,
    query: action('initializeUpload'),
    name: 'initDocument',
    handle: initWhole('document'),
  },
  {
    method: 'PUT',
    path: /^\/_uploads\/images\/([\w-]+)$/,
    name: 'uploadImage',
    handle: uploadWhole('image'),
  },
  {
    method: 'PUT',
    path: /^\/_uploads\/documents\/([\w-]+)$/,
    name: 'uploadDocument',
    handle: uploadWhole('document'),
  },
  { method: 'GET', path: new RegExp(`^/rest/images/${URN}$`), name: 'getImage', handle: getAsset('image') },
  {
    method: 'GET',
    path: new RegExp(`^/rest/documents/${URN}$`),
    name: 'getDocument',
    handle: getAsset('document'),
  },
  { method: 'GET', path: new RegExp(`^/rest/videos/${URN}$`), name: 'getVideo', handle: getAsset('video') },
];
