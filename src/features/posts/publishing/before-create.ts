import { DomainError, NotFound } from '../../../domain/errors.ts';
import { PlatformError } from '../../../platforms/platform.ts';
import { channelProblemOf } from '../../channels/channel-problem.ts';

/**
 * What a publish does with a part whose create the platform did not act on (nothing was sent,
 * or the platform refused it): fail the post for good, or put it back for a retry. Decided by
 * the error's type, never by matching another feature's code strings:
 * - a channel problem (channel-problem.ts: the channel's status, or the platform's verdict on
 *   the token) fails for good with its code: the member must reconnect, retrying cannot help;
 * - a channel that no longer exists fails for good (`channel_error`);
 * - any other domain error (not configured, refresh_failed) is retried: the deployment or the
 *   platform may recover;
 * - a retryable platform error (an outage, a 429) is retried, no sooner than the platform said;
 *   any other platform refusal fails for good (`publish_failed`);
 * - anything else is an internal error: logged and retried.
 */
export type BeforeCreateDecision =
  | { kind: 'fail'; reason: 'conflict' | 'platform'; code: string; message: string }
  | { kind: 'retry'; message: string; notBefore: number | null }
  | { kind: 'internal' };

export function decideBeforeCreate(err: unknown): BeforeCreateDecision {
  const problem = channelProblemOf(err);
  if (problem) return { kind: 'fail', reason: 'conflict', code: problem.code, message: problem.message };
  if (err instanceof NotFound)
    return {
      kind: 'fail',
      reason: 'conflict',
      code: 'channel_error',
      message: 'The post’s channel no longer exists.',
    };
  if (err instanceof DomainError) return { kind: 'retry', message: err.message, notBefore: null };
  if (err instanceof PlatformError) {
    // A 429 that says when the platform will take the call again (platformB) is retried no
    // sooner; the parts already published stay recorded and the retry resumes after them.
    if (err.retryable) return { kind: 'retry', message: err.message, notBefore: err.retryAt };
    return { kind: 'fail', reason: 'platform', code: 'publish_failed', message: err.message };
  }
  return { kind: 'internal' };
}
