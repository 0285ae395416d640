import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriesSentence } from '../../web/src/lib/series-notice.ts';
import { type Member, type PostWorld, startPostWorld } from '../posts/world.ts';

/**
 * What Compose says after Repeat, for series the API really made (issue 33 item 7): a fixed
 * series inside the planning horizon is scheduled whole and says so; "more are added as the dates
 * come closer" belongs to a series with no end; a long fixed series says how many of how many.
 */
let w: PostWorld;
let m: Member;
const DAY = 86_400_000;
const when = (at: number) => new Date(at).toISOString();

beforeAll(async () => {
  w = await startPostWorld();
  m = await w.member();
});
afterAll(async () => {
  await w?.close();
});

async function start(repeat: Record<string, unknown>) {
  const runAt = w.clock.now() + DAY;
  const res = await w.t.request('POST', '/v1/posts', {
    key: m.apiKey,
    body: { text: `A weekly note ${JSON.stringify(repeat)}`, channelId: m.channelId, runAt, repeat },
  });
  expect(res.status, res.text).toBe(201);
  return { sentence: seriesSentence(res.body.series, res.body.post.scheduledFor, when), runAt };
}

describe('the series sentence', () => {
  it('a fixed three-post weekly series is scheduled whole, and says nothing of more to come', async () => {
    const { sentence, runAt } = await start({ every: { unit: 'week', n: 1 }, count: 3 });
    expect(sentence).toBe(`Scheduled all 3 posts of the series, the first for ${when(runAt)}.`);
  });

  it('a fixed series beyond the horizon says how many of how many, and that the rest follow', async () => {
    const { sentence, runAt } = await start({ every: { unit: 'week', n: 1 }, count: 10 });
    expect(sentence).toMatch(
      new RegExp(
        `^Scheduled (\\d) of the series’ 10 posts, the first for ${when(runAt).replace(/[.]/g, '\\.')}; the other (\\d) are added as their dates come closer\\.$`,
      ),
    );
    const [, made, rest] = /Scheduled (\d) of .* the other (\d) are/.exec(sentence)!;
    expect(Number(made) + Number(rest)).toBe(10);
  });

  it('a series ending on a date names the date; an open-ended one says more are added, with no end', async () => {
    const until = w.clock.now() + 120 * DAY;
    const dated = await start({ every: { unit: 'week', n: 1 }, until });
    expect(dated.sentence).toMatch(
      new RegExp(
        `; the rest, up to ${when(until).replace(/[.]/g, '\\.')}, are added as their dates come closer\\.$`,
      ),
    );
    const open = await start({ every: { unit: 'day', n: 2 } });
    expect(open.sentence).toMatch(
      /^Scheduled \d+ posts, the first for .*; more are added as the dates come closer, with no end date\.$/,
    );
  });

  it('one post and its plural are written as English', () => {
    const base = { kind: 'recurring', count: null, until: null, minGapDays: null } as const;
    expect(seriesSentence({ ...base, status: 'ended', occurrences: 1, count: 1 }, null)).toBe(
      'Scheduled the series’ only post.',
    );
    expect(seriesSentence({ ...base, status: 'active', occurrences: 4, count: 5 }, null)).toBe(
      'Scheduled 4 of the series’ 5 posts; the other one is added as its date comes closer.',
    );
    expect(
      seriesSentence(
        { ...base, kind: 'evergreen', minGapDays: 30, status: 'active', occurrences: 1, count: null },
        null,
      ),
    ).toBe(
      'Queued 1 post; more are queued as the dates come closer, at least 30 days apart, with no end date.',
    );
  });
});
