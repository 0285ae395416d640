/**
 * Offset pagination as the services see it. The zod schemas that parse `limit`/`offset` from a
 * query string and document the `pagination` object live in src/api/schemas.ts; these plain
 * types match them structurally, so a service never imports from src/http/.
 */
export interface PageRequest {
  limit: number;
  offset: number;
}

export interface PageInfo {
  limit: number;
  offset: number;
  hasMore: boolean;
}

/**
 * Runs a page query asking for one row more than the limit, so `hasMore` costs no count query.
 * The caller's query orders the rows.
 */
export async function paginate<T>(
  page: PageRequest,
  fetch: (limit: number, offset: number) => Promise<T[]>,
): Promise<{ items: T[]; pagination: PageInfo }> {
  const rows = await fetch(page.limit + 1, page.offset);
  const hasMore = rows.length > page.limit;
  return {
    items: hasMore ? rows.slice(0, page.limit) : rows,
    pagination: { limit: page.limit, offset: page.offset, hasMore },
  };
}
