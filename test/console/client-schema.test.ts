import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentOpenApiDocument, renderSchema, SCHEMA_PATH } from '../../scripts/generate-client.ts';

/**
 * packages/client/src/schema.d.ts is generated from the app's own OpenAPI document. When a
 * route's schema changes, this fails until `npm run client:generate` is run and the result
 * committed; the console's type-check (`npm run typecheck`) then shows what the change breaks.
 */
describe('typed client', () => {
  let doc: { paths: Record<string, unknown> };
  let committed: string;

  beforeAll(async () => {
    doc = (await currentOpenApiDocument()) as typeof doc;
    committed = await readFile(SCHEMA_PATH, 'utf8');
  }, 60_000);

  it('is generated from the current OpenAPI document (run npm run client:generate if this fails)', async () => {
    const fresh = await renderSchema(doc);
    expect(
      committed === fresh,
      'packages/client/src/schema.d.ts is out of date: run npm run client:generate',
    ).toBe(true);
  });

  it('covers every documented path, and the console routes are not in the document', () => {
    for (const path of Object.keys(doc.paths)) expect(committed).toContain(`"${path}": {`);
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/assets/'))).toEqual([]);
  });
});
