import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server on loopback for tests: path-style addressing, PutObject,
 * GetObject, DeleteObject and the multipart calls. It checks every request's SigV4
 * signature and payload hash with its own implementation, so a signing bug fails loudly.
 */
export interface FakeS3 {
  url: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  /** Every request as `METHOD operation`, in order. */
  log: string[];
  /** Largest request body seen (to prove uploads are sent in parts). */
  maxBodyBytes: number;
  close(): Promise<void>;
}

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function verify(req: IncomingMessage, body: Buffer, secret: string, accessKeyId: string): string | null {
  const auth = req.headers.authorization ?? '';
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request,SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m) return 'malformed authorization';
  const [, keyId, day, region, signedHeaders, signature] = m;
  if (keyId !== accessKeyId) return 'unknown access key';
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== sha(body)) return 'payload hash mismatch';
  const [rawPath, rawQuery = ''] = (req.url ?? '/').split('?');
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [k, v = ''] = pair.split('=');
      return [rfc3986(decodeURIComponent(k!)), rfc3986(decodeURIComponent(v))] as const;
    })
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const names = signedHeaders!.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) return 'host and x-amz-date must be signed';
  const headers = names.map((n) => `${n}:${String(req.headers[n] ?? '').trim()}\n`).join('');
  const canonical = [req.method, rawPath, query, headers, signedHeaders, payloadHash].join('\n');
  const stamp = String(req.headers['x-amz-date']);
  const toSign = ['AWS4-HMAC-SHA256', stamp, `${day}/${region}/s3/aws4_request`, sha(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day!), region!), 's3'), 'aws4_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  return expected === signature ? null : 'signature mismatch';
}

export async function startFakeS3(options: {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}): Promise<FakeS3> {
  const objects: FakeS3['objects'] = new Map();
  const uploads = new Map<
    string,
    { key: string; contentType: string | undefined; parts: Map<number, Buffer> }
  >();
  const log: string[] = [];
  let maxBodyBytes = 0;
  let nextUpload = 1;

  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    maxBodyBytes = Math.max(maxBodyBytes, body.length);
    const fail = (status: number, code: string) => {
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0"?><Error><Code>${code}</Code></Error>`);
    };
    const problem = verify(req, body, options.secretAccessKey, options.accessKeyId);
    if (problem) {
      log.push(`${req.method} denied: ${problem}`);
      return fail(403, 'SignatureDoesNotMatch');
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const [, bucket, ...rest] = url.pathname.split('/');
    if (bucket !== options.bucket) return fail(404, 'NoSuchBucket');
    const key = rest.map(decodeURIComponent).join('/');
    const q = url.searchParams;
    const op = `${req.method} ${q.has('uploads') ? 'create' : q.has('partNumber') ? 'part' : q.has('uploadId') ? 'upload' : 'object'}`;
    log.push(op);

    if (req.method === 'POST' && q.has('uploads')) {
      const id = `up${nextUpload++}`;
      uploads.set(id, { key, contentType: req.headers['content-type'], parts: new Map() });
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(
        `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    const upload = q.get('uploadId') ? uploads.get(q.get('uploadId')!) : undefined;
    if (q.has('uploadId') && !upload) return fail(404, 'NoSuchUpload');
    if (req.method === 'PUT' && upload) {
      const n = Number(q.get('partNumber'));
      upload.parts.set(n, body);
      res.writeHead(200, { etag: `"${sha(body).slice(0, 32)}"` });
      return res.end();
    }
    if (req.method === 'POST' && upload) {
      const numbers = [...String(body).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((x) => Number(x[1]));
      const all = numbers.map((n) => upload.parts.get(n));
      if (all.some((p) => !p)) return fail(400, 'InvalidPart');
      objects.set(upload.key, { body: Buffer.concat(all as Buffer[]), contentType: upload.contentType });
      uploads.delete(q.get('uploadId')!);
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end('<CompleteMultipartUploadResult></CompleteMultipartUploadResult>');
    }
    if (req.method === 'DELETE' && upload) {
      uploads.delete(q.get('uploadId')!);
      res.writeHead(204);
      return res.end();
    }
    if (req.method === 'PUT') {
      objects.set(key, { body, contentType: req.headers['content-type'] });
      res.writeHead(200, { etag: `"${sha(body).slice(0, 32)}"` });
      return res.end();
    }
    if (req.method === 'GET') {
      const obj = objects.get(key);
      if (!obj) return fail(404, 'NoSuchKey');
      res.writeHead(200, { 'content-type': obj.contentType ?? 'application/octet-stream' });
      return res.end(obj.body);
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    return fail(405, 'MethodNotAllowed');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bucket: options.bucket,
    objects,
    log,
    get maxBodyBytes() {
      return maxBodyBytes;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
