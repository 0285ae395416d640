import { PlatformError } from '../platform.ts';
import { sendExpecting, withRetries } from './http.ts';
import { type ResolvedOptions, restHeaders } from './options.ts';

/**
 * After finalizeUpload a video is PROCESSING; it can be posted once AVAILABLE. Polls with a
 * growing interval (1 s to 10 s, times PLATFORMA_BACKOFF_SCALE) until the video deadline.
 */
export async function waitForVideo(opts: ResolvedOptions, accessToken: string, video: string): Promise<void> {
  const deadline = opts.now() + opts.videoTimeoutMs;
  let interval = 1_000;
  for (;;) {
    const answer = await withRetries(opts.retry, () =>
      sendExpecting(
        {
          kind: 'read',
          what: 'read the video status',
          method: 'GET',
          url: `${opts.apiUrl}/rest/videos/${encodeURIComponent(video)}`,
          headers: restHeaders(opts, accessToken),
          timeoutMs: opts.requestTimeoutMs,
          secrets: [accessToken],
        },
        [200],
      ),
    );
    const body = (answer.json ?? {}) as { status?: unknown; processingFailureReason?: unknown };
    if (body.status === 'AVAILABLE') return;
    if (body.status === 'PROCESSING_FAILED') {
      const reason =
        typeof body.processingFailureReason === 'string' ? ` (${body.processingFailureReason})` : '';
      throw new PlatformError('bad_request', `platformA could not process the video${reason}.`);
    }
    if (opts.now() >= deadline) {
      throw new PlatformError(
        'unavailable',
        `platformA was still processing the video after ${Math.round(opts.videoTimeoutMs / 1000)} s.`,
      );
    }
    await opts.sleep(interval * opts.backoffScale);
    interval = Math.min(10_000, interval * 1.5);
  }
}
