import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Post } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { PostReview, useMemberNames } from '../components/PostReview.tsx';
import { formatWhen, fromLocalInput, zoneLabelOf } from '../lib/time.ts';
import { Link } from '../router.tsx';

/**
 * Approvals: for owners and admins, the posts waiting for them, each to approve or send back
 * with a note; for everyone, the drafts, to submit for review (with the time they want) and
 * the ones sent back, with the approver's note. Each post shows its review and its comments.
 */
export function ApprovalsPage() {
  const queryClient = useQueryClient();
  const me = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => ok(api.GET('/v1/account/settings')) });
  const pending = useQuery({
    queryKey: ['posts', 'approval', 'pending'],
    queryFn: () => ok(api.GET('/v1/posts', { params: { query: { approval: 'pending', limit: 100 } } })),
    // Writers submit and approvers decide in other browsers: the page reads afresh when opened.
    staleTime: 0,
  });
  const drafts = useQuery({
    queryKey: ['posts', 'status', 'draft'],
    queryFn: () => ok(api.GET('/v1/posts', { params: { query: { status: 'draft', limit: 100 } } })),
    staleTime: 0,
  });
  // Approved with a time wanted, a post is scheduled and leaves the drafts: it is listed here so
  // its writer sees the decision and when it goes out.
  const scheduled = useQuery({
    queryKey: ['posts', 'approval', 'approved', 'scheduled'],
    queryFn: () =>
      ok(
        api.GET('/v1/posts', {
          params: { query: { approval: 'approved', status: 'scheduled', limit: 100 } },
        }),
      ),
    staleTime: 0,
  });
  const names = useMemberNames();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['posts'] });
  if (me.isPending) return <Working label="Loading" />;
  const role = me.data?.member.role;
  const approver = role === 'owner' || role === 'admin';
  // An approver sees a pending draft in the queue above, once.
  const toSubmit = (drafts.data?.posts ?? []).filter((p) => !approver || p.approval?.state !== 'pending');
  return (
    <div>
      <h1>Approvals</h1>
      <p className="muted">
        {settings.data?.settings.approvals === 'required'
          ? 'Approvals are required: an editor’s post goes out once an owner or admin approves it.'
          : 'Approvals are off: anyone who may publish can schedule posts without review. Posts can still be submitted for a second look.'}
      </p>
      {approver ? (
        <section className="card">
          <h2>Waiting for your approval</h2>
          {pending.error ? <ErrorBox error={pending.error} /> : null}
          {pending.data && pending.data.posts.length === 0 ? <p>Nothing is waiting.</p> : null}
          {(pending.data?.posts ?? []).map((post) => (
            <PendingPost key={post.id} post={post} names={names} onDone={refresh} />
          ))}
        </section>
      ) : null}
      <section className="card">
        <h2>Drafts</h2>
        {drafts.data && toSubmit.length === 0 ? <p>No drafts.</p> : null}
        {toSubmit.map((post) => (
          <DraftToSubmit key={post.id} post={post} canSubmit={role !== 'viewer'} onDone={refresh} />
        ))}
      </section>
      {scheduled.data && scheduled.data.posts.length > 0 ? (
        <section className="card">
          <h2>Approved and scheduled</h2>
          {scheduled.data.posts.map((post) => (
            <article key={post.id} className="review-item" aria-label="Approved post">
              <PostText post={post} />
              {role !== 'viewer' ? (
                <p>
                  <Link to={`/compose?post=${post.id}`}>Open it in Compose</Link>
                </p>
              ) : null}
              <PostReview post={post} />
            </article>
          ))}
        </section>
      ) : null}
    </div>
  );
}

function PostText({ post }: { post: Post }) {
  return (
    <blockquote className="post-text">
      {post.text}
      <span className="muted"> ({post.platform})</span>
    </blockquote>
  );
}

/** Who submitted the post and what approving it does with the time they asked for. */
function submittedLine(by: string | undefined, runAt: number | null): string {
  const who = `Submitted by ${by ?? 'a member'}`;
  if (runAt === null)
    return `${who}, with no time asked for: approving leaves it a draft to schedule or publish.`;
  if (runAt <= Date.now())
    return `${who} for ${formatWhen(runAt)}, which has passed: approving leaves it a draft to schedule or publish.`;
  return `${who} for ${formatWhen(runAt)}: approving schedules it then.`;
}

function PendingPost({
  post,
  names,
  onDone,
}: {
  post: Post;
  names: Map<string, string>;
  onDone: () => void;
}) {
  const [note, setNote] = useState('');
  const decide = useMutation({
    mutationFn: (verb: 'approve' | 'request-changes') =>
      verb === 'approve'
        ? ok(
            api.POST('/v1/posts/{id}/approve', {
              params: { path: { id: post.id } },
              body: note.trim() ? { note: note.trim() } : {},
            }),
          )
        : ok(
            api.POST('/v1/posts/{id}/request-changes', {
              params: { path: { id: post.id } },
              body: { note: note.trim() },
            }),
          ),
    onSuccess: onDone,
  });
  const by = post.approval?.requestedBy ? names.get(post.approval.requestedBy) : undefined;
  return (
    <article className="review-item" aria-label={`Post by ${by ?? 'a member'}`}>
      <PostText post={post} />
      <p className="muted">{submittedLine(by, post.approval?.runAt ?? null)}</p>
      <label>
        Note for the writer{' '}
        <textarea maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      <div className="actions">
        <button type="button" disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
          Approve
        </button>
        <button
          type="button"
          disabled={decide.isPending || !note.trim()}
          title={note.trim() ? undefined : 'Write a note saying what to change'}
          onClick={() => decide.mutate('request-changes')}
        >
          Ask for changes
        </button>
      </div>
      {decide.error ? <ErrorBox error={decide.error} /> : null}
      <PostReview post={post} />
    </article>
  );
}

/**
 * A draft with what its writer can do next: submit it (with the time wanted), edit it after a
 * send-back, or, once approved, schedule or publish it in Compose, where those controls are.
 */
function DraftToSubmit({
  post,
  canSubmit,
  onDone,
}: {
  post: Post;
  /** A viewer reads drafts; submitting is an editor's. */
  canSubmit: boolean;
  onDone: () => void;
}) {
  const [when, setWhen] = useState('');
  // The field's time is read in the browser's zone (as Compose reads it), and its label names that zone.
  const runAt = when ? fromLocalInput(when) : null;
  const submit = useMutation({
    mutationFn: () => {
      return ok(
        api.POST('/v1/posts/{id}/submit', {
          params: { path: { id: post.id } },
          body: runAt === null ? {} : { runAt },
        }),
      );
    },
    onSuccess: onDone,
  });
  return (
    <article className="review-item" aria-label="Draft">
      <PostText post={post} />
      {canSubmit && post.approval?.state === 'approved' ? (
        <p>
          <Link to={`/compose?post=${post.id}`}>Schedule or publish it in Compose</Link>
        </p>
      ) : null}
      {canSubmit && post.approval?.state !== 'approved' ? (
        <p>
          <Link to={`/compose?post=${post.id}`}>Edit it in Compose</Link>
        </p>
      ) : null}
      {!canSubmit || post.approval?.state === 'approved' || post.approval?.state === 'pending' ? null : (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            submit.mutate();
          }}
        >
          <label>
            Publish at (optional, {zoneLabelOf(runAt)}){' '}
            <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} />
          </label>
          <button type="submit" disabled={submit.isPending}>
            Submit for review
          </button>
        </form>
      )}
      {submit.error ? <ErrorBox error={submit.error} /> : null}
      <PostReview post={post} />
    </article>
  );
}
