import type { Config } from '../../config/config.ts';

/** The six upload types the contract accepts, and how to recognise each from its first bytes. */
export const MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/mp4',
  'application/pdf',
] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const isMediaType = (value: string): value is MediaType =>
  (MEDIA_TYPES as readonly string[]).includes(value);

export const isImageType = (value: string) => value.startsWith('image/');

/** Bytes needed to tell the six formats apart (WebP's signature ends at offset 12). */
export const SNIFF_BYTES = 12;

const ascii = (buf: Buffer, start: number, text: string) =>
  buf.length >= start + text.length && buf.toString('latin1', start, start + text.length) === text;

/** The format the bytes actually are, among the six, or null for anything else. */
export function sniffMediaType(head: Buffer): MediaType | null {
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return 'image/gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'image/webp';
  // ISO base media: the first box is `ftyp`, its type at offset 4.
  if (ascii(head, 4, 'ftyp')) return 'video/mp4';
  if (ascii(head, 0, '%PDF-')) return 'application/pdf';
  return null;
}

const MIB = 1024 * 1024;

/** The configured size limit for a type, in bytes (the MEDIA_MAX_* variables are in MiB). */
export function maxBytesFor(config: Config, type: MediaType): number {
  const mb =
    type === 'image/gif'
      ? config.MEDIA_MAX_GIF_MB
      : type === 'application/pdf'
        ? config.MEDIA_MAX_PDF_MB
        : type === 'video/mp4'
          ? config.MEDIA_MAX_VIDEO_MB
          : config.MEDIA_MAX_IMAGE_MB;
  return Math.floor(mb * MIB);
}

export const formatBytes = (bytes: number) =>
  bytes >= MIB ? `${Number((bytes / MIB).toFixed(2))} MB` : `${Number((bytes / 1024).toFixed(1))} KB`;

/** `image/PNG; charset=x` -> `image/png`; missing -> null. */
export function normalizeContentType(header: string | undefined): string | null {
  if (!header) return null;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === '' ? null : type;
}

/**
 * `X-Filename` reduced to its last path component: directories (either slash), control
 * characters and surrounding whitespace are dropped; a percent-encoded UTF-8 name is decoded.
 * Nothing usable left means no filename.
 */
export function toBasename(header: string | undefined): string | null {
  if (header === undefined) return null;
  let name = header;
  if (/%[0-9a-f]{2}/i.test(name)) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // not valid percent-encoding: keep the raw value
    }
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  name = name.replace(/[\u0000-\u001f\u007f]/g, '');
  name = name.split(/[/\\]/).pop()!.trim();
  if (name === '' || name === '.' || name === '..') return null;
  return name.slice(0, 255);
}
