import { beforeAll, describe, expect, it } from 'vitest';
import { currentOpenApiDocument } from '../../scripts/generate-client.ts';

type Doc = {
  paths: Record<string, Record<string, { description?: string }>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

/**
 * The submit route's description spells out the `approval` a submit leaves on the post: it names
 * every field the PostApproval schema answers, so a field added to the schema (as `runAt` was)
 * fails here until the description says it too.
 */
describe('the submit route documents the approval it writes', () => {
  let doc: Doc;
  beforeAll(async () => {
    doc = (await currentOpenApiDocument()) as Doc;
  }, 60_000);

  it('names each field of PostApproval', () => {
    const description = doc.paths['/v1/posts/{id}/submit']?.post?.description ?? '';
    const approval = /`approval` becomes `\{([^`]*)\}`/.exec(description)?.[1] ?? '';
    const named = approval.split(',').map((part) => part.trim().split(':')[0]!.trim());
    const fields = Object.keys(doc.components.schemas.PostApproval?.properties ?? {});
    expect(fields).toContain('runAt');
    expect(named.sort()).toEqual(fields.sort());
  });
});
