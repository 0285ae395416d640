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
  const unit = (file: string) => relative(root, file).split(sep)[0]!;
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
