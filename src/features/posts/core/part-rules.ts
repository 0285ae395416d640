import { hasThreads, type PartKind, textLimitFor } from '../../../platforms/profiles.ts';

/**
 * The text rules for every part of a post (the post, its thread, its first comment), each
 * counted the platform's way (platformB: weighted, a URL counts 23). Each problem names its
 * part by path (`text`, `thread[2]`, `firstComment`), so the caller sees which part to fix
 * before anything is sent; the adapters check the same limits again before sending.
 */
export interface PostParts {
  text: string;
  thread: string[];
  firstComment: string | null;
}

/** What is wrong with a part; validate reports it as the issue code. */
export type PartProblem = 'empty' | 'too_long' | 'thread_not_supported' | 'duplicate_part';
export type At = (path: string, message: string, problem: PartProblem) => void;

function checkText(platform: string, kind: PartKind, path: string, text: string, at: At): void {
  if (text.trim() === '') at(path, 'Must not be empty', 'empty');
  const limit = textLimitFor(platform, kind);
  if (!limit) return;
  const length = limit.length(text);
  if (length > limit.max) {
    at(path, `Is ${length} ${limit.counted}; ${platform} allows at most ${limit.max}`, 'too_long');
  }
}

/**
 * Problems of the parts of a post for `platform` (a platform we do not publish to is refused
 * elsewhere). `withText: false` leaves the post's own text to the caller (validate judges it
 * with its own messages) but still checks the other parts against it for repeats.
 */
export function partProblems(parts: PostParts, platform: string, at: At, withText = true): void {
  if (withText) checkText(platform, 'post', 'text', parts.text, at);
  if (parts.thread.length > 0 && !hasThreads(platform)) {
    at(
      'thread',
      `${platform} has no threads; put a follow-up in firstComment (published as a comment right after the post)`,
      'thread_not_supported',
    );
  } else {
    for (const [i, part] of parts.thread.entries()) checkText(platform, 'reply', `thread[${i}]`, part, at);
  }
  if (parts.firstComment !== null) checkText(platform, 'comment', 'firstComment', parts.firstComment, at);
  if (hasThreads(platform)) repeats(parts, platform, at);
}

/**
 * Where every part is a post of its own (platformB), two parts with the same text would be
 * refused as duplicate content halfway through the thread; and recovery finds a part whose
 * answer was lost by its text, which must therefore be unique within the post.
 */
function repeats(parts: PostParts, platform: string, at: At): void {
  const seen = new Map<string, string>([[parts.text.trim(), 'text']]);
  const check = (path: string, text: string) => {
    const key = text.trim();
    if (key === '') return;
    const earlier = seen.get(key);
    if (earlier) at(path, `Repeats ${earlier}; ${platform} refuses duplicate content`, 'duplicate_part');
    else seen.set(key, path);
  };
  for (const [i, part] of parts.thread.entries()) check(`thread[${i}]`, part);
  if (parts.firstComment !== null) check('firstComment', parts.firstComment);
}
