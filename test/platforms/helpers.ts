import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MediaFile, Platform } from '../../src/platforms/platform.ts';
import { createPlatformA, type PlatformAOptions } from '../../src/platforms/platformA/adapter.ts';
import type { Sandbox } from '../../src/sandbox/sandbox.ts';

export const REDIRECT_URI = 'http://127.0.0.1:9/v1/channels/platformA/callback';

/** The real adapter pointed at a sandbox, with backoff shrunk so retries take milliseconds. */
export function adapterFor(sandbox: Sandbox, overrides: Partial<PlatformAOptions> = {}): Platform {
  return createPlatformA({
    clientId: sandbox.platformA.clientId,
    clientSecret: sandbox.platformA.clientSecret,
    redirectUri: REDIRECT_URI,
    authUrl: sandbox.platformA.authUrl,
    apiUrl: sandbox.platformA.apiUrl,
    apiVersion: '202510',
    pkce: true,
    backoffScale: 0.001,
    ...overrides,
  });
}

/** Follows the authorization URL (auto-approve) and returns the redirect's query. */
export async function authorize(url: string): Promise<URLSearchParams> {
  const res = await fetch(url, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`expected a redirect, got ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!).searchParams;
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const pngBytes = (size = 2048) => Buffer.concat([PNG_MAGIC, randomBytes(size - PNG_MAGIC.length)]);
export const pdfBytes = (size = 4096) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
export const mp4Bytes = (size: number) =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom'), randomBytes(size - 12)]);

/** A MediaFile over bytes; `stream` serves it in uneven chunks; `opens` counts open() calls. */
export function mediaFile(
  bytes: Buffer,
  contentType: string,
  options: {
    filename?: string | null;
    stream?: boolean;
    chunk?: number;
    onChunk?: (pulled: number) => void;
  } = {},
): MediaFile & { opens: number } {
  const file = {
    id: `med_${randomBytes(4).toString('hex')}`,
    contentType,
    size: bytes.length,
    filename: options.filename === undefined ? 'file.bin' : options.filename,
    opens: 0,
    async open() {
      file.opens++;
      if (!options.stream) return bytes;
      const chunk = options.chunk ?? 333;
      let offset = 0;
      // highWaterMark 0: the stream reads only on demand, so `onChunk` sees what was pulled.
      return new Readable({
        highWaterMark: 0,
        read() {
          if (offset >= bytes.length) return void this.push(null);
          const piece = bytes.subarray(offset, offset + chunk);
          offset += piece.length;
          options.onChunk?.(offset);
          this.push(piece);
        },
      });
    },
  };
  return file;
}

export async function connected(sandbox: Sandbox, platform: Platform, scopes?: string[]) {
  const token = sandbox.platformA.state.issueToken(scopes ? { scopes } : {});
  const member = sandbox.platformA.state.members.get(token.sub)!;
  return {
    accessToken: token.accessToken,
    refreshToken: token.refreshToken,
    authorRef: platform.authorRef(member.sub),
    member,
  };
}
