import { z } from 'zod';

/** Wire shapes of a post's review (POST /v1/posts/{id}/submit, /approve, /request-changes). */

const Note = z.string().trim().min(1).max(2000);

export const SubmitPostRequest = z
  .object({
    runAt: z
      .number()
      .int()
      .min(0)
      .max(8_640_000_000_000_000)
      .optional()
      .describe('Epoch ms the writer wants it published at: approving it schedules it then'),
  })
  .strict()
  .meta({ id: 'SubmitPostRequest' });
export type SubmitPostRequest = z.output<typeof SubmitPostRequest>;

export const ApprovePostRequest = z
  .object({ note: Note.optional().describe('A note for the writer') })
  .strict()
  .meta({ id: 'ApprovePostRequest' });
export type ApprovePostRequest = z.output<typeof ApprovePostRequest>;

export const RequestChangesRequest = z
  .object({ note: Note.describe('What to change, for the writer') })
  .strict()
  .meta({ id: 'RequestChangesRequest' });
export type RequestChangesRequest = z.output<typeof RequestChangesRequest>;
