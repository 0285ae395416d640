import type { UseMutationResult } from '@tanstack/react-query';
import { useRef } from 'react';
import type { Channel, Post, Schemas } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { channelName } from '../lib/channels.ts';
import { explainPostError } from '../lib/errors.ts';
import { usePlatformFacts } from '../lib/hooks.ts';
import { publishedParts, publishedSentence } from '../lib/parts.ts';
import { seriesSentence } from '../lib/series-notice.ts';
import { formatWhen, fromLocalInput, zoneLabelOf } from '../lib/time.ts';
import { Link } from '../router.tsx';
import { QueueLine, useChannelQueues } from './ComposeQueue.tsx';
import type { GroupRefusal } from './compose-group.ts';
import type { SaveAction, SavedGroup, SaveResult } from './compose-save.ts';

/** One save action per click: a second click before the first one's answer (a double-click) is ignored, not queued. */
export function useSaveAct(save: UseMutationResult<SaveResult, Error, SaveAction>) {
  const clicked = useRef(false);
  const act = (action: SaveAction) => {
    if (clicked.current) return;
    clicked.current = true;
    save.mutate(action, {
      onSettled: () => {
        clicked.current = false;
      },
    });
  };
  return { act, acting: save.isPending && save.variables !== 'autosave' };
}

/** Save draft, the date and time in the browser's zone, Schedule, Publish now. */
export function PublishControls({
  save,
  canSave,
  blocked,
  canPost,
  when,
  onWhen,
  channels,
  scheduledEdit = false,
}: {
  save: UseMutationResult<SaveResult, Error, SaveAction>;
  canSave: boolean;
  /** Validation found an error in some part. */
  blocked: boolean;
  /** A connected channel is chosen. */
  canPost: boolean;
  when: string;
  onWhen: (value: string) => void;
  /** The chosen connected channels (one per tab), whose queues "Add to queue" fills. */
  channels: Channel[];
  /** Editing a post that is already scheduled: save its changes, move it, or publish it now. */
  scheduledEdit?: boolean;
}) {
  const runAt = fromLocalInput(when);
  const zoneLabel = zoneLabelOf(runAt);
  const { act, acting } = useSaveAct(save);
  const queues = useChannelQueues(channels.map((c) => c.id));
  // Each post of a group takes its own channel's slot: every channel needs weekly slots.
  const hasSlots = queues.length > 0 && queues.every((q) => (q.data?.queue.slots.length ?? 0) > 0);
  const past = runAt !== null && runAt <= Date.now();
  return (
    <fieldset className="schedule">
      <legend>Publish</legend>
      <div className="row wrap">
        <button
          type="button"
          onClick={() => act('draft')}
          disabled={!canSave || acting || (scheduledEdit && blocked)}
        >
          {scheduledEdit ? 'Save changes' : 'Save draft'}
        </button>
        <label>
          Date and time ({zoneLabel}){' '}
          <input type="datetime-local" value={when} step={1} onChange={(e) => onWhen(e.target.value)} />
        </label>
        <button
          type="button"
          onClick={() => act('schedule')}
          disabled={blocked || !canPost || !runAt || past || acting}
          aria-describedby={past ? 'schedule-why' : undefined}
        >
          {scheduledEdit ? 'Save and move to this time' : 'Schedule'}
        </button>
        {!scheduledEdit && (
          <button
            type="button"
            onClick={() => act('queue')}
            disabled={blocked || !canPost || !hasSlots || acting}
            aria-describedby="queue-line"
          >
            Add to queue
          </button>
        )}
        <button
          type="button"
          className="primary"
          onClick={() => act('publish')}
          disabled={blocked || !canPost || acting}
        >
          Publish now
        </button>
      </div>
      {past && (
        <p className="hint" id="schedule-why">
          Schedule is off because {formatWhen(runAt)} has passed: pick a time in the future.
        </p>
      )}
      {!canPost && <p className="hint">Choose a connected channel to schedule or publish.</p>}
      {channels.length > 0 && !scheduledEdit && (
        <div id="queue-line">
          {channels.map((c, i) => (
            <QueueLine key={c.id} channel={c} queue={queues[i]!} />
          ))}
        </div>
      )}
      {acting && (
        <Working
          label={
            save.variables === 'publish'
              ? 'Publishing…'
              : save.variables === 'queue'
                ? channels.length > 1
                  ? 'Adding to the queues…'
                  : 'Adding to the queue…'
                : 'Saving…'
          }
          hint="The buttons wake up when the answer is in, so nothing is sent twice."
        />
      )}
      <ErrorBox error={save.error} />
    </fieldset>
  );
}

