import { textLimitFor } from '../../platforms/profiles.ts';
import { partProblems } from '../posts/core/part-rules.ts';
import type { ValidatePostRequest, ValidationIssue, ValidationReport } from './validate.schemas.ts';

/**
 * The thread parts and the first comment, each judged on its own against the platform's limit
 * for that kind of part (the same rules as creating the post: posts/core/part-rules.ts), every issue
 * carrying its `part`. Empty when the request has neither.
 */
export function partIssues(
  input: ValidatePostRequest,
  platform: string | null,
): { errors: ValidationIssue[]; parts?: ValidationReport['parts'] } {
  const thread = input.thread ?? [];
  const firstComment = input.firstComment ?? null;
  if (thread.length === 0 && firstComment === null) return { errors: [] };
  const errors: ValidationIssue[] = [];
  if (platform) {
    partProblems(
      { text: input.post, thread, firstComment },
      platform,
      (part, message, code) => errors.push({ code, part, message: `${part}: ${message}.` }),
      false,
    );
  }
  const measure = (part: string, kind: 'post' | 'reply' | 'comment', text: string) => {
    const limit = platform ? textLimitFor(platform, kind) : undefined;
    return { part, length: limit ? limit.length(text) : text.length, limit: limit ? limit.max : null };
  };
  const parts = [
    measure('text', 'post', input.post),
    ...thread.map((text, i) => measure(`thread[${i}]`, 'reply', text)),
    ...(firstComment === null ? [] : [measure('firstComment', 'comment', firstComment)]),
  ];
  return { errors, parts };
}
