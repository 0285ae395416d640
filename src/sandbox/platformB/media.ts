import { createHash, randomBytes } from 'node:crypto';
import { readBody, readJson, sendJson } from '../http.ts';
import { authenticate, problem, requireScope } from './http.ts';
import type { Exchange, Route } from './lane.ts';
import type { BMedia, BMediaCategory } from './state.ts';

/** Chunked media upload: initialize, append segments (multipart), finalize, STATUS while processing. */

const MB = 1024 * 1024;
const LIMITS: Record<BMediaCategory, number> = {
  tweet_image: 5 * MB,
  tweet_gif: 15 * MB,
  tweet_video: 512 * MB,
};
const MAX_SEGMENT = 5 * MB;
const bad = (detail: string) => problem(400, 'Invalid Request', detail);

const categoryFits = (type: string, category: unknown) =>
  (category === 'tweet_gif' && type === 'image/gif') ||
  (category === 'tweet_image' && type.startsWith('image/') && type !== 'image/gif') ||
  (category === 'tweet_video' && type === 'video/mp4');

async function initialize(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'media.write');
  const body = await readJson(ex.req);
  const type = typeof body.media_type === 'string' ? body.media_type : '';
  const total = body.total_bytes;
  if (type === 'application/pdf') throw bad('media_type application/pdf is not supported');
  if (!categoryFits(type, body.media_category)) throw bad('media_category does not fit media_type');
  const category = body.media_category as BMediaCategory;
  if (typeof total !== 'number' || !Number.isInteger(total) || total <= 0)
    throw bad('total_bytes must be a positive integer');
  if (total > LIMITS[category]) throw bad(`${category} is limited to ${LIMITS[category]} bytes`);
  const media: BMedia = {
    id: String(1_900_000_000_000_000_000n + BigInt(randomBytes(6).readUIntBE(0, 6))),
    ownerId: token.userId,
    mediaType: type,
    category,
    totalBytes: total,
    segments: new Map(),
    state: 'uploading',
    statusPolls: 0,
    failProcessing: false,
    sha256: null,
    createdAt: ex.ctx.now(),
  };
  ex.ctx.state.media.set(media.id, media);
  sendJson(ex.res, 200, { data: { id: media.id, media_key: `3_${media.id}`, expires_after_secs: 86_400 } });
}

function ownMedia(ex: Exchange, userId: string, id: string): BMedia {
  const media = ex.ctx.state.media.get(id);
  if (!media || media.ownerId !== userId) throw problem(404, 'Not Found Error', 'Unknown media id');
  return media;
}

/** The named parts of a multipart/form-data body. */
export function parseMultipart(body: Buffer, contentType: string): Map<string, Buffer> {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) throw bad('Content-Type must be multipart/form-data with a boundary');
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts = new Map<string, Buffer>();
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const name = /name="([^"]*)"/i.exec(part.subarray(0, Math.max(0, split)).toString('utf8'))?.[1];
    if (split >= 0 && name !== undefined) parts.set(name, part.subarray(split + 4));
    at = next;
  }
  return parts;
}

async function append(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'media.write');
  const media = ownMedia(ex, token.userId, ex.params[0]!);
  const parts = parseMultipart(
    await readBody(ex.req, MAX_SEGMENT + 64 * 1024),
    ex.req.headers['content-type'] ?? '',
  );
  const chunk = parts.get('media');
  const index = Number(parts.get('segment_index')?.toString('utf8'));
  if (!chunk || chunk.length === 0) throw bad('media (the chunk) is required');
  if (chunk.length > MAX_SEGMENT) throw bad('A segment is at most 5 MB');
  if (!Number.isInteger(index) || index < 0 || index > 999) throw bad('segment_index must be 0-999');
  if (media.state !== 'uploading') throw bad('The upload was already finalized');
  media.segments.set(index, chunk);
  ex.res.writeHead(204).end();
}

const MAGIC: Record<BMediaCategory, (b: Buffer) => boolean> = {
  tweet_image: (b) =>
    b[0] === 0x89 || (b[0] === 0xff && b[1] === 0xd8) || b.subarray(8, 12).toString() === 'WEBP',
  tweet_gif: (b) => b.subarray(0, 3).toString() === 'GIF',
  tweet_video: (b) => b.subarray(4, 8).toString() === 'ftyp',
};

function processingView(media: BMedia) {
  if (media.state === 'succeeded' && media.category === 'tweet_image') return {};
  const info: Record<string, unknown> = { state: media.state };
  if (media.state === 'pending' || media.state === 'in_progress') info.check_after_secs = 1;
  if (media.state === 'failed')
    info.error = { code: 3, name: 'InvalidMedia', message: 'Unsupported or corrupt media' };
  return { processing_info: info };
}

function finalize(ex: Exchange) {
  const token = authenticate(ex);
  requireScope(token, 'media.write');
  const media = ownMedia(ex, token.userId, ex.params[0]!);
  if (media.state === 'uploading') {
    const indexes = [...media.segments.keys()].sort((a, b) => a - b);
    if (indexes.some((i, n) => i !== n)) throw bad('Segments are missing');
    const whole = Buffer.concat(indexes.map((i) => media.segments.get(i)!));
    if (whole.length !== media.totalBytes)
      throw bad(`Received ${whole.length} bytes; total_bytes said ${media.totalBytes}`);
    media.sha256 = createHash('sha256').update(whole).digest('hex');
    media.segments.clear();
    media.failProcessing = ex.ctx.faults.takeMediaFailure() || !MAGIC[media.category](whole);
    if (media.category === 'tweet_image') media.state = media.failProcessing ? 'failed' : 'succeeded';
    else media.state = 'pending';
  }
  sendJson(ex.res, 200, { data: { id: media.id, ...processingView(media) } });
}

function status(ex: Exchange) {
  const token = authenticate(ex);
  const media = ownMedia(ex, token.userId, ex.url.searchParams.get('media_id') ?? '');
  if (media.state === 'pending' || media.state === 'in_progress') {
    media.statusPolls++;
    const done = media.statusPolls > ex.ctx.settings.mediaProcessingPolls;
    media.state = done ? (media.failProcessing ? 'failed' : 'succeeded') : 'in_progress';
  }
  sendJson(ex.res, 200, { data: { id: media.id, ...processingView(media) } });
}

const ID = '(\\d+)';
export const mediaRoutes: Route[] = [
  { method: 'POST', path: /^\/2\/media\/upload\/initialize$/, name: 'mediaInit', handle: initialize },
  {
    method: 'POST',
    path: new RegExp(`^/2/media/upload/${ID}/append$`),
    name: 'mediaAppend',
    handle: append,
  },
  {
    method: 'POST',
    path: new RegExp(`^/2/media/upload/${ID}/finalize$`),
    name: 'mediaFinalize',
    handle: finalize,
  },
  {
    method: 'GET',
    path: /^\/2\/media\/upload$/,
    query: (url) => url.searchParams.get('command') === 'STATUS',
    name: 'mediaStatus',
    handle: status,
  },
];
