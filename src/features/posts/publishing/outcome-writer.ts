import type { AppDeps } from '../../../context.ts';
import { groupCommit } from '../../../jobs/group-commit.ts';
import { recordEvents } from '../../events/events.service.ts';
import { type PostRow, toPost } from '../core/post-row.ts';
import { type PostChanges, transitionEach } from '../core/transitions.ts';
import type { Claim } from './claims.ts';

/** A terminal outcome: the transition, written only while `claim` still holds the post. */
export interface FinalWrite {
  claim: Claim;
  event: 'succeed' | 'fail';
  changes: PostChanges;
}

declare module '../../../context.ts' {
  interface ProcessMemory {
    /** Terminal outcomes and their events, written in groups (finalWriter). */
    finalWrites: (write: FinalWrite) => Promise<PostRow | null>;
  }
}

/**
 * Writes a terminal outcome and its event (post.published, post.failed) in one transaction,
 * together with the other outcomes that arrive meanwhile (the jobs kit's group commit): under a
 * burst of due posts one transaction of a few statements finalises many posts, where each
 * post's own transaction took five. Each post's write stays conditional on its own claim: a
 * post whose claim was lost writes nothing (null) and gets no event, without affecting the
 * others. A failing statement rolls the whole group back and every caller gets the error.
 */
export function writeFinal(deps: AppDeps, write: FinalWrite): Promise<PostRow | null> {
  return deps.memory.finalWrites(write);
}

/** The group commit behind writeFinal, made once per process by createDeps. */
export function finalWriter(
  deps: Pick<AppDeps, 'db' | 'clock'>,
): (write: FinalWrite) => Promise<PostRow | null> {
  return groupCommit((batch: FinalWrite[]) => finalizeAll(deps, batch));
}

async function finalizeAll(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  batch: FinalWrite[],
): Promise<(PostRow | null)[]> {
  return deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const moved = new Map<string, PostRow>();
    // One statement per event and set of columns (a thread's outcome writes more of them).
    const groups = Map.groupBy(batch, (w) => `${w.event}:${Object.keys(w.changes).sort().join()}`);
    for (const group of groups.values()) {
      const entries = group.map(({ claim, changes }) => ({
        id: claim.row.id,
        claimedBy: claim.token,
        changes: { ...changes, updatedAt: now },
      }));
      for (const row of await transitionEach(tx, group[0]!.event, entries)) moved.set(row.id, row);
    }
    const rows = batch.map(({ claim }) => {
      const row = moved.get(claim.row.id);
      return row?.claimedBy === claim.token ? row : null;
    });
    await recordEvents(
      tx,
      batch.flatMap(({ event }, i) => {
        const row = rows[i];
        if (!row) return [];
        const type = event === 'succeed' ? 'post.published' : 'post.failed';
        return [{ accountId: row.accountId, type, data: { post: toPost(row) }, now }];
      }),
    );
    return rows;
  });
}
