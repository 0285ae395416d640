import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../src/db/schema/index.ts';
import { readBulkCsv } from '../../src/features/posts/bulk-csv.ts';
import { csvRecord, escapeCell, unescapeCell } from '../../src/features/posts/csv-cells.ts';
import { type Member, type PostWorld, startPostWorld, uploadImage } from './world.ts';

/**
 * POST /v1/posts/bulk-schedule with a CSV body (all or nothing, per-row report, dry run) and
 * GET /v1/posts/export (streamed, importable again). Runs on both backends.
 */
let w: PostWorld;
let alice: Member;
let bob: Member;

beforeAll(async () => {
  w = await startPostWorld();
  alice = await w.member();
  bob = await w.member();
});
afterAll(async () => {
  await w?.close();
});

const HOUR = 3_600_000;
const csvPost = (m: Member, csv: string, query = '', headers: Record<string, string> = {}) =>
  w.t.request('POST', `/v1/posts/bulk-schedule${query}`, {
    key: m.apiKey,
    raw: csv,
    headers: { 'content-type': 'text/csv', ...headers },
  });
const csvOf = (rows: string[][]) => rows.map((r) => csvRecord(r)).join('');

async function countPosts(m: Member) {
  return (await w.t.service.deps.db.select().from(posts).where(eq(posts.accountId, m.accountId))).length;
}

