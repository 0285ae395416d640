import type { ServerResponse } from 'node:http';
import { escapeHtml, sendHtml } from './http.ts';
import { page } from './page.ts';

/**
 * What every lane's post page shares. Each lane serves its own page for each published post
 * (`/_sandbox/<id>/posts/<post id>`): where "View on the platform" leads for a channel connected
 * to the sandbox (the lane's env() sets `<ID>_POST_URL` to it), instead of the live site, which
 * knows nothing of sandbox posts.
 */

export const when = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

export function notFound(res: ServerResponse, what: string) {
  sendHtml(
    res,
    404,
    page(
      'Post not found',
      `<p class="error">The sandbox has no ${escapeHtml(what)}. Sandbox posts live in memory, so they are gone once the sandbox restarts.</p><p><a href="/">All sandbox posts</a></p>`,
    ),
  );
}
