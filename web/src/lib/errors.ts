/**
 * API errors in words: what happened (the API's own message, which already says what to fix)
 * and what to do next in the console.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: { path?: string; message?: string }[];
  readonly requestId: string | undefined;
  /** The rest of the error body (e.g. the failed post next to a publish_failed error). */
  readonly body: Record<string, unknown>;
  /**
   * The post the error is about: beside the error on publish (PostErrorResult), inside it on
   * the other post routes (`error.post`, e.g. a cancel refused as post_terminal).
   */
  readonly post: unknown;
  readonly retryAfter: number | null;

  constructor(status: number, body: unknown, retryAfter: number | null = null) {
    const error = (body as { error?: Record<string, unknown> } | null)?.error ?? {};
    super(typeof error.message === 'string' ? error.message : `The server answered ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof error.code === 'string' ? error.code : 'unknown';
    this.details = Array.isArray(error.details) ? error.details : [];
    this.requestId = typeof error.requestId === 'string' ? error.requestId : undefined;
    this.body = (body as Record<string, unknown>) ?? {};
    this.post = this.body.post ?? error.post;
    this.retryAfter = retryAfter;
  }
}

export interface Explained {
  title: string;
  message: string;
  /** What the person can do about it. */
  action: string;
}

const BY_CODE: Record<string, { title: string; action: string }> = {
  unauthorized: {
    title: 'Your key was not accepted',
    // Shown on the sign-in page (a pasted key, or a revoked one that sent the person back there).
    action: 'Paste a valid key (it starts with kit_sk_), or create a new account.',
  },
  not_configured: {
    title: 'This server is not set up for that yet',
    action: 'Ask whoever runs the server to set the variable named above (npm run demo sets everything).',
  },
  quota_exceeded: {
    title: 'The monthly model quota is used up',
    action: 'Validation still works; scoring, rewriting and generating come back next month.',
  },
  rate_limited: { title: 'Too many requests', action: 'Wait a little and try again.' },
  invalid_credentials: {
    title: 'That email and password were not accepted',
    action: 'If you have an API key, you can sign in with it instead.',
  },
  csrf_failed: {
    title: 'The request was refused as not coming from this page',
    action: 'Reload the page and try again.',
  },
  channel_revoked: {
    title: 'The channel was disconnected',
    action: 'Open Channels and connect it again, then publish the post again.',
  },
  channel_expired: { title: "The channel's sign-in expired", action: 'Open Channels and connect it again.' },
  channel_error: { title: 'The channel needs attention', action: 'Open Channels and connect it again.' },
  not_claimable: {
    title: 'The post is already being published or is finished',
    action: 'Refresh the list to see its current status.',
  },
  publish_failed: {
    title: 'The platform refused the post',
    action: 'Read the reason below, fix the post and publish a copy of it.',
  },
  queue_empty: {
    title: 'This channel has no queue slots yet',
    action: 'Set its weekly times on the Queue page, or pick a date and time and press Schedule.',
  },
  not_found: { title: 'Not found', action: 'It may have been deleted; refresh the page.' },
  invalid_request: { title: 'Something in the form needs fixing', action: 'Correct the fields named above.' },
  conflict: {
    title: 'That is not possible in its current state',
    action: 'Refresh to see its current state.',
  },
  payload_too_large: { title: 'The file is too large', action: 'Use a smaller file.' },
  unsupported_media_type: {
    title: 'That file type is not supported',
    action: 'Use PNG, JPEG, GIF, WebP, MP4 or PDF.',
  },
  refresh_failed: {
    title: 'The platform refused to renew the sign-in',
    action: 'Try again later, or reconnect.',
  },
  token_exchange_failed: { title: 'Connecting failed at the platform', action: 'Start connecting again.' },
  authorization_denied: { title: 'Access was not granted', action: 'Connect again and press Approve.' },
};

export function explainError(err: unknown): Explained {
  if (err instanceof ApiError) {
    const known = BY_CODE[err.code];
    const details = err.details
      // A detail that only repeats the message (a one-field error) would say it twice.
      .filter((d) => d.message && !err.message.includes(d.message))
      .map((d) => (d.path ? `${d.path}: ${d.message}` : (d.message ?? '')));
    const message = details.length ? `${err.message} (${details.join('; ')})` : err.message;
    if (known) {
      const action =
        err.code === 'rate_limited' && err.retryAfter
          ? `Wait ${err.retryAfter} seconds and try again.`
          : known.action;
      return { title: known.title, message, action };
    }
    if (err.status >= 500)
      return {
        title: 'The server had a problem',
        message,
        action: `Try again in a moment${err.requestId ? `; if it keeps happening, report request ${err.requestId}` : ''}.`,
      };
    if (err.status === 409)
      return { title: BY_CODE.conflict!.title, message, action: BY_CODE.conflict!.action };
    return { title: 'That did not work', message, action: 'Check the form and try again.' };
  }
  if (err instanceof TypeError)
    return {
      title: 'Cannot reach the server',
      message: err.message,
      action: 'Check that Postkit is running (npm run demo) and try again.',
    };
  return { title: 'Something went wrong', message: String(err), action: 'Try again.' };
}

/**
 * A failed post's stored `error`, with what to do about it. The text comes from the platform
 * adapter; a few common causes get a specific next step.
 */
export function explainPostError(error: string | null): { reason: string; action: string } {
  // The stored error may start with its code ("publish_failed: …"): the words are what matter.
  const reason = (error ?? 'The post failed without a recorded reason.').replace(/^[a-z_]+:\s+/, '');
  const lower = reason.toLowerCase();
  if (lower.includes('revoked') || lower.includes('disconnected'))
    return { reason, action: 'Reconnect the channel on the Channels page, then post a copy.' };
  if (lower.includes('expired')) return { reason, action: 'Reconnect the channel, then post a copy.' };
  if (lower.includes('duplicate'))
    return { reason, action: 'The platform already has this exact text: change the wording and post again.' };
  if (lower.includes('rate') || lower.includes('429'))
    return { reason, action: 'The platform was busy: post a copy again later.' };
  if (lower.includes('media') || lower.includes('upload') || lower.includes('asset'))
    return { reason, action: 'Check the attached media (type and size) and post a copy.' };
  return { reason, action: 'Fix what the reason says, then duplicate the post and publish again.' };
}
