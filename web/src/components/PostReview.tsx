import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Post } from '../api.ts';
import { formatWhen } from '../lib/time.ts';
import { ErrorBox } from './ErrorBox.tsx';

/** The member names of the workspace (name, else email), for "who said what". */
export function useMemberNames(): Map<string, string> {
  const members = useQuery({ queryKey: ['members'], queryFn: () => ok(api.GET('/v1/members')) });
  return new Map((members.data?.members ?? []).map((m) => [m.id, m.name ?? m.email]));
}

/**
 * A post's review, in words for the person reading it: who decided, and the approver's note in
 * the same sentence, since the note is what the writer acts on.
 */
export function reviewWords(post: Post, names: Map<string, string>): string {
  const review = post.approval;
  if (!review) return 'Not submitted for review.';
  if (review.state === 'pending')
    return review.runAt !== null && review.runAt > Date.now()
      ? `Waiting for an owner or admin to approve it. Once approved, it is scheduled for ${formatWhen(review.runAt)}.`
      : 'Waiting for an owner or admin to approve it.';
  // Unnamed while the member list loads, or when the decider has left the workspace.
  const who = review.decidedBy ? names.get(review.decidedBy) : undefined;
  const head =
    review.state === 'approved'
      ? who
        ? `Approved by ${who}`
        : 'Approved'
      : who
        ? `${who} asked for changes`
        : 'Changes were asked for';
  const said = review.note ? `${head}: ${review.note}${/[.!?]$/.test(review.note) ? '' : '.'}` : `${head}.`;
  return review.state === 'approved' && post.status === 'scheduled' && post.scheduledFor !== null
    ? `${said} It is scheduled for ${formatWhen(post.scheduledFor)}.`
    : said;
}

/**
 * The review state and the comments of one post, with a box to add a comment: self-contained,
 * so any page that shows a post can mount it with the post.
 */
export function PostReview({ post }: { post: Post }) {
  const queryClient = useQueryClient();
  const names = useMemberNames();
  const me = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  // Commenting is a change: a viewer reads the thread and is not offered a box it cannot use.
  const canComment = me.data !== undefined && me.data.member.role !== 'viewer';
  const key = ['comments', post.id];
  const comments = useQuery({
    queryKey: key,
    queryFn: () => ok(api.GET('/v1/posts/{id}/comments', { params: { path: { id: post.id } } })),
  });
  const [text, setText] = useState('');
  const add = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/v1/posts/{id}/comments', {
          params: { path: { id: post.id } },
          body: { text: text.trim() },
        }),
      ),
    onSuccess: () => {
      setText('');
      queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <section className="post-review" aria-label="Review and comments">
      <p className="review-state">{reviewWords(post, names)}</p>
      <ul className="comments">
        {(comments.data?.comments ?? []).map((c) => (
          <li key={c.id}>
            <strong>{names.get(c.memberId) ?? 'A former member'}</strong>: {c.text}{' '}
            <span className="muted">{formatWhen(c.createdAt)}</span>
          </li>
        ))}
      </ul>
      {canComment && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) add.mutate();
          }}
        >
          <label>
            Comment <input maxLength={2000} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="submit" disabled={!text.trim() || add.isPending}>
            Add comment
          </button>
        </form>
      )}
      {add.error ? <ErrorBox error={add.error} /> : null}
    </section>
  );
}

/** A saved post as its review reads it, shared by the review line and Compose's controls. */
export function usePostForReview(id: string | null) {
  return useQuery({
    queryKey: ['post', id, 'review'],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id: id! } } })),
    enabled: id !== null,
    // Another member decides a review: read it afresh each time it is shown, not from the cache.
    staleTime: 0,
  });
}

/** PostReview for a saved post known by id (Compose's draft): reads the post, then shows it. */
export function PostReviewById({ id }: { id: string }) {
  const post = usePostForReview(id);
  return post.data ? <PostReview post={post.data.post} /> : null;
}
