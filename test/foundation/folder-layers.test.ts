import { readdirSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeImports, SRC, tsFiles } from '../helpers/import-graph.ts';

/**
 * The folders of src/ (and its top-level files), lowest first. A file may import from its own
 * folder and from any folder of a lower layer, never from its own layer's other folders or from
 * above: so a registry (routes, tools, sweeps) lives in the composition root that names what it
 * lists, and each folder can be read knowing only what is below it. Type-only imports count.
 * docs/architecture.md states the same order (checked below).
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['lib'],
  ['config', 'domain'],
  ['caller.ts'],
  ['db', 'kv', 'storage'],
  ['vault', 'observability', 'platforms', 'wake', 'api'],
  ['scoring'],
  ['context.ts'],
  ['jobs'],
  ['features'],
  ['http'],
  ['mcp'],
  ['compose'],
  ['server.ts'],
  ['main.ts'],
];

/** A separate program (the platform emulator): it imports nothing of src/ and nothing imports it. */
export const APART: readonly string[] = ['sandbox'];

/**
 * The areas of src/features/ (and its shared files), lowest first, under the same rule: an area
 * imports from lower layers only, never from an area beside it or above it, so no import can
 * close a loop between areas. A sub-folder named here is a unit of its own: `posts/core` (the
 * post row, its rules and its state machine) sits below queues and series, which take only it
 * from posts; `posts/publishing` (the publish run) sits on the core, below the post verbs.
 */
export const FEATURE_LAYERS: readonly (readonly string[])[] = [
  ['pagination.ts', 'feature-routes.ts'],
  ['tenancy.ts', 'audit'],
  ['members'],
  ['keys', 'brands', 'media', 'events', 'history', 'webhooks', 'comments'],
  ['account'],
  ['oauth', 'channels', 'insights', 'posts/core'],
  ['approvals'],
  ['voices', 'queues', 'posts/publishing', 'metrics', 'system', 'validate', 'invitations', 'sessions'],
  ['intelligence', 'series'],
  ['posts'],
  ['post-groups', 'plans'],
];

/**
 * Every import that breaks the order, as `from -> to (unit -> unit)`; an unranked unit is
 * reported too, so a new folder has to be placed.
 */
export function layerViolations(
  imports: ReadonlyMap<string, readonly string[]>,
  layers: readonly (readonly string[])[],
  apart: readonly string[],
  root: string,
): string[] {
  const rank = new Map(layers.flatMap((units, i) => units.map((u) => [u, i] as const)));
  // The first folder of the path, or a deeper folder where the layers name it (`posts/core`).
  const unit = (file: string) => {
    const parts = relative(root, file).split(sep);
    for (let depth = parts.length - 1; depth > 1; depth--) {
      const folder = parts.slice(0, depth).join('/');
      if (rank.has(folder)) return folder;
    }
    return parts[0]!;
  };
  const out: string[] = [];
  for (const [from, targets] of imports) {
    const a = unit(from);
    if (!rank.has(a) && !apart.includes(a)) out.push(`${a} is in no layer`);
    for (const target of targets) {
      const path = relative(root, target);
      // Outside src/ (the generated client's shared code in packages/) is not layered here.
      if (path.startsWith('..')) continue;
      const b = unit(target);
      if (a === b) continue;
      const why = `${relative(root, from)} -> ${path} (${a} -> ${b})`;
      if (apart.includes(a) || apart.includes(b)) out.push(why);
      else if (!rank.has(b)) out.push(`${b} is in no layer`);
      else if (rank.get(b)! >= rank.get(a)!) out.push(why);
    }
  }
  return [...new Set(out)];
}

/** The order as docs/architecture.md writes it: `lib < config, domain < ...`. */
const written = (layers: readonly (readonly string[])[]) =>
  layers.map((units) => units.join(', ')).join(' < ');

