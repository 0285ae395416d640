import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyPosts, posts } from '../../src/db/schema/index.ts';
import { type Member, type PostWorld, startPostWorld } from './world.ts';

/*
 * CSV encodings on every CSV input (issue 37 item 4): bulk scheduling and its dry run, the
 * history import and its preview. The bodies are real bytes as spreadsheet programs write them:
 * UTF-8 with and without a BOM, windows-1252 (Excel's "CSV" on Windows), ISO-8859-1, and bytes
 * that are none of these.
 */
let w: PostWorld;
let alice: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const HOUR = 3_600_000;
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const send = (path: string, body: Buffer, contentType: string) =>
  w.t.request('POST', path, { key: alice.apiKey, raw: body, headers: { 'content-type': contentType } });

async function counts() {
  const db = w.t.service.deps.db;
  return {
    posts: (await db.select().from(posts).where(eq(posts.accountId, alice.accountId))).length,
    history: (await db.select().from(historyPosts).where(eq(historyPosts.accountId, alice.accountId))).length,
  };
}

/** A bulk file: a header, then one row per text, each on alice's channel an hour on. */
function bulkFile(texts: (string | number[])[][]): Buffer {
  const runAt = String(w.clock.now() + HOUR);
  return bytes(
    'text,runAt,channelId\r\n',
    ...texts.flatMap((t) => [...t, `,${runAt},${alice.channelId}\r\n`]),
  );
}

/** A history file: a header, then one row per text with a date and likes. */
function historyFile(texts: (string | number[])[][]): Buffer {
  return bytes('text,publishedAt,reactions\r\n', ...texts.flatMap((t) => ['"', ...t, '",2025-03-01,12\r\n']));
}

const CAFE_1252 = ['Caf', [0xe9], ' ', [0x93], 'open', [0x94], ' ', [0x96], ' 5 ', [0x80]];
const CAFE = 'Café “open” – 5 €';
const CAFE_LATIN1 = ['Caf', [0xe9], ' cr', [0xe8], 'me br', [0xfb], 'l', [0xe9], 'e ', [0xbd]];

describe('bulk scheduling with a CSV body', () => {
  it('reads UTF-8 by default, without its BOM, and windows-1252 and ISO-8859-1 when the charset says so', async () => {
    const utf8 = await send(
      '/v1/posts/bulk-schedule',
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from(
          `text,runAt,channelId\r\n${CAFE} utf8,${w.clock.now() + HOUR},${alice.channelId}\r\n`,
          'utf8',
        ),
      ]),
      'text/csv',
    );
    expect(utf8.status, utf8.text).toBe(201);
    expect(utf8.body.posts.map((p: { text: string }) => p.text)).toEqual([`${CAFE} utf8`]);

    const cp1252 = await send(
      '/v1/posts/bulk-schedule',
      bulkFile([CAFE_1252]),
      'text/csv; charset=windows-1252',
    );
    expect(cp1252.status, cp1252.text).toBe(201);
    expect(cp1252.body.posts[0].text).toBe(CAFE);

    const latin1 = await send(
      '/v1/posts/bulk-schedule',
      bulkFile([CAFE_LATIN1]),
      'text/csv; charset="ISO-8859-1"',
    );
    expect(latin1.status, latin1.text).toBe(201);
    expect(latin1.body.posts[0].text).toBe('Café crème brûlée ½');
    const stored = await w.t.request('GET', `/v1/posts/${latin1.body.posts[0].id}`, { key: alice.apiKey });
    expect(stored.body.post.text).toBe('Café crème brûlée ½');
  });

  it('refuses bytes that are not UTF-8 with 400 naming the row and byte offset, and writes nothing', async () => {
    const before = await counts();
    const header = 'text,runAt,channelId\r\n';
    const first = `Fine row,${w.clock.now() + HOUR},${alice.channelId}\r\n`;
    const cases: { name: string; bad: number[]; row: number }[] = [
      { name: 'Latin-1 é sent as UTF-8', bad: [0xe9], row: 3 },
      { name: 'a truncated sequence', bad: [0xe2, 0x82], row: 3 },
      { name: 'an encoded surrogate', bad: [0xed, 0xa0, 0x80], row: 3 },
      { name: 'an overlong slash', bad: [0xc0, 0xaf], row: 3 },
    ];
    for (const { name, bad, row } of cases) {
      const body = bytes(header, first, 'caf', bad, ` latte,${w.clock.now() + HOUR},${alice.channelId}\r\n`);
      const offset = header.length + first.length + 3;
      for (const query of ['', '?dryRun=true']) {
        const res = await send(`/v1/posts/bulk-schedule${query}`, body, 'text/csv');
        expect(res.status, `${name}${query}: ${res.text}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
        expect(res.body.error.message).toContain(
          `row ${row} holds byte 0x${bad[0]!.toString(16).toUpperCase()}`,
        );
        expect(res.body.error.details).toEqual([
          { path: `row ${row}`, message: expect.stringContaining(`at byte offset ${offset} of the body`) },
        ]);
      }
    }
    // A quoted line break keeps the row; windows-1252's undefined bytes do not decode either.
    const multiLine = bytes(
      header,
      '"two\nlines ',
      [0x9d],
      `",${w.clock.now() + HOUR},${alice.channelId}\r\n`,
    );
    const res = await send('/v1/posts/bulk-schedule', multiLine, 'text/csv; charset=windows-1252');
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.details[0]).toEqual({
      path: 'row 2',
      message: `Byte 0x9D, which is not valid windows-1252, at byte offset ${header.length + 11} of the body`,
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses a charset it does not read, with 415', async () => {
    const res = await send('/v1/posts/bulk-schedule', bulkFile([['plain']]), 'text/csv; charset=shift_jis');
    expect(res.status, res.text).toBe(415);
    expect(res.body.error.message).toMatch(/charset "shift_jis" is not read here/);
  });
});

describe('the history import with a CSV body', () => {
  it('reads windows-1252 and UTF-8, in the import and its preview', async () => {
    const preview = await send(
      '/v1/history?dryRun=true',
      historyFile([CAFE_1252]),
      'text/csv; charset=windows-1252',
    );
    expect(preview.status, preview.text).toBe(200);
    expect(JSON.stringify(preview.body)).toContain(CAFE);
    const imported = await send('/v1/history', historyFile([CAFE_1252]), 'text/csv; charset=windows-1252');
    expect(imported.status, imported.text).toBe(201);
    const listed = await w.t.request('GET', '/v1/history?limit=100', { key: alice.apiKey });
    expect(listed.body.history.map((h: { text: string }) => h.text)).toContain(CAFE);
    const utf8 = await send(
      '/v1/history',
      Buffer.from(`\uFEFFtext,reactions\n"${CAFE} again",3\n`, 'utf8'),
      'text/csv',
    );
    expect(utf8.status, utf8.text).toBe(201);
  });

  it('refuses a Latin-1 byte sent as UTF-8, naming the line and offset, in the import and its preview', async () => {
    const before = await counts();
    const body = historyFile([['Good one'], ['Second ', [0xe9], 't', [0xe9]]]);
    const offset = body.indexOf(0xe9);
    for (const query of ['', '?dryRun=true']) {
      const res = await send(`/v1/history${query}`, body, 'text/csv');
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.details).toEqual([
        {
          path: 'line 3',
          message: `Byte 0xE9, which is not valid UTF-8, at byte offset ${offset} of the body`,
        },
      ]);
    }
    expect(await counts()).toEqual(before);
  });
});
