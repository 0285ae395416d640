import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What a process keeps between calls lives in the dependency object (`deps.memory`,
 * ProcessMemory in src/context.ts, made in createDeps): no module keeps state in a variable of
 * its own. This reads every file in src/ for module-level state — a top-level `let` or `var`,
 * or a top-level Map, Set, WeakMap, WeakSet or array that the file writes to — and allows only
 * the named constant, derived tables below: memos of pure functions of constant data, tables
 * built once at load, and scratch buffers a synchronous call fills and reads before it returns.
 * None of them carries anything from one request, account or sweep run to the next.
 */
const root = join(import.meta.dirname, '..', '..');

const ALLOWED: Record<string, string> = {
  // Memos of pure functions (the answer is a function of the key and constant data).
  'src/api/rate-limit.ts:names': 'header names per budget prefix',
  'src/api/reply-headers.ts:headersKey':
    "Fastify's reply-headers symbol, found once (docs/performance-notes.md)",
  'src/features/history/personal-score.ts:weightsOf':
    "a fitted model's weights as a typed array, per model object",
  'src/features/queues/slot-times.ts:instants': 'wall time to instant per zone, date and time (bounded)',
  'src/features/posts/core/transitions.ts:eachStatements':
    'prepared statements, one per transition (Drizzle)',
  'src/scoring/text/tagger.ts:nlp': 'the NLP model, loaded on first use and released when idle',
  'src/scoring/text/tagger.ts:lastUse': 'when the NLP model was last used, for its release',
  'src/scoring/text/tagger.ts:releaseTimer': 'the timer that releases the idle NLP model',
  'src/scoring/text/tagger.ts:last': 'the last text tagged and its tags (a pure function of the text)',
  'src/scoring/text/tagger.ts:firstUnknownId':
    "the loaded model's first id for a word its lexicon lacks, read at each load with the model",
  'src/lib/label-in-sentence.ts:IN_SENTENCE': 'a label as worded inside a sentence',
  'src/lib/zoned-time.ts:formats': 'an Intl.DateTimeFormat per time zone',
  'src/scoring/engine-notice.ts:notices': 'the engine notice per engine name',
  'src/scoring/learned/model.ts:loaded': 'the committed score model, read and checked once',
  'src/scoring/learned/model.ts:measured': "the score model's measured feature names, per model",
  'src/scoring/learned/model.ts:wordMaps': "the score model's word index, per model",
  'src/scoring/learned/model.ts:dimensionIndices': "the score model's dimension order, per model",
  'src/scoring/learned/sentiment.ts:lexicon': 'the sentiment lexicon, read once',
  'src/scoring/learned/words.ts:tables': 'word weights as a lookup table, per weights object',
  'src/scoring/personal/fit.ts:tieTerms': 'the tie correction of a sorted sample, per sample array',
  'src/scoring/rules/generic-text-phrases.ts:COMPILED': 'a compiled pattern per phrase',
  'src/scoring/rules/generic-text-phrases.ts:COMPILED_CASE_BLIND': 'a case-blind compiled pattern per phrase',
  'src/scoring/scorer.ts:means': "the score model's feature means, per model",
  // Tables built once at load.
  'src/scoring/rules/generic-text-phrases.ts:BY_ANCHOR': 'the generic phrases indexed by anchor word',
  'src/features/posts/core/transitions.ts:TARGETS': 'the target status of each transition',
  'src/scoring/text/phrases.ts:INDEX': 'the phrase list indexed by first word',
  'src/scoring/text/word-facts.ts:FACTS': 'facts per interned word (derived from the word alone)',
  // Scratch buffers of the tokenizer's synchronous passes, grown as needed.
  'src/scoring/text/word-facts.ts:TRAITS': 'scratch: traits per token of the text being read',
  'src/scoring/text/word-facts.ts:SEEN': 'scratch: which tokens the current pass saw',
  'src/scoring/text/word-facts.ts:generation': 'scratch: the interned-words generation',
  'src/scoring/text/word-facts.ts:pass': 'scratch: the current pass number',
  'src/scoring/learned/features.ts:chunk': 'feature vectors handed out from one buffer 16 at a time',
  'src/scoring/learned/features.ts:chunkUsed': 'how much of that buffer is handed out',
  'src/lib/ids.ts:pool': 'random bytes drawn from OpenSSL 4 kB at a time, for ids',
  'src/lib/ids.ts:next': 'where the next id takes its random bytes from the pool',
  // Engine and process facts.
  'src/lib/tick-object-shape.ts:heldTick':
    "a tick object held for V8's nextTick shape (docs/performance-notes.md)",
  'src/lib/log-sink.ts:sinks': "the process's stdout, one file descriptor shared by every logger",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const TOP_LET = /^(?:export )?(?:let|var) (\w+)/gm;
const TOP_COLLECTION = /^(?:export )?const (\w+)(?::[^=\n]+)? = (?:new (?:Map|Set|WeakMap|WeakSet)\b|\[\])/gm;
const writes = (text: string, name: string) =>
  new RegExp(
    `\\b${name}\\.(?:set|add|delete|clear|push|pop|shift|unshift|splice)\\(|\\b${name}\\.length\\s*=|\\b${name}\\[[^\\]]+\\]\\s*=[^=]`,
  ).test(text);

/** `path:name` of each piece of module-level state in `text`. */
function moduleState(path: string, text: string): string[] {
  const found = [...text.matchAll(TOP_LET)].map((m) => m[1]!);
  for (const m of text.matchAll(TOP_COLLECTION)) if (writes(text, m[1]!)) found.push(m[1]!);
  return found.map((name) => `${path}:${name}`);
}

describe('module-level state', () => {
  const files = sourceFiles(join(root, 'src')).map((p) => relative(root, p).replaceAll('\\', '/'));
  const found = files.flatMap((path) => moduleState(path, readFileSync(join(root, path), 'utf8')));

  it('none outside deps.memory but the named constant, derived tables', () => {
    expect(found.filter((site) => !(site in ALLOWED))).toEqual([]);
  });

  it('every allowed entry still exists (a removed one leaves the list)', () => {
    expect(Object.keys(ALLOWED).filter((site) => !found.includes(site))).toEqual([]);
  });

  it('finds what it is meant to find', () => {
    expect(moduleState('a.ts', 'let seq = 0;\n')).toEqual(['a.ts:seq']);
    expect(moduleState('a.ts', 'const cache = new WeakMap<object, string>();\ncache.set(k, v);\n')).toEqual([
      'a.ts:cache',
    ]);
    expect(moduleState('a.ts', 'export const queue: string[] = [];\nqueue.push(x);\n')).toEqual([
      'a.ts:queue',
    ]);
    // A constant set nobody writes to is a table, not state; a `let` inside a function is local.
    expect(
      moduleState('a.ts', "const STOP = new Set(['a', 'the']);\nfunction f() {\n  let n = 0;\n}\n"),
    ).toEqual([]);
  });
});
