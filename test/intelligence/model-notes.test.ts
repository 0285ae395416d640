import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type FakeModel, modelAppEnv, startFakeModel } from './fake-model.ts';

/**
 * Issue 32 on the model path: the notes a language model writes beside the score obey the note
 * rules. The fake model server on loopback answers the judge with notes that break one rule each
 * (beside one that breaks none): the judge is asked again with the reasons, and a note still
 * breaking its rule never reaches the writer, while the grades and the good note stand.
 */

let fake: FakeModel;
let t: TestApp;
let key: string;
let n = 0;

// No closing question, no planned time: the rules speak for length, opening, layout, sentences,
// specifics and voice, not for questions, story or timing.
const POST =
  'I rebuilt our billing in 3 sprints.\n\nThe old flow double-charged customers. Nobody noticed for nine days.';

interface Note {
  dimension: string;
  concept?: string;
  impact: 'positive' | 'negative';
  weight: number;
  label: string;
  detail: string;
}
interface Signal {
  label: string;
  concept: string;
  rule?: string;
  detail: string;
}

const GOOD: Note = {
  dimension: 'engagement',
  concept: 'timing',
  impact: 'negative',
  weight: 2,
  label: 'No planned time',
  detail: 'Pick when it goes out before you schedule it.',
};
const SCORES = { hook: 70, specificity: 65, voice: 72, engagement: 60, structure: 66 };

const judged =
  (notes: Note[], scores = SCORES) =>
  () => ({
    kind: 'json' as const,
    value: { scores, signals: notes },
  });

async function score(
  replies: ReturnType<typeof judged>[],
): Promise<{ signals: Signal[]; calls: number; retry: string | null; status: number }> {
  for (const r of replies) fake.next('judge', r);
  const before = fake.callsFor('judge');
  const res = await t.request('POST', '/v1/score', {
    key,
    body: { post: POST, authorName: `Writer ${++n}` },
  });
  const calls = fake.calls.filter((c) => c.task === 'judge').slice(before);
  return {
    status: res.status,
    signals: res.body.signals,
    calls: calls.length,
    retry: calls[1] ? JSON.stringify(calls[1].request.messages) : null,
  };
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

const BREAKS: { rule: string; note: Note; scores?: typeof SCORES; retryNames: RegExp }[] = [
  {
    rule: 'a concept a rule signal speaks for',
    note: {
      dimension: 'specificity',
      impact: 'positive',
      weight: 3,
      label: 'Real figures',
      detail: 'The post gives a number of sprints.',
    },
    retryNames: /speaks about specifics, which the score or an earlier note already speaks for/,
  },
  {
    rule: 'a concept a rule speaks for, named in the words of a note filed elsewhere',
    note: {
      dimension: 'engagement',
      concept: 'story',
      impact: 'negative',
      weight: 2,
      label: 'Story buried',
      detail: 'The opening line should say what went wrong.',
    },
    retryNames: /speaks about opening, which the score or an earlier note already speaks for/,
  },
  {
    rule: "the score's direction",
    note: {
      dimension: 'engagement',
      concept: 'questions',
      impact: 'positive',
      weight: 3,
      label: 'Invites replies',
      detail: 'Readers are given a reason to reply.',
    },
    // Graded far below a typical post: the score counts the pull to reply against the post.
    scores: { ...SCORES, engagement: 8 },
    retryNames: /says the questions helps while the score counts it the other way/,
  },
  {
    rule: 'internal names and ids',
    note: {
      dimension: 'engagement',
      concept: 'timing',
      impact: 'negative',
      weight: 2,
      label: 'Publish later',
      detail: 'Per timing.peak_hour and algorithmFit, post pst_AbCdEfGhIjKlMnOpQrSt later.',
    },
    retryNames: /names .*timing\.peak_hour.*algorithmFit.*pst_AbCdEfGhIjKlMnOpQrSt/,
  },
  {
    rule: 'epoch numbers',
    note: {
      dimension: 'engagement',
      concept: 'timing',
      impact: 'negative',
      weight: 2,
      label: 'Publish later',
      detail: 'Publish at 1764756000000 instead.',
    },
    retryNames: /gives a raw timestamp/,
  },
];

describe('model notes beside the score obey the note rules', () => {
  for (const { rule, note, scores, retryNames } of BREAKS) {
    it(`a note breaking ${rule} is sent back once with the reason, then left out`, async () => {
      const answer = judged(
        rule.includes('internal') || rule.includes('epoch') ? [note] : [note, GOOD],
        scores,
      );
      const r = await score([answer, answer]);
      expect(r.status).toBe(200);
      expect(r.calls).toBe(2);
      expect(r.retry).toContain('previous answer was rejected');
      expect(r.retry).toMatch(retryNames);
      expect(r.signals.map((s) => s.label)).not.toContain(note.label);
      for (const s of r.signals)
        expect(`${s.label} ${s.detail}`).not.toMatch(/1764756000000|pst_|peak_hour|algorithmFit/);
    });
  }

  it('a note that obeys the rules is shown once, under its concept, with no rule name', async () => {
    const r = await score([judged([GOOD])]);
    expect(r.calls).toBe(1);
    const shown = r.signals.filter((s) => s.label === GOOD.label);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({ concept: 'timing', detail: GOOD.detail });
    expect(shown[0]!.rule).toBeUndefined();
    // At most one signal per concept, notes included.
    const concepts = r.signals.map((s) => s.concept);
    expect(new Set(concepts).size).toBe(concepts.length);
  });

  it('a note mended on its retry is shown', async () => {
    const bad = { ...GOOD, detail: 'Publish at 1764756000 instead.' };
    const r = await score([judged([bad]), judged([GOOD])]);
    expect(r.calls).toBe(2);
    expect(r.signals.filter((s) => s.label === GOOD.label)).toHaveLength(1);
  });

  it('two notes on one concept: only the first is shown', async () => {
    const second = { ...GOOD, label: 'Timing unknown', detail: 'No day is set for it yet.' };
    const r = await score([judged([GOOD, second]), judged([GOOD, second])]);
    expect(r.calls).toBe(2);
    expect(r.retry).toMatch(/Timing unknown\\" speaks about timing/);
    const labels = r.signals.map((s) => s.label);
    expect(labels).toContain(GOOD.label);
    expect(labels).not.toContain(second.label);
  });

  it('the scorer drops a note the score counts the other way even when the judge could not know', async () => {
    // Story is no judged grade and no rule fired on it, but the learned features count this
    // post's lack of a story against it: a note praising the story contradicts the score.
    const praise: Note = {
      dimension: 'engagement',
      concept: 'story',
      impact: 'positive',
      weight: 3,
      label: 'Personal story',
      detail: 'The writer tells what happened to them.',
    };
    const r = await score([judged([praise, GOOD])]);
    expect(r.calls).toBe(1);
    const labels = r.signals.map((s) => s.label);
    expect(labels).not.toContain(praise.label);
    expect(labels).toContain(GOOD.label);
  });
});