describe('folder layers', () => {
  it('reports an import from a higher or same-layer folder (the check itself can fail)', () => {
    const root = resolve('/r');
    const at = (p: string) => resolve(root, p);
    const layers = [['lib'], ['db', 'kv'], ['features']];
    const imports = new Map([
      [at('lib/a.ts'), [at('lib/b.ts')]],
      [at('features/x.ts'), [at('db/c.ts'), at('lib/a.ts')]],
      [at('db/c.ts'), [at('features/x.ts'), at('kv/k.ts')]],
      [at('kv/k.ts'), [at('sandbox/s.ts')]],
      [at('web/w.ts'), []],
    ]);
    expect(layerViolations(imports, layers, ['sandbox'], root)).toEqual([
      'db/c.ts -> features/x.ts (db -> features)',
      'db/c.ts -> kv/k.ts (db -> kv)',
      'kv/k.ts -> sandbox/s.ts (kv -> sandbox)',
      'web is in no layer',
    ]);
  });

  it('every folder of src/ imports only from lower layers', () => {
    const files = tsFiles(SRC);
    expect(files.length).toBeGreaterThan(50);
    const imports = new Map(files.map((f) => [f, relativeImports(f)]));
    expect(layerViolations(imports, LAYERS, APART, SRC)).toEqual([]);
  });

  it('places every folder and top-level file of src/, each once', () => {
    const ranked = [...LAYERS.flat(), ...APART];
    expect(new Set(ranked).size).toBe(ranked.length);
    const present = readdirSync(SRC).filter((name) => !name.startsWith('.'));
    expect([...present].sort()).toEqual([...ranked].sort());
  });

  it('docs/architecture.md states the same order', () => {
    const doc = readFileSync(resolve(SRC, '../docs/architecture.md'), 'utf8');
    expect(doc).toContain(written(LAYERS));
  });
});

describe('feature layers', () => {
  const FEATURES = resolve(SRC, 'features');

  it('reports an import that closes a loop between areas, and a sub-folder ranked apart (the check can fail)', () => {
    const root = resolve('/f');
    const at = (p: string) => resolve(root, p);
    const layers = [['tenancy.ts'], ['posts/core'], ['queues'], ['posts']];
    const imports = new Map([
      [at('posts/posts.service.ts'), [at('queues/queue-post.ts'), at('posts/core/post-row.ts')]],
      [at('queues/queue-post.ts'), [at('posts/core/post-row.ts'), at('tenancy.ts')]],
      // The loop this order forbids: queues back into the post verbs, the core into its verbs.
      [at('queues/queue-assign.ts'), [at('posts/posts.service.ts')]],
      [at('posts/core/post-rules.ts'), [at('posts/lifecycle.service.ts')]],
      [at('series/series.service.ts'), [at('posts/core/post-row.ts')]],
    ]);
    expect(layerViolations(imports, layers, [], root)).toEqual([
      'queues/queue-assign.ts -> posts/posts.service.ts (queues -> posts)',
      'posts/core/post-rules.ts -> posts/lifecycle.service.ts (posts/core -> posts)',
      'series is in no layer',
    ]);
  });

  it('every area of src/features/ imports only from lower layers', () => {
    const files = tsFiles(FEATURES);
    expect(files.length).toBeGreaterThan(50);
    const imports = new Map(files.map((f) => [f, relativeImports(f)]));
    expect(layerViolations(imports, FEATURE_LAYERS, [], FEATURES)).toEqual([]);
  });

  it('places every area and shared file of src/features/, each once', () => {
    const ranked = FEATURE_LAYERS.flat();
    expect(new Set(ranked).size).toBe(ranked.length);
    const present = readdirSync(FEATURES).filter((name) => !name.startsWith('.'));
    const top = ranked.filter((unit) => !unit.includes('/'));
    expect([...present].sort()).toEqual([...top].sort());
    for (const nested of ranked.filter((unit) => unit.includes('/')))
      expect(readdirSync(resolve(FEATURES, nested)).length, nested).toBeGreaterThan(0);
  });

  it('docs/architecture.md states the same order', () => {
    const doc = readFileSync(resolve(SRC, '../docs/architecture.md'), 'utf8');
    expect(doc).toContain(written(FEATURE_LAYERS));
  });
});
