import { randomBytes } from 'node:crypto';

/** Minimal files whose first bytes are each format's real signature, padded with random bytes. */
const pad = (head: Buffer, size: number) =>
  Buffer.concat([head, randomBytes(Math.max(0, size - head.length))]);

export const sampleFile = {
  png: (size = 256) => pad(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), size),
  jpeg: (size = 256) => pad(Buffer.from([0xff, 0xd8, 0xff, 0xe0]), size),
  gif: (size = 256) => pad(Buffer.from('GIF89a', 'latin1'), size),
  webp: (size = 256) =>
    pad(Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 ')]), size),
  mp4: (size = 256) => pad(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom')]), size),
  pdf: (size = 256) => pad(Buffer.from('%PDF-1.7\n'), size),
};

export const TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  pdf: 'application/pdf',
} as const;
