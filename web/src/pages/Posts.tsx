import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, type Post } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { PartsSummary, PostParts } from '../components/PostParts.tsx';
import { Status } from '../components/Status.tsx';
import { ApiError, explainPostError } from '../lib/errors.ts';
import { useApprovalsHold } from '../lib/hooks.ts';
import { formatWhen, fromLocalInput, toLocalInput } from '../lib/time.ts';
import { Link, navigate, useRoute } from '../router.tsx';

const TABS = ['all', 'draft', 'scheduled', 'publishing', 'published', 'failed', 'canceled'] as const;
type Tab = (typeof TABS)[number];

export function PostsPage() {
  const route = useRoute();
  const tab = (TABS.includes(route.params.get('status') as Tab) ? route.params.get('status') : 'all') as Tab;
  const open = route.params.get('open');
  const posts = useQuery({
    queryKey: ['posts', tab],
    queryFn: () =>
      ok(
        api.GET('/v1/posts', {
          params: { query: { limit: 100, ...(tab === 'all' ? {} : { status: tab }) } },
        }),
      ),
    // Watch scheduled and publishing posts move on without a reload.
    refetchInterval: 5000,
  });
  return (
    <div>
      <h1>Posts</h1>
      <p className="muted">
        Everything you wrote, by status. This list refreshes itself, so you can watch scheduled posts go out.
      </p>
      <div className="tabs" role="tablist" aria-label="Filter by status">
        {TABS.map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? 'on' : ''}
            onClick={() => navigate(t === 'all' ? '/posts' : `/posts?status=${t}`)}
          >
            {t === 'all' ? 'All' : t[0]!.toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      {posts.isPending && <Working label="Loading posts…" />}
      <ErrorBox error={posts.error} />
      {posts.data?.posts.length === 0 && (
        <p className="muted">
          No posts here yet. <Link to="/compose">Write one</Link>.
        </p>
      )}
      <ul className="post-list">
        {open && posts.data && !posts.data.posts.some((p) => p.id === open) && <OpenPost id={open} />}
        {posts.data?.posts.map((p) => (
          <PostRow key={p.id} post={p} expanded={open === p.id} />
        ))}
      </ul>
    </div>
  );
}

/** The post a link opened, when the current tab does not list it. */
function OpenPost({ id }: { id: string }) {
  const post = useQuery({
    queryKey: ['posts', 'one', id],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id } } })),
    refetchInterval: 5000,
  });
  if (post.error) return <ErrorBox error={post.error} />;
  return post.data ? <PostRow post={post.data.post} expanded /> : null;
}

/**
 * A post in a list, or opened (`expanded`). On the post's own page (`onItsPage`) the page says
 * its status, time and platform link above, so the row leaves them out.
 */
