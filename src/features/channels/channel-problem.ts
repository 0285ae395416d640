import { Conflict } from '../../domain/errors.ts';
import { PlatformError, type PlatformErrorKind } from '../../platforms/platform.ts';

/**
 * Why a channel cannot be used until its member reconnects it: the one list of these codes.
 * withChannelAccess throws them (409), and publishing fails a post for good on any of them,
 * by type (channelProblemOf), never by matching a code string.
 */
export type ChannelProblemCode = 'channel_revoked' | 'channel_expired' | 'channel_error';

/** 409: the channel cannot be used as it stands (its status, or a token no vault key opens). */
export class ChannelUnusable extends Conflict {
  declare readonly code: ChannelProblemCode;

  constructor(code: ChannelProblemCode, message: string) {
    super(code, message);
  }
}

/**
 * What a platform's refusal says about the channel: withChannelAccess marks the channel so
 * (expired, revoked, error) and rethrows the PlatformError. Other kinds say nothing about it.
 */
export const PLATFORM_VERDICTS: Readonly<Partial<Record<PlatformErrorKind, ChannelProblemCode>>> = {
  expired_token: 'channel_expired',
  revoked_token: 'channel_revoked',
  missing_scope: 'channel_error',
};

/** A channel problem: the channel needs its member before anything can be sent through it. */
export interface ChannelProblem {
  code: ChannelProblemCode;
  message: string;
}

/**
 * The channel problem an error from withChannelAccess amounts to, or null when it is none (an
 * outage, a refusal of the content, a missing configuration): the channel's own refusal
 * (ChannelUnusable) or the platform's verdict on the token (PLATFORM_VERDICTS).
 */
export function channelProblemOf(err: unknown): ChannelProblem | null {
  if (err instanceof ChannelUnusable) return { code: err.code, message: err.message };
  if (err instanceof PlatformError) {
    const code = PLATFORM_VERDICTS[err.kind];
    return code ? { code, message: err.message } : null;
  }
  return null;
}