/** What became of the post just saved: its status in words, and for a failure the reason. */
export function DoneNotice({
  post,
  onAgain,
  onCopy,
  queued = false,
  series = null,
}: {
  post: Post;
  /** The series this post starts, when Repeat made it: the sentence is about the whole series. */
  series?: Schemas['Series'] | null;
  /** It was added to its channel's queue (Add to queue). */
  queued?: boolean;
  onAgain: () => void;
  /** Start a new post with the same text: the only way to publish the same text again. */
  onCopy: () => void;
}) {
  const parts = publishedParts(post, usePlatformFacts(post.platform));
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
  const what = series
    ? seriesSentence(series, post.scheduledFor)
    : post.status === 'scheduled' && post.scheduledFor
      ? queued
        ? `Added to the queue: scheduled for ${formatWhen(post.scheduledFor)}, the next free slot.`
        : `Scheduled for ${formatWhen(post.scheduledFor)}.`
      : post.status === 'published'
        ? publishedSentence(post)
        : post.status === 'draft'
          ? post.approval?.state === 'pending'
            ? 'Submitted for review.'
            : 'Saved as a draft.'
          : `Status: ${post.status}.`;
  return (
    <Notice kind="success">
      {what}{' '}
      {post.platformUrl && (
        <>
          <a href={post.platformUrl} target="_blank" rel="noreferrer">
            View it on the platform
          </a>{' '}
          ·{' '}
        </>
      )}
      {post.status === 'scheduled' && (
        <>
          <Link to={`/compose?post=${post.id}`}>Edit it</Link> ·{' '}
        </>
      )}
      <Link to={`/posts?open=${post.id}`}>Open it</Link> · <Link to="/calendar">Calendar</Link> ·{' '}
      <button type="button" className="link" onClick={onAgain}>
        Write another
      </button>
      {post.status !== 'draft' && (
        <>
          {' '}
          ·{' '}
          <button type="button" className="link" onClick={onCopy}>
            Publish a copy
          </button>
        </>
      )}
    </Notice>
  );
}

/** Where the text in the editor is kept right now, in one line. */
export function AutosaveLine(props: {
  finished: boolean;
  saving: boolean;
  unsaved: boolean;
  savedAt: number | null;
  /** A channel is chosen or the post is already on the server: autosave writes a server draft. */
  serverDraft: boolean;
  /** The live check's verdict on the current text; null while it runs. */
  valid: boolean | null;
  hasText: boolean;
  scheduledEdit?: boolean;
  /** How many channels the post goes to: a draft is saved for each. */
  channels?: number;
}) {
  if (props.finished || !props.hasText) return null;
  if (props.scheduledEdit)
    return (
      <p className="muted autosave" role="status" aria-live="polite">
        {props.saving
          ? 'Saving the changes…'
          : props.unsaved
            ? 'This post is scheduled: your changes are sent when you press Save changes.'
            : props.savedAt
              ? 'Changes saved; the post publishes at its time with them.'
              : 'This post is scheduled: edit it until its publish starts.'}
      </p>
    );
  const time = props.savedAt
    ? new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(
        props.savedAt,
      )
    : null;
  const several = (props.channels ?? 1) > 1;
  const line = props.saving
    ? several
      ? 'Saving the drafts…'
      : 'Saving the draft…'
    : !props.serverDraft
      ? 'Kept in this browser. Choose a channel to keep a draft on the server too.'
      : !props.unsaved && time
        ? several
          ? `Drafts saved at ${time}, one for each of the ${props.channels} channels.`
          : `Draft saved at ${time}.`
        : props.valid === false
          ? several
            ? 'Kept in this browser; the server drafts are saved once every tab’s problems are fixed.'
            : 'Kept in this browser; the server draft is saved once the problems above are fixed.'
          : several
            ? 'Kept in this browser; saving the drafts when you pause.'
            : 'Kept in this browser; saving the draft when you pause.';
  return (
    <p className="muted autosave" role="status" aria-live="polite">
      {line}
    </p>
  );
}