export function PostRow({
  post,
  expanded = false,
  onItsPage = false,
}: {
  post: Post;
  expanded?: boolean;
  onItsPage?: boolean;
}) {
  const queryClient = useQueryClient();
  const held = useApprovalsHold();
  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['posts'] });
    queryClient.invalidateQueries({ queryKey: ['calendar'] });
  };
  const act = useMutation({
    mutationFn: async (action: 'publish' | 'cancel' | 'delete' | 'score') => {
      const params = { params: { path: { id: post.id } } };
      if (action === 'delete') return ok(api.DELETE('/v1/posts/{id}', params));
      // Scores the stored text and keeps it against the post: Analytics compares it with engagement.
      if (action === 'score') return ok(api.POST('/v1/posts/{id}/score', params));
      try {
        return await ok(
          api.POST(action === 'publish' ? '/v1/posts/{id}/publish' : '/v1/posts/{id}/cancel', params),
        );
      } catch (err) {
        // A failed publish still changed the post: refresh so its reason shows.
        if (err instanceof ApiError && err.post) refresh();
        throw err;
      }
    },
    onSuccess: refresh,
  });
  const when = post.publishedAt ?? post.scheduledFor;
  // An editor's post not yet approved would be refused (approvals required): publishing and
  // moving it are not offered; Compose and Approvals submit it for review.
  const mayPublish = !held || post.approval?.state === 'approved';
  const failure = post.status === 'failed' ? explainPostError(post.error) : null;
  const terminal = post.status === 'published' || post.status === 'failed' || post.status === 'canceled';
  return (
    <li className={`post-row ${expanded ? 'open' : ''}`} id={`post-${post.id}`}>
      {!onItsPage && (
        <div className="row wrap">
          <Status value={post.status} />
          <span className="muted">
            {when ? formatWhen(when) : `created ${formatWhen(post.createdAt)}`} · {post.platform}
          </span>
        </div>
      )}
      <p className={expanded ? 'pre' : 'clip'} dir="auto">
        {post.text}
      </p>
      {expanded ? <PostParts post={post} /> : <PartsSummary post={post} />}
      {failure && (
        <div className="error" role="note">
          <strong>Why it failed:</strong> {failure.reason} <span className="action">{failure.action}</span>
        </div>
      )}
      <div className="row wrap actions">
        {(post.status === 'draft' || (post.status === 'scheduled' && !post.platformPostId)) && (
          <Link to={`/compose?post=${post.id}`}>Edit</Link>
        )}
        {(post.status === 'failed' || post.status === 'canceled') && (
          // Compose loads the post by id and prefills all of it (thread, first comment, channel, media).
          <Link to={`/compose?copy=${post.id}`}>Write a copy</Link>
        )}
        {post.status === 'published' && (
          <button type="button" onClick={() => act.mutate('score')} disabled={act.isPending}>
            Record its score
          </button>
        )}
        {(post.status === 'draft' || post.status === 'scheduled') && post.channelId && mayPublish && (
          <button type="button" onClick={() => act.mutate('publish')} disabled={act.isPending}>
            Publish now
          </button>
        )}
        {post.status === 'scheduled' && mayPublish && <Reschedule post={post} />}
        {!terminal && (
          <button type="button" onClick={() => act.mutate('cancel')} disabled={act.isPending}>
            Cancel
          </button>
        )}
        <button
          type="button"
          className="danger"
          onClick={() => window.confirm(deleteQuestion(post)) && act.mutate('delete')}
          disabled={act.isPending}
        >
          Delete
        </button>
        {post.platformUrl && !onItsPage && (
          <a href={post.platformUrl} target="_blank" rel="noreferrer">
            View on the platform
          </a>
        )}
        {!expanded && <Link to={`/post?id=${post.id}`}>Open its page</Link>}
      </div>
      {act.isPending && <Working label="Working…" />}
      {act.isSuccess && act.variables === 'score' && <p className="muted">Score recorded: see Analytics.</p>}
      <ErrorBox error={act.error} />
    </li>
  );
}

/** What deleting does, said before it is done: a published post stays on the platform. */
export function deleteQuestion(post: Pick<Post, 'status' | 'platform' | 'platformPostId'>): string {
  if (post.status === 'published' || post.platformPostId)
    return `Delete this post from Postkit? It stays on ${post.platform}: Postkit does not delete it there. This cannot be undone.`;
  if (post.status === 'publishing')
    return `Delete this post from Postkit? It is being published right now, so it may still appear on ${post.platform}, and Postkit would not delete it there. This cannot be undone.`;
  if (post.status === 'scheduled')
    return 'Delete this scheduled post? It will not be published, and this cannot be undone.';
  return 'Delete this post? Nothing of it was published, and this cannot be undone.';
}

/** Moving a scheduled post from the keyboard (the calendar's drag does the same with a mouse). */
function Reschedule({ post }: { post: Post }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [when, setWhen] = useState(() => toLocalInput(post.scheduledFor ?? Date.now() + 3_600_000));
  const runAt = fromLocalInput(when);
  const move = useMutation({
    mutationFn: () =>
      ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: post.id } }, body: { runAt: runAt! } })),
    onSuccess: () => {
      setOpen(false);
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
    },
  });
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Reschedule
      </button>
    );
  return (
    <span className="row wrap">
      <label>
        New time{' '}
        <input type="datetime-local" value={when} step={1} onChange={(e) => setWhen(e.target.value)} />
      </label>
      <button
        type="button"
        onClick={() => move.mutate()}
        disabled={!runAt || runAt <= Date.now() || move.isPending}
        aria-describedby={`move-why-${post.id}`}
      >
        Move
      </button>
      <span className="hint" id={`move-why-${post.id}`}>
        {!runAt
          ? 'Move is off until the new time is a complete date and time.'
          : runAt <= Date.now()
            ? `Move is off because ${formatWhen(runAt)} has passed: pick a time in the future.`
            : ''}
      </span>
      <ErrorBox error={move.error} />
    </span>
  );
}