describe('formula cells', () => {
  it('escapes formula-looking cells on export and restores them on import, exactly', () => {
    for (const text of [
      '=SUM(A1:A9)',
      '+1 for this',
      '-5 degrees',
      '@channel hello',
      "'=already",
      "''+x",
      'plain',
    ]) {
      expect(unescapeCell(escapeCell(text))).toBe(text);
    }
    expect(escapeCell('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    expect(escapeCell('plain')).toBe('plain');
    expect(escapeCell("it's fine")).toBe("it's fine");
  });
});

describe('the CSV reader', () => {
  it('maps each row onto a bulk item, a queue column onto queue: true', () => {
    const { rows } = readBulkCsv(
      csvOf([
        ['Text', 'Run At', 'channelId', 'Queue', 'mediaIds', 'thread', 'status'],
        ['Timed', '2030-01-01T09:00:00+01:00', 'chn_1', '', 'med_1, med_2', '', 'draft'],
        ['Queued', '', 'chn_1', 'true', '', '["two","three"]', 'scheduled'],
      ]),
    );
    expect(rows).toEqual([
      {
        row: 2,
        item: {
          text: 'Timed',
          runAt: Date.UTC(2030, 0, 1, 8),
          channelId: 'chn_1',
          mediaIds: ['med_1', 'med_2'],
        },
        errors: [],
      },
      {
        row: 3,
        item: { text: 'Queued', channelId: 'chn_1', queue: true, thread: ['two', 'three'] },
        errors: [],
      },
    ]);
  });

  it('refuses a local time without its offset, naming the row and the column as spelled', () => {
    const { rows } = readBulkCsv(
      csvOf([
        ['text', 'RunAt'],
        ['a', '2030-01-01 09:00'],
      ]),
    );
    expect(rows[0]!.errors).toEqual([
      { path: 'row 2.RunAt', message: expect.stringContaining('ISO 8601 time with its offset') },
    ]);
  });

  it('refuses a file with no text column or more than 1,000 rows, whole', () => {
    expect(() => readBulkCsv('body,runAt\nx,1\n')).toThrow(/no text column/);
    const big = csvOf([
      ['text', 'runAt'],
      ...Array.from({ length: 1001 }, (_, i) => [`p${i}`, '9999999999999']),
    ]);
    expect(() => readBulkCsv(big)).toThrow(/1001 posts; send at most 1000/);
  });
});

describe('CSV bulk schedule', () => {
  it('schedules a file with a BOM, quoted commas, quotes and line breaks, and formula text kept as text', async () => {
    const runAt = w.clock.now() + HOUR;
    const csv = `\uFEFF${csvOf([
      ['text', 'runAt', 'channelId', 'platform', 'firstComment'],
      ['Hello, "world"\nsecond line', String(runAt), alice.channelId, 'platformA', ''],
      ['=1+2 is three', new Date(runAt + 60_000).toISOString(), alice.channelId, '', '@you see this?'],
      ["'-5 degrees out", String(runAt), alice.channelId, '', ''],
    ])}`;
    const res = await csvPost(alice, csv);
    expect(res.status, res.text).toBe(201);
    expect(res.body.posts.map((p: { text: string }) => p.text)).toEqual([
      'Hello, "world"\nsecond line',
      '=1+2 is three',
      '-5 degrees out',
    ]);
    expect(res.body.posts[1]).toMatchObject({
      status: 'scheduled',
      scheduledFor: runAt + 60_000,
      firstComment: '@you see this?',
      channelId: alice.channelId,
      platform: 'platformA',
    });
    expect(res.body.pagination).toEqual({ limit: 3, offset: 0, hasMore: false });
  });

  it('1,000 rows with one bad row: 400 naming that row, nothing written; the fixed file schedules all 1,000', async () => {
    const before = await countPosts(bob);
    const runAt = w.clock.now() + HOUR;
    const rows = Array.from({ length: 1000 }, (_, i) => [`Bulk post ${i}`, String(runAt + i), bob.channelId]);
    rows[736]![1] = 'next tuesday';
    const res = await csvPost(bob, csvOf([['text', 'runAt', 'channelId'], ...rows]));
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toBe(
      '1 of 1000 rows is invalid; nothing was scheduled. Fix it as listed and send the file again.',
    );
    expect(res.body.error.details).toEqual([
      { path: 'row 738.runAt', message: expect.stringContaining('"next tuesday" is not a time') },
    ]);
    expect(await countPosts(bob)).toBe(before);

    rows[736]![1] = String(runAt + 736);
    const fixed = await csvPost(bob, csvOf([['text', 'runAt', 'channelId'], ...rows]));
    expect(fixed.status, fixed.text.slice(0, 300)).toBe(201);
    expect(fixed.body.posts).toHaveLength(1000);
    expect(await countPosts(bob)).toBe(before + 1000);
  });

  it('reports rule problems (another account’s channel, a past time, too long) per row, with the file’s column names', async () => {
    const runAt = w.clock.now() + HOUR;
    const res = await csvPost(
      alice,
      csvOf([
        ['Text', 'RunAt', 'Channel'],
        ['fine', String(runAt), alice.channelId],
        ['not mine', String(runAt), bob.channelId],
        ['too early', String(w.clock.now() - 1), alice.channelId],
        ['x'.repeat(3001), String(runAt), alice.channelId],
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^3 of 4 rows are invalid/);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(['row 3.Channel', 'row 4.RunAt', 'row 5.Text']);
  });

  it('a queue row takes the channel’s next free slot; without slots its row says how to fix it', async () => {
    const file = csvOf([
      ['text', 'queue', 'channelId'],
      ['from the queue', 'yes', alice.channelId],
      ['and the next one', 'true', alice.channelId],
    ]);
    const refused = await csvPost(alice, file, '?dryRun=true');
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.valid).toBe(false);
    expect(refused.body.rows[0].row).toBe(2);
    expect(refused.body.rows[0].errors).toEqual([
      { path: 'row 2.queue', message: expect.stringContaining('has no queue slots') },
    ]);

    const slots = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: '09:00' }));
    const put = await w.t.request('PUT', `/v1/channels/${alice.channelId}/queue`, {
      key: alice.apiKey,
      body: { timezone: 'Europe/Paris', slots },
    });
    expect(put.status, put.text).toBe(200);
    const res = await csvPost(alice, file);
    expect(res.status, res.text).toBe(201);
    const times = res.body.posts.map((p: { scheduledFor: number }) => p.scheduledFor);
    expect(new Set(times).size).toBe(2);
    expect(times.every((t: number) => t > Date.now())).toBe(true);
    await w.t.request('DELETE', `/v1/channels/${alice.channelId}/queue`, { key: alice.apiKey });
  });

  it('a dry run answers every row with its problems and score, and writes nothing', async () => {
    const before = await countPosts(alice);
    const image = await uploadImage(w.t, alice);
    const runAt = w.clock.now() + HOUR;
    const res = await csvPost(
      alice,
      csvOf([
        ['text', 'runAt', 'channelId', 'mediaIds'],
        [
          'I shipped the migration tool last week. Here is what broke first.',
          String(runAt),
          alice.channelId,
          image,
        ],
        ['no time at all', '', alice.channelId, ''],
        ['missing media', String(runAt), alice.channelId, 'med_nope'],
      ]),
      '?dryRun=true',
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.valid).toBe(false);
    const [good, noTime, noMedia] = res.body.rows;
    expect(good).toEqual({ row: 2, ok: true, errors: [], score: expect.any(Number) });
    expect(good.score).toBeGreaterThanOrEqual(0);
    expect(good.score).toBeLessThanOrEqual(100);
    expect(noTime).toEqual({
      row: 3,
      ok: false,
      errors: [{ path: 'row 3.runAt', message: expect.stringContaining('No time given') }],
    });
    expect(noMedia.errors).toEqual([
      { path: 'row 4.mediaIds[0]', message: 'No such media for this account' },
    ]);
    expect(await countPosts(alice)).toBe(before);

    // The same report for a JSON body, by item.
    const json = await w.t.request('POST', '/v1/posts/bulk-schedule?dryRun=true', {
      key: alice.apiKey,
      body: {
        items: [
          { text: 'ok', runAt, channelId: alice.channelId },
          { text: 'no time', channelId: alice.channelId },
        ],
      },
    });
    expect(json.status, json.text).toBe(200);
    expect(json.body.rows[0]).toMatchObject({ row: 1, ok: true });
    expect(json.body.rows[1]).toMatchObject({ row: 2, ok: false, errors: [{ path: 'items[1].runAt' }] });
    const notAnItem = await w.t.request('POST', '/v1/posts/bulk-schedule?dryRun=true', {
      key: alice.apiKey,
      body: { items: [5] },
    });
    expect(notAnItem.body.rows[0].errors.map((e: { path: string }) => e.path)).toEqual(['items[0]']);
    expect(await countPosts(alice)).toBe(before);
  });

  it('honours Idempotency-Key for a CSV body, and a dry run never replays as the import', async () => {
    const runAt = w.clock.now() + HOUR;
    const csv = csvOf([
      ['text', 'runAt', 'channelId'],
      ['Idempotent CSV', String(runAt), alice.channelId],
    ]);
    const key = `csv-${Date.now()}`;
    const dry = await csvPost(alice, csv, '?dryRun=true', { 'idempotency-key': `${key}-dry` });
    expect(dry.status).toBe(200);
    const first = await csvPost(alice, csv, '', { 'idempotency-key': key });
    expect(first.status, first.text).toBe(201);
    const again = await csvPost(alice, csv, '', { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.body.posts[0].id).toBe(first.body.posts[0].id);
    const other = await csvPost(
      alice,
      `${csv}${csvRecord(['Another', String(runAt), alice.channelId])}`,
      '',
      {
        'idempotency-key': key,
      },
    );
    expect(other.status).toBe(422);
    // The dry run's key is bound to the dry run: the import with it is another request.
    const reused = await csvPost(alice, csv, '', { 'idempotency-key': `${key}-dry` });
    expect(reused.status).toBe(422);
  });

  it('refuses an unreadable file and a bad dryRun value clearly', async () => {
    const bad = await csvPost(alice, 'text,runAt\n"unclosed,1\n');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^The CSV could not be read/);
    const query = await csvPost(alice, 'text\nx\n', '?dryRun=maybe');
    expect(query.status).toBe(400);
    expect(query.body.error.details).toEqual([
      { path: 'querystring.dryRun', message: 'Must be true or false' },
    ]);
  });
});

