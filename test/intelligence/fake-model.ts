import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 for the model path.
 * By default it answers every task (named by response_format.json_schema.name) with a valid
 * structured answer built from the prompt; a test queues overrides per task to return
 * malformed JSON, an HTTP error or a stall.
 */

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  response_format?: { type: string; json_schema?: { name?: string; schema?: unknown } };
}

export type Reply =
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; content: string }
  | { kind: 'status'; status: number }
  | { kind: 'stall' };

export type Handler = (request: ChatRequest, prompt: string) => Reply;

const text = (c: ChatRequest['messages'][number]['content']) =>
  typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('');

/** The text between the last pair of """ fences in the prompt. */
export const fenced = (prompt: string) => {
  const parts = prompt.split('"""');
  return (parts.at(-2) ?? '').trim();
};

/** The concepts the judge prompt says the rules already speak for. */
export const spokenConcepts = (prompt: string) =>
  (/already speak for \(write no signal about them\): ([^\n]*)/.exec(prompt)?.[1] ?? '')
    .split(', ')
    .filter((c) => c && c !== 'none');

/** A judge note on the first of a few concepts the prompt leaves free. */
function freeNote(prompt: string) {
  const spoken = spokenConcepts(prompt);
  const concept = ['story', 'repetition', 'tags', 'timing'].find((c) => !spoken.includes(c)) ?? 'story';
  return {
    dimension: 'engagement',
    concept,
    impact: 'positive',
    weight: 2,
    label: `Model note on the ${concept}`,
    detail: `The model has one observation about the ${concept} of this post.`,
  };
}

const defaults: Record<string, Handler> = {
  judge: (_r, prompt) => ({
    kind: 'json',
    value: {
      scores: { hook: 82, specificity: 74, voice: 77, engagement: 69, structure: 71 },
      // One note that obeys the note rules: on a concept the rules do not speak for.
      signals: [freeNote(prompt)],
      // A model may try to set the overall; the service must ignore it.
      overall: 99,
    },
  }),
  rewrite: (_r, prompt) => {
    const original = fenced(prompt);
    const first = original.split(/(?<=[.!?])\s+/)[0] ?? original;
    return {
      kind: 'json',
      value: {
        rewrite: `${first}\n\nWhat would you change first?`,
        changes: [{ dimension: 'structure', note: 'Kept the opening line and cut the rest.' }],
      },
    };
  },
  generate: (_r, prompt) => {
    const count = Number(/Write exactly (\d+)/.exec(prompt)?.[1] ?? 1);
    const brief = fenced(prompt);
    const candidates = Array.from({ length: count }, (_, i) => ({
      post: `${['I learned this the hard way.', 'Here is the short version.', 'Most teams skip this.'][i]}\n\n${brief}\n\nWhat would you add?`,
    }));
    return { kind: 'json', value: { candidates } };
  },
  plan: (_r, prompt) => {
    const count = Number(/Plan exactly (\d+)/.exec(prompt)?.[1] ?? 5);
    const pillars = (/spelled exactly: ([^\n]+?)\.\n/.exec(prompt)?.[1] ?? 'General').split(' | ');
    const ordinal = [
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
    ];
    // Numbers in words: a digit the brief does not give is an invented fact (model/plan-gate.ts).
    const items = Array.from({ length: count }, (_, i) => ({
      pillar: pillars[i % pillars.length]!.toUpperCase(),
      hook: `Hook ${ordinal[i]}`,
      angle: `Angle ${ordinal[i]}`,
      format: i % 2 ? 'document' : 'none',
      archetype: i % 2 ? 'story' : 'statement',
    }));
    return { kind: 'json', value: { items } };
  },
  voice: (_r, prompt) => {
    const first = /Sample 1:\n"""\n([\s\S]*?)\n"""/.exec(prompt)?.[1] ?? '';
    return {
      kind: 'json',
      value: {
        traits: ['Model trait: short declarative lines'],
        doNot: ['Model rule: no hashtags'],
        exemplars: [first.split('\n')[0]],
      },
    };
  },
};

export interface FakeModel {
  url: string;
  /** Every request received, with the task it was for. */
  calls: { task: string; request: ChatRequest }[];
  /** Queues one override for the next request of `task`. */
  next(task: string, handler: Handler): void;
  callsFor(task: string): number;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeModel(): Promise<FakeModel> {
  const queued = new Map<string, Handler[]>();
  const calls: FakeModel['calls'] = [];
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(await readBody(req)) as ChatRequest;
    const task = request.response_format?.json_schema?.name ?? 'unknown';
    calls.push({ task, request });
    const prompt = request.messages.map((m) => text(m.content)).join('\n');
    const handler = queued.get(task)?.shift() ?? defaults[task];
    const reply: Reply = handler ? handler(request, prompt) : { kind: 'status', status: 400 };
    if (reply.kind === 'stall') return; // never answers; the client's timeout must fire
    if (reply.kind === 'status') {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'fake upstream failure', type: 'server_error' } }));
      return;
    }
    const content = reply.kind === 'raw' ? reply.content : JSON.stringify(reply.value);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `chatcmpl-${calls.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    next(task, handler) {
      queued.set(task, [...(queued.get(task) ?? []), handler]);
    },
    callsFor: (task) => calls.filter((c) => c.task === task).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The service's settings for a model behind `fake`: what every model test starts its app with. */
export const modelAppEnv = (fake: FakeModel, timeoutMs = 5_000) => ({
  LLM_PROVIDER: 'openai-compatible',
  LLM_BASE_URL: fake.url,
  LLM_MODEL: 'fake-1',
  LLM_TIMEOUT_MS: String(timeoutMs),
});
