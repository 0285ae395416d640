import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let key: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  key = (await t.signup()).apiKey;
  other = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
});

const importJson = (body: unknown, k = key) => t.request('POST', '/v1/history', { key: k, body });
const importCsv = (csv: string, k = key) =>
  t.request('POST', '/v1/history', {
    key: k,
    raw: csv,
    headers: { 'content-type': 'text/csv; charset=utf-8' },
  });
const list = async (k = key, query = '?limit=100') => {
  const res = await t.request('GET', `/v1/history${query}`, { key: k });
  expect(res.status, res.text).toBe(200);
  return res.body as {
    history: Record<string, any>[];
    pagination: { limit: number; offset: number; hasMore: boolean };
  };
};
const clear = async (k = key) => {
  const res = await t.request('DELETE', '/v1/history', { key: k });
  expect(res.status, res.text).toBe(200);
  return res.body as { deleted: number };
};

describe('POST /v1/history (JSON)', () => {
  it('imports items, lists them newest first, and updates a text it already has', async () => {
    await clear();
    const res = await importJson({
      items: [
        { text: 'Oldest post', publishedAt: '2025-01-02', reactions: 10, comments: 2 },
        {
          text: 'Newest post\nwith two lines',
          publishedAt: Date.UTC(2025, 5, 1, 9, 30),
          reactions: 40,
          shares: 3,
          media: 'document',
        },
        {
          text: 'Middle post',
          publishedAt: '2025-03-14T08:15:00+01:00',
          platform: 'platformB',
          impressions: 900,
        },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ imported: 3, duplicates: 0, total: 3 });

    const { history, pagination } = await list();
    expect(pagination).toEqual({ limit: 100, offset: 0, hasMore: false });
    expect(history.map((h) => h.text)).toEqual(['Newest post\nwith two lines', 'Middle post', 'Oldest post']);
    const [newest, middle, oldest] = history;
    expect(newest).toMatchObject({
      source: 'import',
      postId: null,
      platform: 'platformA',
      publishedAt: Date.UTC(2025, 5, 1, 9, 30),
      media: 'document',
      reactions: 40,
      comments: null,
      shares: 3,
      engagement: 43,
    });
    expect(newest!.id).toMatch(/^hst_/);
    expect(middle).toMatchObject({
      platform: 'platformB',
      publishedAt: Date.UTC(2025, 2, 14, 7, 15),
      engagement: null,
    });
    expect(oldest).toMatchObject({ publishedAt: Date.UTC(2025, 0, 2), engagement: 12 });

    // Same text (white space differs): updated in place; a field left out keeps its value.
    const again = await importJson({
      items: [
        { text: '  Newest post with two   lines ', reactions: 55 },
        { text: 'Brand new', reactions: 1 },
        { text: 'Brand new', comments: 4 },
      ],
    });
    expect(again.status, again.text).toBe(201);
    expect(again.body).toEqual({ imported: 1, duplicates: 2, total: 4 });
    const after = (await list()).history;
    const updated = after.find((h) => h.id === newest!.id)!;
    expect(updated).toMatchObject({
      reactions: 55,
      shares: 3,
      media: 'document',
      publishedAt: newest!.publishedAt,
    });
    expect(after.find((h) => h.text === 'Brand new')).toMatchObject({ reactions: 1, comments: 4 });
  });

  it('pages with limit and offset', async () => {
    await clear();
    const items = Array.from({ length: 5 }, (_, i) => ({
      text: `Post ${i}`,
      publishedAt: Date.UTC(2025, 0, 1 + i),
    }));
    expect((await importJson({ items })).status).toBe(201);
    const first = await list(key, '?limit=2');
    expect(first.history.map((h) => h.text)).toEqual(['Post 4', 'Post 3']);
    expect(first.pagination).toEqual({ limit: 2, offset: 0, hasMore: true });
    const last = await list(key, '?limit=2&offset=4');
    expect(last.history.map((h) => h.text)).toEqual(['Post 0']);
    expect(last.pagination.hasMore).toBe(false);
    expect((await t.request('GET', '/v1/history?limit=0', { key })).status).toBe(400);
  });

  it('rejects a bad item with a 400 naming the item and field, and stores nothing of the batch', async () => {
    await clear();
    const res = await importJson({
      items: [
        { text: 'fine', reactions: 3 },
        { text: 'bad count', reactions: -1 },
        { text: 'bad date', publishedAt: '14/03/2025' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['items[1].reactions', 'items[2].publishedAt']));
    expect((await list()).history).toEqual([]);

    for (const body of [
      { items: [] },
      { items: [{ text: '   ' }] },
      { items: [{ text: 'x', likes: 3 }] },
      { items: [{ text: 'x', publishedAt: 1_700_000_000 }] },
    ]) {
      const r = await importJson(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await list()).history).toEqual([]);
  });

  it('refuses offsets past +-14:00 and dates that do not round-trip, naming the item, and keeps real ones', async () => {
    await clear();
    const bad = [
      '2025-03-14T08:30:00+99:00',
      '2025-03-14T08:30:00-14:30',
      '2025-03-14T08:30:00+05:60',
      '2025-03-14T23:60:00Z',
      '2025-03-14T24:00:00Z',
      '2025-03-14T08:30:61Z',
      '2025-02-29',
    ];
    for (const publishedAt of bad) {
      const res = await importJson({ items: [{ text: 'fine' }, { text: 'impossible date', publishedAt }] });
      expect(res.status, publishedAt).toBe(400);
      expect(res.body.error.details, publishedAt).toEqual([
        expect.objectContaining({
          path: 'items[1].publishedAt',
          message: expect.stringMatching(/offset between -14:00 and \+14:00/),
        }),
      ]);
    }
    const csv = await importCsv('text,publishedAt\nfine,2025-03-14\nimpossible,2025-03-14T08:30:00+99:00\n');
    expect(csv.status).toBe(400);
    expect(csv.body.error.details.map((d: { path: string }) => d.path)).toEqual(['line 3.publishedAt']);
    expect((await list()).history).toEqual([]);

    // The extremes real zones use are kept, to the minute.
    const res = await importJson({
      items: [
        { text: 'Kiritimati', publishedAt: '2025-03-14T08:30:00+14:00' },
        { text: 'Baker Island', publishedAt: '2025-03-14T08:30:00-12:00' },
        { text: 'Nepal', publishedAt: '2025-03-14T08:30:00+0545' },
        { text: 'Leap day', publishedAt: '2024-02-29T23:59:59Z' },
      ],
    });
    expect(res.status, res.text).toBe(201);
    const byText = Object.fromEntries((await list()).history.map((h) => [h.text, h.publishedAt]));
    expect(byText).toEqual({
      Kiritimati: Date.UTC(2025, 2, 13, 18, 30),
      'Baker Island': Date.UTC(2025, 2, 14, 20, 30),
      Nepal: Date.UTC(2025, 2, 14, 2, 45),
      'Leap day': Date.UTC(2024, 1, 29, 23, 59, 59),
    });
    await clear();
  });

  it('takes 1,000 items and refuses 1,001', async () => {
    await clear();
    const items = Array.from({ length: 1_001 }, (_, i) => ({
      text: `Post number ${i} ${'x'.repeat(1_200)}`,
      reactions: i,
    }));
    const tooMany = await importJson({ items });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].path).toBe('items');
    const res = await importJson({ items: items.slice(0, 1_000) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ imported: 1_000, duplicates: 0, total: 1_000 });
    expect(await clear()).toEqual({ deleted: 1_000 });
  });

  it('answers 415 for a body that is neither JSON nor CSV', async () => {
    const res = await t.request('POST', '/v1/history', {
      key,
      raw: '<items/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
  });
});

describe('POST /v1/history (CSV)', () => {
  it('reads a header row with export names, quoted multi-line text and a BOM', async () => {
    await clear();
    const csv = [
      '\uFEFFauthor,content,numLikes,numComments,reposts,date,media_type,followers',
      'me,"First line\nsecond line, with a comma",1,234,5,2025-04-01,image,',
      'me,"He said ""hi""",7,0,,2025-04-02T10:00:00Z,Text-only,100',
      'me,Just text,,,,,,',
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ imported: 3, duplicates: 0, total: 3 });
    const { history } = await list();
    expect(history.map((h) => h.text)).toEqual([
      'He said "hi"',
      'First line\nsecond line, with a comma',
      'Just text',
    ]);
    expect(history[0]).toMatchObject({
      reactions: 7,
      comments: 0,
      shares: null,
      media: 'none',
      publishedAt: Date.UTC(2025, 3, 2, 10),
    });
    expect(history[1]).toMatchObject({
      reactions: 1,
      comments: 234,
      shares: 5,
      media: 'single-image',
      publishedAt: Date.UTC(2025, 3, 1),
    });
    expect(history[2]).toMatchObject({ reactions: null, publishedAt: null, engagement: null });
  });

  it('accepts the field names themselves and thousands separators', async () => {
    await clear();
    const res = await importCsv(
      'text,reactions,comments,shares,impressions,clicks,publishedAt,platform,media\n"Hello",1,2,3,"12,400",5,1735689600000,platformB,video\n',
    );
    expect(res.status, res.text).toBe(201);
    expect((await list()).history[0]).toMatchObject({
      text: 'Hello',
      impressions: 12_400,
      clicks: 5,
      publishedAt: 1_735_689_600_000,
      platform: 'platformB',
      media: 'video',
    });
  });

  it('names the CSV line and column of every bad cell and stores nothing', async () => {
    await clear();
    const csv =
      'commentary,likes,date,media_type\nok,3,2025-01-01,image\nbad,three,2025-01-01,image\nworse,4,yesterday,hologram\n';
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /2 of 3 CSV rows are invalid; nothing was imported. Fix them as listed/,
    );
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(['line 3.likes', 'line 4.media_type', 'line 4.date']);
    expect((await list()).history).toEqual([]);
  });

  it('refuses a CSV without a text column, without rows, or broken', async () => {
    for (const csv of [
      'likes,comments\n1,2\n',
      'text,likes\n',
      'text,likes\n"unclosed,1\n',
      'text,likes\na,1,extra\n',
    ]) {
      const res = await importCsv(csv);
      expect(res.status, csv).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const nul = await importCsv('text,likes\n"bad\u0000text",1\n');
    expect(nul.status).toBe(400);
    expect((await list()).history).toEqual([]);
    const rows = Array.from({ length: 1_001 }, (_, i) => `post ${i},1`).join('\n');
    const res = await importCsv(`text,likes\n${rows}\n`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/at most 1000/);
  });
});

describe('DELETE /v1/history', () => {
  it('deletes one entry, then the rest', async () => {
    await clear();
    await importJson({ items: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    const [first] = (await list()).history;
    const del = await t.request('DELETE', `/v1/history/${first!.id}`, { key });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ deleted: true });
    expect((await t.request('DELETE', `/v1/history/${first!.id}`, { key })).status).toBe(404);
    expect((await list()).history).toHaveLength(2);
    expect(await clear()).toEqual({ deleted: 2 });
    expect(await clear()).toEqual({ deleted: 0 });
  });
});

describe('tenancy', () => {
  it('keeps each account’s history to itself on every route', async () => {
    await clear();
    await clear(other);
    await importJson({ items: [{ text: 'Mine alone', reactions: 9 }] });
    const [mine] = (await list()).history;

    expect((await list(other)).history).toEqual([]);
    const del = await t.request('DELETE', `/v1/history/${mine!.id}`, { key: other });
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('not_found');
    expect(await clear(other)).toEqual({ deleted: 0 });
    // The same text in another account is a new entry there, not an update of mine.
    const theirs = await importJson({ items: [{ text: 'Mine alone', reactions: 1 }] }, other);
    expect(theirs.body).toEqual({ imported: 1, duplicates: 0, total: 1 });
    expect((await list()).history).toEqual([mine]);
    expect((await t.request('GET', '/v1/history')).status).toBe(401);
    expect((await t.request('POST', '/v1/history', { body: { items: [{ text: 'x' }] } })).status).toBe(401);
    expect((await t.request('DELETE', '/v1/history')).status).toBe(401);
  });
});
