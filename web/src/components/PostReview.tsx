import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Post } from '../api.ts';
import { formatWhen } from '../lib/time.ts';
import { ErrorBox } from './ErrorBox.tsx';

/** A post's review, in words for the person reading it. */
export function reviewWords(post: Post): string {
  const review = post.approval;
  if (!review) return 'Not submitted for review.';
  if (review.state === 'pending') return 'Waiting for an owner or admin to approve it.';
  if (review.state === 'approved')
    return post.status === 'scheduled' && post.scheduledFor !== null
      ? `Approved; scheduled for ${formatWhen(post.scheduledFor)}.`
      : 'Approved.';
  return 'Changes were asked for.';
}

/**
 * The review state and the comments of one post, with a box to add a comment: self-contained,
 * so any page that shows a post can mount it with the post.
 */
export function PostReview({ post, names }: { post: Post; names?: Map<string, string> }) {
  const queryClient = useQueryClient();
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
  const note = post.approval?.note;
  return (
    <section className="post-review" aria-label="Review and comments">
      <p className="review-state">{reviewWords(post)}</p>
      {note ? <p className="review-note">Approver’s note: {note}</p> : null}
      <ul className="comments">
        {(comments.data?.comments ?? []).map((c) => (
          <li key={c.id}>
            <strong>{names?.get(c.memberId) ?? 'A member'}</strong>: {c.text}{' '}
            <span className="muted">{formatWhen(c.createdAt)}</span>
          </li>
        ))}
      </ul>
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
      {add.error ? <ErrorBox error={add.error} /> : null}
    </section>
  );
}

/** PostReview for a saved post known by id (Compose's draft): reads the post, then shows it. */
export function PostReviewById({ id }: { id: string }) {
  const post = useQuery({
    queryKey: ['post', id, 'review'],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id } } })),
  });
  return post.data ? <PostReview post={post.data.post} /> : null;
}
