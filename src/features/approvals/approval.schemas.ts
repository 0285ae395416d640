import { z } from 'zod';

/** Wire shapes of a post's review (POST /v1/posts/{id}/submit, /approve, /request-changes). */

export const APPROVAL_STATES = ['pending', 'approved', 'changes_requested'] as const;
export const ApprovalState = z.enum(APPROVAL_STATES).meta({ id: 'ApprovalState' });
export type ApprovalState = z.output<typeof ApprovalState>;

/** The workspace setting: `required` holds an editor's posts for an owner's or admin's approval. */
export const ApprovalsSetting = z.enum(['required', 'off']).meta({ id: 'ApprovalsSetting' });
export type ApprovalsSetting = z.output<typeof ApprovalsSetting>;

export const PostApproval = z
  .object({
    state: ApprovalState,
    requestedBy: z.string().nullable().describe('The member who asked for the review (mem_…)'),
    requestedAt: z.number().int().nullable(),
    decidedBy: z
      .string()
      .nullable()
      .describe('The owner or admin who approved it or asked for changes; null while pending'),
    decidedAt: z.number().int().nullable(),
    note: z.string().nullable().describe('The approver’s note (required when asking for changes)'),
  })
  .meta({ id: 'PostApproval' });
export type PostApproval = z.output<typeof PostApproval>;

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
