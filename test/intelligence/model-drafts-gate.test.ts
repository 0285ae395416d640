import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftCheck } from '../../src/domain/enums.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type FakeModel, modelAppEnv, startFakeModel } from './fake-model.ts';

/**
 * Issue 34 item 4: a language model's drafts are held to the checks the offline drafts are held
 * to. The fake model server on loopback returns drafts that break one check each, twice (the
 * answer and its one retry): the offline engine's draft stands in, and the candidate says so,
 * naming the check. A draft that passes is the model's own.
 */

let fake: FakeModel;
let t: TestApp;
let key: string;
let n = 0;

const BRIEF =
  'We cut deploy time from 42 minutes to 6 at Initrode. The fix was caching the Docker layers in Buildkite.';
const GOOD =
  'Deploys at Initrode took 42 minutes. Now they take 6.\n\nThe fix: caching the Docker layers in Buildkite.\n\nWhat would you cache first?';

interface Candidate {
  post: string;
  thread: string[];
  writtenBy: { engine: 'model' | 'offline'; failedCheck: DraftCheck | null; note: string };
}

const answer = (posts: string[]) => () => ({
  kind: 'json' as const,
  value: { candidates: posts.map((post) => ({ post })) },
});

/** Generates with the fake model answering `replies` in turn; a fresh author keeps each call uncached. */
async function generate(
  replies: string[][],
  body: Record<string, unknown> = {},
): Promise<{ candidates: Candidate[]; calls: number; prompts: string[] }> {
  for (const r of replies) fake.next('generate', answer(r));
  const before = fake.callsFor('generate');
  const res = await t.request('POST', '/v1/generate', {
    key,
    body: { brief: BRIEF, count: 1, authorName: `Author ${++n}`, ...body },
  });
  expect(res.status, res.text).toBe(200);
  const prompts = fake.calls
    .filter((c) => c.task === 'generate')
    .slice(before)
    .map((c) => JSON.stringify(c.request.messages));
  return { candidates: res.body.candidates, calls: fake.callsFor('generate') - before, prompts };
}

beforeAll(async () => {
  fake = await startFakeModel();
  t = await startTestApp(modelAppEnv(fake));
  ({ apiKey: key } = await t.signup());
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const filler = (times: number) =>
  Array.from({ length: times }, () => 'Every build now reuses the cached layers.');

/** One draft per check, breaking that check alone, and the plain words a writer is told. */
const BREAKS: { check: DraftCheck; draft: string; platform?: string; told: RegExp }[] = [
  { check: 'labels', draft: `Audience: platform engineers.\n\n${GOOD}`, told: /label or instruction/ },
  {
    check: 'numbers',
    draft: GOOD.replace('Now they take 6.', 'Now they are fast.'),
    told: /number the brief gives \(6\)/,
  },
  { check: 'names', draft: GOOD.replace(' in Buildkite', ''), told: /name the brief gives \(Buildkite\)/ },
  { check: 'invented', draft: `${GOOD}\n\nCloud costs fell 30%.`, told: /does not give \(30\)/ },
  {
    check: 'ai_tells',
    draft: `In today's fast-paced world, speed matters.\n\n${GOOD}`,
    told: /reads as machine-written \(in today's fast-paced\)/,
  },
  {
    check: 'bait',
    draft: GOOD.replace('What would you cache first?', 'Comment YES and I will send you the config.'),
    told: /added engagement bait the feed demotes \("comment yes"\)/,
  },
  { check: 'blanks', draft: `${GOOD}\n\nWhy it matters: [the reason, in one line].`, told: /left a blank/ },
  {
    check: 'length',
    draft: `${GOOD}\n\n${filler(80).join(' ')}`,
    told: /ran over platformA's limit of 3,000 characters/,
  },
  {
    check: 'length',
    platform: 'platformB',
    // 30 paragraphs of their own: more than the 25 parts a platformB thread holds.
    draft: [GOOD, ...filler(30).map((s, i) => `${s} Step ${['one', 'two', 'three'][i % 3]}.`.repeat(5))].join(
      '\n\n',
    ),
    told: /too long for a platformB thread of 25 parts/,
  },
];

describe('model drafts pass the checks on the brief, or the offline engine stands in', () => {
  for (const { check, draft, platform, told } of BREAKS) {
    it(`a draft that breaks "${check}"${platform ? ` on ${platform}` : ''} twice is replaced by an offline draft that says so`, async () => {
      const r = await generate([[draft], [draft]], platform ? { platform } : {});
      expect(r.calls).toBe(2);
      // The retry told the model what was wrong.
      expect(r.prompts[1]).toContain('previous answer was rejected');
      expect(r.prompts[1]).toContain('draft 1:');
      const [c] = r.candidates;
      expect(c!.writtenBy.engine).toBe('offline');
      expect(c!.writtenBy.failedCheck).toBe(check);
      expect(c!.writtenBy.note).toMatch(/^Written by the offline engine: the language model's draft /);
      expect(c!.writtenBy.note).toMatch(told);
      expect(c!.writtenBy.note).toMatch(/even after one retry\.$/);
      // What the writer gets is not the failing draft, and keeps the brief's figures.
      const all = [c!.post, ...c!.thread].join('\n\n');
      expect(all).not.toBe(draft);
      for (const fact of ['42', '6', 'Initrode']) expect(all).toContain(fact);
    });
  }

  it('a draft that passes is the model’s own, in one call', async () => {
    const r = await generate([[GOOD]]);
    expect(r.calls).toBe(1);
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]).toMatchObject({
      post: GOOD,
      writtenBy: { engine: 'model', failedCheck: null, note: 'Written by the language model.' },
    });
  });

  it('a draft fixed on its retry is the model’s', async () => {
    const r = await generate([[`Tone: upbeat.\n\n${GOOD}`], [GOOD]]);
    expect(r.calls).toBe(2);
    expect(r.prompts[1]).toContain('Tone:');
    expect(r.candidates[0]!.writtenBy.engine).toBe('model');
    expect(r.candidates[0]!.post).toBe(GOOD);
  });

  it('only the failing draft of several is replaced; a twin structure counts as a failure', async () => {
    const twin = GOOD.replace('What would you cache first?', 'Which step would you cache first?');
    const list =
      'Initrode deploys: 42 minutes before, 6 after.\n\n- Cache the Docker layers\n- Run it in Buildkite\n\nWhat did caching save you?';
    const r = await generate(
      [
        [GOOD, twin, list],
        [GOOD, twin, list],
      ],
      { count: 3 },
    );
    expect(r.calls).toBe(2);
    const by = r.candidates.map((c) => c.writtenBy);
    expect(by.filter((b) => b.engine === 'model')).toHaveLength(2);
    const offline = by.filter((b) => b.engine === 'offline');
    expect(offline).toHaveLength(1);
    expect(offline[0]!.failedCheck).toBe('structure');
    expect(r.candidates.map((c) => c.post)).not.toContain(twin);
  });

  it('without a model configured every draft says the offline engine wrote it', async () => {
    const offline = await startTestApp();
    try {
      const { apiKey } = await offline.signup();
      const res = await offline.request('POST', '/v1/generate', {
        key: apiKey,
        body: { brief: BRIEF, count: 2 },
      });
      expect(res.status).toBe(200);
      for (const c of res.body.candidates as Candidate[])
        expect(c.writtenBy).toEqual({
          engine: 'offline',
          failedCheck: null,
          note: "Written by the offline engine from the brief's own words; no language model is configured.",
        });
    } finally {
      await offline.close();
    }
  });
});
