import type { UseMutationResult } from '@tanstack/react-query';
import type { Post } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { explainPostError } from '../lib/errors.ts';
import { publishedParts, publishedSentence } from '../lib/parts.ts';
import { browserZone, formatWhen, fromLocalInput, zoneAbbreviation } from '../lib/time.ts';
import { Link } from '../router.tsx';
import type { SaveAction } from './compose-save.ts';

/** Save draft, the date and time in the browser's zone, Schedule, Publish now. */
export function PublishControls({
  save,
  canSave,
  blocked,
  canPost,
  when,
  onWhen,
}: {
  save: UseMutationResult<Post, Error, SaveAction>;
  canSave: boolean;
  /** Validation found an error in some part. */
  blocked: boolean;
  /** A connected channel is chosen. */
  canPost: boolean;
  when: string;
  onWhen: (value: string) => void;
}) {
  const runAt = fromLocalInput(when);
  const zone = browserZone();
  const abbreviation = zoneAbbreviation(runAt ?? Date.now());
  const zoneLabel = abbreviation === zone ? zone : `${zone}, ${abbreviation}`;
  return (
    <fieldset className="schedule">
      <legend>Publish</legend>
      <div className="row wrap">
        <button type="button" onClick={() => save.mutate('draft')} disabled={!canSave || save.isPending}>
          Save draft
        </button>
        <label>
          Date and time ({zoneLabel}){' '}
          <input type="datetime-local" value={when} step={1} onChange={(e) => onWhen(e.target.value)} />
        </label>
        <button
          type="button"
          onClick={() => save.mutate('schedule')}
          disabled={blocked || !canPost || !runAt || runAt <= Date.now() || save.isPending}
        >
          Schedule
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => save.mutate('publish')}
          disabled={blocked || !canPost || save.isPending}
        >
          Publish now
        </button>
      </div>
      {runAt && runAt <= Date.now() && <p className="hint">Pick a time in the future to schedule.</p>}
      {!canPost && <p className="hint">Choose a connected channel to schedule or publish.</p>}
      {save.isPending && <Working label="Saving…" hint="Publishing waits for the platform's answer." />}
      <ErrorBox error={save.error} />
    </fieldset>
  );
}

/** What became of the post just saved: its status in words, and for a failure the reason. */
export function DoneNotice({ post, onAgain }: { post: Post; onAgain: () => void }) {
  const parts = publishedParts(post);
  const out = parts.filter((p) => p.state === 'published').length;
  if (post.status === 'failed') {
    const e = explainPostError(post.error);
    return (
      <div className="error" role="alert">
        <strong>The post failed.</strong> {e.reason} <span className="action">{e.action}</span>
        {parts.length > 1 && out > 0 && (
          <span>
            {' '}
            {out} of {parts.length} parts were published and stay on the platform.
          </span>
        )}{' '}
        <Link to={`/posts?open=${post.id}`}>Open it</Link>
      </div>
    );
  }
  const what =
    post.status === 'scheduled' && post.scheduledFor
      ? `Scheduled for ${formatWhen(post.scheduledFor)}.`
      : post.status === 'published'
        ? publishedSentence(post)
        : post.status === 'draft'
          ? 'Saved as a draft.'
          : `Status: ${post.status}.`;
  return (
    <Notice kind="success">
      {what} <Link to={`/posts?open=${post.id}`}>Open it</Link> · <Link to="/calendar">Calendar</Link> ·{' '}
      <button type="button" className="link" onClick={onAgain}>
        Write another
      </button>
      {post.platformUrl && (
        <>
          {' '}
          · <a href={post.platformUrl}>View on the platform</a>
        </>
      )}
    </Notice>
  );
}
