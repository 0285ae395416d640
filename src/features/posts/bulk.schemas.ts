import { z } from 'zod';
import { PostListQuery } from './posts.schemas.ts';

export const BulkScheduleQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true')
    .describe('true: check every row and answer the report; nothing is written'),
  channel: z
    .string()
    .min(1)
    .max(300)
    .optional()
    .describe(
      'CSV only: the channel of the rows that name none, written as a channel cell is (its name, e.g. `@sandy`, or the name and its platform in brackets, `@sandy (<platform>)`, when two platforms share the name, or its id)',
    ),
});

export const BulkRowReport = z
  .object({
    row: z
      .number()
      .int()
      .describe(
        'CSV: the spreadsheet row (the header is row 1, the first post row 2); JSON: the item, counting from 1',
      ),
    ok: z.boolean(),
    errors: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .describe(
        'Each problem at `row N.<column>` (CSV) or `items[i].<field>` (JSON), as the import would report it',
      ),
    score: z
      .number()
      .int()
      .optional()
      .describe('A valid row’s offline score (0-100, the heuristic engine: free, no quota)'),
  })
  .meta({ id: 'BulkRowReport' });

export const BulkDryRunResult = z
  .object({
    valid: z.boolean().describe('Every row is ok: the same request without dryRun would schedule them all'),
    rows: z.array(BulkRowReport),
  })
  .meta({ id: 'BulkDryRunResult' });
export type BulkDryRunResult = z.output<typeof BulkDryRunResult>;

/** The list filters of GET /v1/posts, without the page: an export is every matching post. */
export const PostExportQuery = PostListQuery.omit({ limit: true, offset: true }).extend({
  format: z.enum(['csv', 'json']).default('csv').describe('csv (RFC 4180, UTF-8) or json'),
});
export type PostExportQuery = z.output<typeof PostExportQuery>;
