import { z } from 'zod';

export const Comment = z
  .object({
    id: z.string(),
    memberId: z.string().describe('The member who wrote it'),
    text: z.string(),
    createdAt: z.number().int(),
  })
  .meta({ id: 'Comment' });
export type Comment = z.output<typeof Comment>;

export const CreateCommentRequest = z
  .object({ text: z.string().trim().min(1).max(2000).describe('1 to 2,000 characters') })
  .strict()
  .meta({ id: 'CreateCommentRequest' });

export const CommentResult = z.object({ comment: Comment }).meta({ id: 'CommentResult' });
export const CommentListResult = z.object({ comments: z.array(Comment) }).meta({ id: 'CommentListResult' });
