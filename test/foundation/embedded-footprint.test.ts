import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const NODE = join(process.cwd(), 'node_modules', '.bin', 'node');

/**
 * `embeddedFootprint` sets V8's `--optimize-for-size` at run time (src/lib/embedded-footprint.ts).
 * V8 offers no way to read a flag back, and it ignores a flag it does not know (printing to
 * stderr) or one it no longer reads once the heap is set up, so what is checked is the effect
 * the embedded default keeps it for (docs/performance-notes.md, bench/memory): the young
 * generation stays small. A child process calls it (or not), then allocates batches of objects
 * of which the last few stay alive, as a service's requests do, and prints the size of V8's new
 * space in MB. The size depends on what survives, not on time, so other work on the machine
 * does not move it.
 */
function newSpaceMb(footprint: boolean): number {
  const script = `
    import v8 from 'node:v8';
    import { embeddedFootprint } from ${JSON.stringify(join(process.cwd(), 'src/lib/embedded-footprint.ts'))};
    if (${footprint}) embeddedFootprint();
    const kept = [];
    for (let round = 0; round < 60; round++) {
      const batch = [];
      for (let i = 0; i < 20_000; i++) batch.push({ a: i, b: [i, i + 1], c: 'x' + i });
      kept.push(batch);
      if (kept.length > 4) kept.shift();
    }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(space.space_size / 2 ** 20);
  `;
  const out = execFileSync(NODE, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return Number(out.trim());
}

describe('embedded footprint', () => {
  it('keeps the young generation small once set, after start-up', () => {
    expect(newSpaceMb(true)).toBeLessThan(16);
  }, 60_000);

  // The control: with V8's defaults the same allocations grow the new space to 64 MB on Node 24.
  // When a Node upgrade makes the first test fail while this passes, the flag no longer takes
  // effect at run time (renamed, frozen after start-up, or no longer sizing the young
  // generation): bench/memory then shows what the embedded default lost.
  it('without it, the same allocations grow the young generation', () => {
    expect(newSpaceMb(false)).toBeGreaterThanOrEqual(32);
  }, 60_000);
});
