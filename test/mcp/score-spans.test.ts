import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callOk, connectClient } from './helpers.ts';

/**
 * An agent reads the same signals a writer does (issue 32 items 1 and 2): score_post gives each
 * signal its concept, at most one per concept, and the spans of the words it is about, as
 * UTF-16 offsets into the post the agent sent, on the offline engine.
 */
let t: TestApp;
let client: Client;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  const { apiKey } = await t.signup();
  key = apiKey;
  client = await connectClient(t.url, apiKey);
});
afterAll(async () => {
  await client?.close();
  await t?.close();
});

// White space around the post and Windows line endings: the spans still point into the text as sent.
const POST =
  '  Here’s the thing nobody tells you about success.\r\n\r\nIt is about showing up when nobody is watching.\r\n\r\nRead that again.\r\n\r\nRepost if you agree ♻️\r\n';

it('score_post names each signal’s concept once and points the generic-text signal at its words', async () => {
  const { data, summary } = await callOk(client, 'score_post', { post: POST, platform: 'platformA' });
  type Span = { start: number; end: number };
  const signals = data.signals as { concept: string; label: string; spans: Span[] }[];
  const concepts = signals.map((s) => s.concept);
  expect(new Set(concepts).size).toBe(concepts.length);
  for (const s of signals)
    for (const span of s.spans) {
      expect(span.start).toBeGreaterThanOrEqual(0);
      expect(span.end).toBeLessThanOrEqual(POST.length);
      expect(span.end).toBeGreaterThan(span.start);
    }
  const generic = signals.find((s) => s.concept === 'generic')!;
  expect(generic.label).toBe('Generic text');
  const words = generic.spans.map((s) => POST.slice(s.start, s.end));
  expect(words).toEqual(expect.arrayContaining(['Here’s the thing', 'Read that again', 'Repost if']));
  expect(summary).toContain('The feed demotes engagement bait');
});

it('POST /v1/score points into the text as sent too, whether the normalised twin was scored first or not', async () => {
  type Span = { start: number; end: number };
  const normalised = POST.trim().replaceAll('\r\n', '\n');
  const genericWords = async (post: string) => {
    const res = await t.request('POST', '/v1/score', { key, body: { post, platform: 'platformA' } });
    expect(res.status).toBe(200);
    const signals = (res.body as { signals: { concept: string; spans: Span[] }[] }).signals;
    return signals.find((s) => s.concept === 'generic')!.spans.map((s) => post.slice(s.start, s.end));
  };
  // The normalised text first, so the submitted one is a cache hit of it.
  expect(await genericWords(normalised)).toEqual(['Here’s the thing', 'Read that again', 'Repost if']);
  expect(await genericWords(POST)).toEqual(['Here’s the thing', 'Read that again', 'Repost if']);
});
