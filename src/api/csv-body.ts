import type { FastifyInstance } from 'fastify';
import { Invalid, UnsupportedType } from '../domain/errors.ts';

/*
 * A `text/csv` body as text, in the charset its Content-Type names (UTF-8 when it names none).
 * Bytes that do not decode are refused, never replaced: a spreadsheet saved in Latin-1 and sent
 * as UTF-8 would otherwise publish "caf�". The refusal names the row and the byte offset, so
 * the person can find the cell. A UTF-8 byte-order mark means UTF-8 whatever the label says (the
 * WHATWG Encoding Standard's BOM sniffing) and is not part of the text.
 */

/** Where a bad byte is: the CSV record (header = 1, blank lines skipped) and the line it starts on. */
export interface CsvPlace {
  record: number;
  line: number;
}

/** How a route names a row in its errors: bulk scheduling says "row 4", the history import "line 4". */
export type RowLabel = (place: CsvPlace) => string;

type Charset = 'utf-8' | 'windows-1252';

/**
 * Labels as the WHATWG Encoding Standard reads them. It reads iso-8859-1 and latin1 as
 * windows-1252, as browsers do: files so labelled come from Windows programs, whose bytes
 * 0x80-0x9F are curly quotes, dashes and the euro sign, not the C1 controls of ISO 8859-1.
 */
const CHARSETS: Record<string, Charset> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  'windows-1252': 'windows-1252',
  cp1252: 'windows-1252',
  'x-cp1252': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  iso_8859_1: 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  'us-ascii': 'windows-1252',
  ascii: 'windows-1252',
};
const SHOWN: Record<Charset, string> = { 'utf-8': 'UTF-8', 'windows-1252': 'windows-1252' };

/** Bytes windows-1252 leaves undefined. */
const CP1252_UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
const windows1252 = new TextDecoder('windows-1252');

export function charsetOf(contentType: string | undefined): Charset {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const label = (match?.[1] ?? match?.[2] ?? '').trim().toLowerCase();
  if (label === '') return 'utf-8';
  const charset = CHARSETS[label];
  if (!charset)
    throw new UnsupportedType(
      `The CSV's charset "${label.slice(0, 40)}" is not read here; send UTF-8 (charset=utf-8), or charset=windows-1252 or iso-8859-1 for a file saved by an older spreadsheet program.`,
    );
  return charset;
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0): number {
  let i = from;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0) return i;
      i++;
      continue;
    }
    // The lead byte decides the length and the range of the second byte (RFC 3629 section 4):
    // no overlong forms, no surrogates (ED A0-BF), nothing past U+10FFFF.
    let length: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + length > bytes.length) return i;
    const second = bytes[i + 1]!;
    if (second < lo || second > hi) return i;
    for (let k = 2; k < length; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

function firstInvalidCp1252(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0 || CP1252_UNDEFINED.has(bytes[i]!)) return i;
  return -1;
}

/**
 * The record and line holding `offset`, read as the CSV reader reads records: a line break
 * inside quotes continues the record, and a line with nothing on it is no record.
 */
export function placeOf(bytes: Uint8Array, offset: number): CsvPlace {
  let record = 0;
  let line = 1;
  let recordLine = 1;
  let inRecord = false;
  let quoted = false;
  for (let i = 0; i <= offset && i < bytes.length; i++) {
    const b = bytes[i]!;
    const lineBreak = b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a);
    if (b === 0x0d && !lineBreak) continue;
    if (lineBreak) {
      if (i === offset) break;
      line++;
      if (!quoted) inRecord = false;
      continue;
    }
    if (!inRecord) {
      inRecord = true;
      record++;
      recordLine = line;
    }
    if (b === 0x22) quoted = !quoted;
  }
  return { record: Math.max(record, 1), line: inRecord ? recordLine : line };
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`;

/** The body as text, or Invalid naming the row and byte offset of the first byte that does not decode. */
export function decodeCsv(bytes: Uint8Array, contentType: string | undefined, label: RowLabel): string {
  let charset = charsetOf(contentType);
  let start = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    charset = 'utf-8';
    start = 3;
  }
  const bad = charset === 'utf-8' ? firstInvalidUtf8(bytes, start) : firstInvalidCp1252(bytes);
  if (bad >= 0) {
    const where = label(placeOf(bytes, bad));
    const byte = bytes[bad]!;
    const what =
      byte === 0
        ? `a NUL byte (${hex(byte)}), which is not text`
        : `byte ${hex(byte)}, which is not valid ${SHOWN[charset]}`;
    const fix =
      charset === 'utf-8'
        ? 'Save the file as UTF-8 (in Excel: CSV UTF-8), or name its encoding in the Content-Type, e.g. text/csv; charset=windows-1252.'
        : 'Save the file as UTF-8 (in Excel: CSV UTF-8) and send it as text/csv; charset=utf-8.';
    throw new Invalid(`The CSV cannot be read as ${SHOWN[charset]}: ${where} holds ${what}. ${fix}`, [
      {
        path: where,
        message: `${what[0]!.toUpperCase()}${what.slice(1)}, at byte offset ${bad} of the body`,
      },
    ]);
  }
  return charset === 'utf-8'
    ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8', start)
    : windows1252.decode(bytes);
}

/** Registers the `text/csv` parser of a route scope: the body arrives as decoded text. */
export function addCsvBodyParser(app: FastifyInstance, options: { bodyLimit: number; label: RowLabel }) {
  app.addContentTypeParser(
    'text/csv',
    { parseAs: 'buffer', bodyLimit: options.bodyLimit },
    (request, body, done) => {
      try {
        done(null, decodeCsv(body as Buffer, request.headers['content-type'], options.label));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );
}