describe('export', () => {
  it('exports CSV that imports again into the same posts (round trip), formula text included', async () => {
    const carol = await w.member();
    const runAt = w.clock.now() + 2 * HOUR;
    const texts = ['=cmd|calc', 'Line one\nline "two", with comma', '@here: launch day', 'plain words'];
    const made = await w.t.request('POST', '/v1/posts/bulk-schedule', {
      key: carol.apiKey,
      body: {
        items: texts.map((text, i) => ({
          text,
          runAt: runAt + i * 60_000,
          channelId: carol.channelId,
          ...(i === 1 ? { firstComment: '-dash first' } : {}),
        })),
      },
    });
    expect(made.status, made.text).toBe(201);
    const exported = await w.t.request('GET', '/v1/posts/export?format=csv', { key: carol.apiKey });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(exported.headers.get('content-disposition')).toMatch(
      /^attachment; filename="posts-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    // The bytes open with the UTF-8 BOM (fetch's text() drops it), so spreadsheets read UTF-8.
    const bytes = Buffer.from(
      await (
        await fetch(`${w.t.url}/v1/posts/export`, { headers: { authorization: `Bearer ${carol.apiKey}` } })
      ).arrayBuffer(),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    // Formula cells leave escaped: a spreadsheet shows them as text.
    expect(exported.text).toContain("'=cmd|calc");
    expect(exported.text).toContain("'@here: launch day");
    expect(exported.text).not.toMatch(/(^|,)=cmd/m);

    await w.t.request('DELETE', `/v1/posts/${made.body.posts[0].id}`, { key: carol.apiKey });
    const reimported = await w.t.request('POST', '/v1/posts/bulk-schedule', {
      key: carol.apiKey,
      raw: bytes,
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(reimported.status, reimported.text).toBe(201);
    const key = (p: { text: string; scheduledFor: number; firstComment: string | null; channelId: string }) =>
      `${p.text}|${p.scheduledFor}|${p.firstComment}|${p.channelId}`;
    expect(reimported.body.posts.map(key).sort()).toEqual(made.body.posts.map(key).sort());
  });

  it('exports JSON with the list filters, and only the caller’s posts', async () => {
    const dave = await w.member();
    const draft = await w.t.request('POST', '/v1/posts', { key: dave.apiKey, body: { text: 'Dave draft' } });
    await w.t.request('POST', '/v1/posts', {
      key: dave.apiKey,
      body: { text: 'Dave scheduled', channelId: dave.channelId, runAt: w.clock.now() + HOUR },
    });
    const all = await w.t.request('GET', '/v1/posts/export?format=json', { key: dave.apiKey });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(all.body.posts.map((p: { text: string }) => p.text)).toEqual(['Dave scheduled', 'Dave draft']);
    const drafts = await w.t.request('GET', '/v1/posts/export?format=json&status=draft', {
      key: dave.apiKey,
    });
    expect(drafts.body.posts).toEqual([draft.body.post]);
    // Another account's export never holds Dave's posts, in either format.
    const other = await w.t.request('GET', '/v1/posts/export?format=json', { key: alice.apiKey });
    expect(other.body.posts.some((p: { accountId: string }) => p.accountId === dave.accountId)).toBe(false);
    const otherCsv = await w.t.request('GET', '/v1/posts/export', { key: alice.apiKey });
    expect(otherCsv.text).not.toContain('Dave');
    const bad = await w.t.request('GET', '/v1/posts/export?format=xml', { key: dave.apiKey });
    expect(bad.status).toBe(400);
    expect((await w.t.request('GET', '/v1/posts/export')).status).toBe(401);
  });

  it('streams page by page: a large export arrives in chunks and holds every post once', async () => {
    const { exportPosts } = await import('../../src/features/posts/export.service.ts');
    const ctx = { deps: w.t.service.deps, caller: { accountId: bob.accountId } } as never;
    const chunks: string[] = [];
    for await (const chunk of exportPosts({ ctx, input: { format: 'json', pageSize: 100 } }))
      chunks.push(chunk);
    const total = await countPosts(bob);
    expect(total).toBeGreaterThanOrEqual(1000);
    // '{"posts":[', one chunk per page of 100, ']}'.
    expect(chunks).toHaveLength(2 + Math.ceil(total / 100));
    const ids = (JSON.parse(chunks.join('')) as { posts: { id: string }[] }).posts.map((p) => p.id);
    expect(new Set(ids).size).toBe(total);

    // Over HTTP the body is chunked, not sent with a length computed from a buffered whole.
    const res = await fetch(`${w.t.url}/v1/posts/export`, {
      headers: { authorization: `Bearer ${bob.apiKey}` },
    });
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + total);
  });
});
