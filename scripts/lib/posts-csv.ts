import { readFileSync } from 'node:fs';

/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

export interface PostRow {
  name: string;
  followers: number;
  content: string;
  mediaType: string;
  reactions: number;
  comments: number;
}

const int = (s: string | undefined) => {
  const n = Number.parseInt((s ?? '').replace(/,/g, ''), 10);
  return Number.isFinite(n) ? n : 0;
};

/** Reads the calibration CSV (columns name, followers, content, media_type, reactions, comments...). */
export function readPostsCsv(path: string): PostRow[] {
  const [header, ...rows] = parseCsv(readFileSync(path, 'utf8'));
  if (!header) throw new Error(`${path} is empty`);
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i === -1) throw new Error(`${path} has no "${name}" column`);
    return i;
  };
  const [name, followers, content, media, reactions, comments] = [
    col('name'),
    col('followers'),
    col('content'),
    col('media_type'),
    col('reactions'),
    col('comments'),
  ];
  return rows
    .map((r) => ({
      name: r[name] ?? '',
      followers: int(r[followers]),
      content: r[content] ?? '',
      mediaType: r[media] ?? '',
      reactions: int(r[reactions]),
      comments: int(r[comments]),
    }))
    .filter((r) => r.followers > 0 && r.content.trim().length > 0);
}