/** What one post of a group became, in one sentence. */
function groupPostSentence(post: Post, queued: boolean, refusal: GroupRefusal | undefined): string {
  if (post.status === 'failed') {
    const e = explainPostError(post.error);
    return `Failed. ${e.reason} ${e.action}`;
  }
  if (refusal && post.status === 'draft') return `Still a draft: ${refusal.message}`;
  if (refusal && post.status !== 'published') return `Not published: ${refusal.message}`;
  if (post.status === 'scheduled' && post.scheduledFor)
    return queued
      ? `Added to its queue: scheduled for ${formatWhen(post.scheduledFor)}, its next free slot.`
      : `Scheduled for ${formatWhen(post.scheduledFor)}.`;
  if (post.status === 'published') return publishedSentence(post);
  if (post.status === 'draft') return 'Saved as a draft.';
  return `Status: ${post.status}.`;
}

/** What became of a post to several channels: one line per channel, then what to do next. */
export function GroupDoneNotice({
  group,
  channels,
  queued,
  onAgain,
  onCopy,
}: {
  group: SavedGroup;
  /** The account's channels, to name each post's. */
  channels: Channel[];
  queued: boolean;
  onAgain: () => void;
  onCopy: () => void;
}) {
  const { posts, refused } = group;
  const failed = posts.some((p) => p.status === 'failed' || refused.some((r) => r.postId === p.id));
  const nameOf = (post: Post) => {
    const channel = channels.find((c) => c.id === post.channelId);
    return channel ? channelName(channel) : post.platform;
  };
  const published = posts.filter((p) => p.status === 'published').length;
  const scheduled = posts.filter((p) => p.status === 'scheduled').length;
  const head = failed
    ? `Not every channel took the post: ${published > 0 || scheduled === 0 ? `${published} of ${posts.length} published` : `${scheduled} of ${posts.length} scheduled`}.`
    : posts.every((p) => p.status === 'published')
      ? `Published on ${posts.length} channels.`
      : posts.every((p) => p.status === 'draft')
        ? `Saved as drafts for ${posts.length} channels.`
        : `Scheduled on ${posts.length} channels.`;
  return (
    <div className={failed ? 'error' : 'notice success'} role={failed ? 'alert' : 'status'}>
      <p>{head}</p>
      <ul className="group-done">
        {posts.map((post) => (
          <li key={post.id}>
            <strong>{nameOf(post)}</strong>:{' '}
            {groupPostSentence(
              post,
              queued,
              refused.find((r) => r.postId === post.id),
            )}{' '}
            {post.platformUrl && (
              <>
                <a href={post.platformUrl} target="_blank" rel="noreferrer">
                  View it on the platform
                </a>{' '}
                ·{' '}
              </>
            )}
            <Link to={`/posts?open=${post.id}`}>Open it</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/calendar">Calendar</Link> ·{' '}
        <button type="button" className="link" onClick={onAgain}>
          Write another
        </button>
        {posts.some((p) => p.status !== 'draft') && (
          <>
            {' '}
            ·{' '}
            <button type="button" className="link" onClick={onCopy}>
              Publish a copy
            </button>
          </>
        )}
      </p>
    </div>
  );
}
