import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The OpenAPI document and the MCP tool descriptions name a platform only through its profile:
 * renamed in the profiles, every sentence follows, so a new platform needs no prose edit. The
 * trial renames both platforms' display names in a fresh module graph before the schemas load.
 */

async function renamedWorld() {
  vi.resetModules();
  const { PROFILES, PLATFORM_IDS } = await import('../../src/platforms/profiles.ts');
  // Names that share nothing with the ids: "Network 1", "Network 2", ...
  for (const [i, id] of PLATFORM_IDS.entries()) {
    (PROFILES[id] as { displayName: string }).displayName = `Network ${i + 1}`;
  }
  const prose = await import('../../src/platforms/profile-prose.ts');
  const { currentOpenApiDocument } = await import('../../scripts/generate-client.ts');
  const tools: { name: string; description: string }[] = [];
  for (const file of readdirSync('src/mcp/tools').filter((f) => f.endsWith('.tools.ts'))) {
    const name = file.replace(/\.tools\.ts$/, '');
    const module = (await import(`../../src/mcp/tools/${name}.tools.ts`)) as Record<string, unknown>;
    for (const list of Object.values(module)) if (Array.isArray(list)) tools.push(...list);
  }
  return { document: await currentOpenApiDocument(), tools, PLATFORM_IDS, prose };
}

/** Every `description` string anywhere in the document. */
function descriptions(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) descriptions(item, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && typeof value === 'string') out.push(value);
      else descriptions(value, out);
    }
  }
  return out;
}

/** A platform id in prose; the id as a value to send (`platformA`, the default) is not prose. */
const namesInProse = (text: string, ids: readonly string[]) =>
  ids.filter((id) => text.replaceAll(`\`${id}\``, '').includes(id));

afterAll(() => vi.resetModules());

describe('descriptions read the platforms from their profiles', () => {
  it('no OpenAPI or MCP description names a platform the profiles did not name', async () => {
    const { document, tools, PLATFORM_IDS, prose } = await renamedWorld();
    const texts = descriptions(document);
    expect(texts.length).toBeGreaterThan(100);
    const stale = texts.filter((t) => namesInProse(t, PLATFORM_IDS).length > 0);
    expect(stale).toEqual([]);
    const staleTools = tools.filter((t) => namesInProse(t.description, PLATFORM_IDS).length > 0);
    expect(staleTools.map((t) => t.name)).toEqual([]);

    // The renamed platforms are where the platforms used to be named.
    expect(prose.threadedPlatformsProse()).toMatch(/^Network \d/);
    const thread = texts.find((t) => t.includes('follow-up parts, each published as a reply'));
    expect(thread).toContain(`Only on ${prose.threadedPlatformsProse()}: up to`);
    expect(thread).toContain(`(on ${prose.unthreadedPlatformsProse()} use firstComment)`);
    expect(texts).toContain(`Published right after the post: ${prose.firstCommentShapeProse()}`);
    expect(texts).toContain(`Counted the platform’s way (${prose.urlWeightProse()})`);
    expect(tools.find((t) => t.name === 'rewrite_post')?.description).toContain(
      `on a platform with threads (${prose.threadedPlatformsProse()}) a post over the limit`,
    );
    // A fresh module graph of the whole service: ~10 s at load 15 on two cores, and CI saw it
    // pass 60 s at load 25, so the bound is for a hung import, not for a busy machine.
  }, 180_000);
});
