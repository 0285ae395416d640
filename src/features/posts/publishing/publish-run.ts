import { and, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../../context.ts';
import { media } from '../../../db/schema/index.ts';
import type { MediaFile } from '../../../platforms/platform.ts';
import { channelTools } from '../../channels/channel-config.ts';
import type { Claim } from './claims.ts';
import { type PartStep, type Resend, sendPart } from './part-send.ts';
import { nextPart, partsOf, progressOf, recordPart, withPart } from './parts.ts';
import { markFailed, markPublished, type Outcome } from './publish-outcome.ts';

/**
 * The one publish path after a claim, shared by publish-now, the due sweep and recovery:
 * upload the media, then send the post's parts in order through the channel (parts.ts),
 * recording each part's id before the next is sent, and record the outcome.
 *
 * Exactly once per part (part-send.ts): each create is preceded by a committed
 * `createSentAt`, is never re-sent blindly after it, and an unknown outcome is settled by
 * asking the platform. A run starts at the first part not recorded, so a retry after a 429 on
 * part 3, or a recovery after a crash, never sends parts 1 and 2 again.
 */

/** The post's media, ready to stream, or the ids of those deleted since it was saved. */
type PostMedia = { kind: 'files'; files: MediaFile[] } | { kind: 'missing'; ids: string[] };

async function mediaFilesOf(deps: AppDeps, claim: Claim): Promise<PostMedia> {
  const ids = claim.row.mediaIds;
  if (ids.length === 0) return { kind: 'files', files: [] };
  const rows = await deps.db
    .select()
    .from(media)
    .where(and(eq(media.accountId, claim.row.accountId), inArray(media.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) return { kind: 'missing', ids: missing };
  const files = ids.map((id): MediaFile => {
    const row = byId.get(id)!;
    return {
      id,
      contentType: row.contentType,
      size: row.size,
      filename: row.filename,
      open: () => deps.storage.get(row.storageKey),
    };
  });
  return { kind: 'files', files };
}

/**
 * How recovery starts a run: with the first part already found on the platform, or by
 * sending it once more (sent-create-recovery.ts). Without it, the first part not recorded is
 * sent as usual.
 */
export type Start = { kind: 'found'; id: string; url: string | null } | { kind: 'resend'; resend: Resend };

/**
 * The caller keeps the claim alive while this runs (keepClaimsAlive: the sweep for a whole
 * batch, publish-now for its one post).
 */
export async function runPublish(deps: AppDeps, claim: Claim, start?: Start): Promise<Outcome> {
  const { row } = claim;
  if (!row.channelId) {
    return markFailed(deps, claim, {
      reason: 'invalid',
      code: 'invalid_request',
      message: 'The post has no channel to publish to.',
    });
  }
  const parts = partsOf(row);
  let progress = progressOf(row);
  const first = nextPart(progress, parts);
  let files: MediaFile[] = [];
  // Media go with the first part only; once it is published they are no longer needed.
  if (first === 0 && start?.kind !== 'found') {
    const loaded = await mediaFilesOf(deps, claim);
    if (loaded.kind === 'missing') {
      return markFailed(deps, claim, {
        reason: 'conflict',
        code: 'media_missing',
        message: `Media ${loaded.ids.join(', ')} was deleted before the post was published.`,
      });
    }
    files = loaded.files;
  }
  // The vault and the adapter, checked once for every part of this run; when either is missing
  // each send reports it as before (not configured: retried later).
  const tools = channelTools(deps, row.platform);
  for (let index = first; index < parts.length; index++) {
    const part = parts[index]!;
    let step: PartStep;
    if (index === first && start?.kind === 'found') {
      step = { kind: 'published', progress: withPart(progress, part, start.id, start.url) };
    } else {
      const resend = index === first && start?.kind === 'resend' ? start.resend : undefined;
      step = await sendPart(deps, claim, { part, progress, files, tools, resend });
    }
    if (step.kind === 'stopped') return step.outcome;
    progress = step.progress;
    // The last part is recorded with the post's final state, in one statement.
    if (index === parts.length - 1) break;
    if (!(await recordPart(deps, claim, part, progress))) return { kind: 'lost' };
  }
  return markPublished(deps, claim, progress);
}
