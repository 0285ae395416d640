import type { UseMutationResult } from '@tanstack/react-query';
import type { Post } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { formatWhen, fromLocalInput, zoneLabelOf } from '../lib/time.ts';
import { useSaveAct } from './ComposePublish.tsx';
import type { SaveAction, SaveResult } from './compose-save.ts';

/**
 * Compose's controls for a writer whose posts wait for an approver (an editor while the
 * workspace requires approvals): Schedule, Add to queue and Publish now would each be refused
 * (409 approval_required), so they are not offered; the post is saved and submitted for review
 * with the time wanted, which the approver's approval schedules. Once approved, Compose offers
 * the usual controls again (PublishControls).
 */
export function ReviewControls({
  save,
  canSave,
  blocked,
  canPost,
  when,
  onWhen,
  pending,
}: {
  save: UseMutationResult<SaveResult, Error, SaveAction>;
  canSave: boolean;
  blocked: boolean;
  canPost: boolean;
  when: string;
  onWhen: (value: string) => void;
  /** Already submitted and waiting: submitting again is not offered (the review line says it waits). */
  pending: boolean;
}) {
  const runAt = fromLocalInput(when);
  const past = runAt !== null && runAt <= Date.now();
  const { act, acting } = useSaveAct(save);
  return (
    <fieldset className="schedule">
      <legend>Review</legend>
      <div className="row wrap">
        <button type="button" onClick={() => act('draft')} disabled={!canSave || acting}>
          Save draft
        </button>
        {!pending && (
          <>
            <label>
              Publish at (optional, {zoneLabelOf(runAt)}){' '}
              <input type="datetime-local" value={when} step={1} onChange={(e) => onWhen(e.target.value)} />
            </label>
            <button
              type="button"
              className="primary"
              onClick={() => act('submit')}
              disabled={blocked || !canPost || past || acting}
              aria-describedby={past ? 'submit-why' : undefined}
            >
              Submit for review
            </button>
          </>
        )}
      </div>
      {past && (
        <p className="hint" id="submit-why">
          {formatWhen(runAt)} has passed: pick a time in the future, or clear it and schedule the post once it
          is approved.
        </p>
      )}
      {!canPost && <p className="hint">Choose a connected channel to submit the post for review.</p>}
      <p className="hint">
        Approvals are required in this workspace: an owner or admin approves the post before it is scheduled
        or published.
      </p>
      {acting && (
        <Working
          label={save.variables === 'submit' ? 'Submitting…' : 'Saving…'}
          hint="The buttons wake up when the answer is in, so nothing is sent twice."
        />
      )}
      <ErrorBox error={save.error} />
    </fieldset>
  );
}

type ReviewState = 'approved' | 'pending' | 'changes_requested' | null;

/**
 * Where the posts Compose writes (one, or a group's) stand in review: approved only when every
 * one is, sent back when any is, pending when the rest wait; null before any was submitted.
 */
export function reviewOf(posts: readonly Post[]): ReviewState {
  const states = posts.map((p) => p.approval?.state ?? null);
  if (states.length === 0) return null;
  if (states.every((s) => s === 'approved')) return 'approved';
  if (states.includes('changes_requested')) return 'changes_requested';
  if (states.every((s) => s === 'pending' || s === 'approved')) return 'pending';
  return null;
}
