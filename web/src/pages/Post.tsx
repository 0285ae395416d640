import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok, type Post, type Schemas } from '../api.ts';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { Status } from '../components/Status.tsx';
import { channelName } from '../lib/channels.ts';
import { useChannels } from '../lib/hooks.ts';
import { openingWords } from '../lib/opening-words.ts';
import { formatWhen } from '../lib/time.ts';
import { Link, useRoute } from '../router.tsx';
import { PostMetricsChart } from './PostMetricsChart.tsx';
import { PostRow } from './Posts.tsx';

type Delivery = Schemas['PostDelivery'];

/**
 * One post on one page (`#/post?id=…`): its text and parts with what can be done to it (the
 * Posts list's row, opened), where it went on the platform, the scores recorded for it, its
 * metrics over time and the webhook deliveries its events caused.
 */
export function PostPage() {
  const id = useRoute().params.get('id') ?? '';
  const post = useQuery({
    queryKey: ['posts', 'one', id],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id } } })),
    enabled: id !== '',
    // A scheduled or publishing post moves on by itself: follow it.
    refetchInterval: 5000,
  });
  if (!id)
    return (
      <div>
        <h1>Post</h1>
        <p>
          This address names no post. Open one from <Link to="/posts">Posts</Link>.
        </p>
      </div>
    );
  const p = post.data?.post;
  return (
    <div>
      <h1>{p ? `Post: ${openingWords(p.text)}` : 'Post'}</h1>
      <p>
        <Link to="/posts">All posts</Link>
      </p>
      {post.isPending && <Working label="Loading the post…" />}
      <ErrorBox error={post.error} />
      {p && (
        <>
          <Where post={p} />
          <ul className="post-list">
            <PostRow post={p} expanded onItsPage />
          </ul>
          <Scores post={p} />
          {p.status === 'published' && <Metrics post={p} />}
          <Deliveries id={p.id} />
        </>
      )}
    </div>
  );
}

/** Which channel the post is for and, once published, the link to it on the platform. */
function Where({ post }: { post: Post }) {
  const channels = useChannels();
  const channel = channels.data?.channels.find((c) => c.id === post.channelId);
  const on = channel ? channelName(channel) : post.platform;
  return (
    <section className="card" aria-labelledby="where-title">
      <h2 id="where-title">{post.publishedAt ? 'Where it went' : 'Where it goes'}</h2>
      <div className="row wrap">
        <Status value={post.status} />
        <span>
          {post.publishedAt
            ? `Published on ${on}, ${formatWhen(post.publishedAt)}.`
            : post.scheduledFor
              ? `Scheduled for ${on}, ${formatWhen(post.scheduledFor)}.`
              : post.channelId
                ? `For ${on}, not scheduled yet.`
                : `For ${post.platform}; no channel is chosen yet.`}
        </span>
      </div>
      {post.platformUrl ? (
        <p>
          <a href={post.platformUrl} target="_blank" rel="noreferrer">
            Open the post on {post.platform}
          </a>
        </p>
      ) : (
        post.status === 'published' && <p className="muted">{post.platform} gave no link to this post.</p>
      )}
    </section>
  );
}

function Scores({ post }: { post: Post }) {
  const scores = useQuery({
    queryKey: ['post-scores', post.id],
    queryFn: () => ok(api.GET('/v1/posts/{id}/scores', { params: { path: { id: post.id } } })),
  });
  const list = scores.data?.scores ?? [];
  return (
    <section className="card" aria-labelledby="scores-title">
      <h2 id="scores-title">Scores over time</h2>
      <ErrorBox error={scores.error} />
      {scores.data && list.length === 0 && (
        <p className="muted">
          No score is recorded for this post yet.
          {post.status === 'published' && ' Press “Record its score” above to keep one.'}
        </p>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Recorded</th>
                <th scope="col">Score</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id}>
                  <td>{formatWhen(s.createdAt)}</td>
                  <td>{s.score}</td>
                  <td>{s.verdict ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Metrics({ post }: { post: Post }) {
  const queryClient = useQueryClient();
  const history = useQuery({
    queryKey: ['metrics-history', post.id],
    queryFn: () => ok(api.GET('/v1/posts/{id}/metrics/history', { params: { path: { id: post.id } } })),
    refetchInterval: 60_000,
  });
  const refresh = useMutation({
    mutationFn: () => ok(api.POST('/v1/posts/{id}/metrics/refresh', { params: { path: { id: post.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['metrics-history', post.id] }),
  });
  const snapshots = history.data?.snapshots ?? [];
  return (
    <section className="card" aria-labelledby="metrics-title">
      <h2 id="metrics-title">Metrics over time</h2>
      <p className="muted">
        Postkit reads the post’s counters from {post.platform} regularly after publishing; each reading is a
        point here.
      </p>
      <ErrorBox error={history.error ?? refresh.error} />
      {history.data && snapshots.length === 0 && (
        <p className="muted">No reading yet: the first comes within minutes of publishing.</p>
      )}
      {snapshots.length > 0 && <PostMetricsChart snapshots={snapshots} />}
      <button type="button" onClick={() => refresh.mutate()} disabled={refresh.isPending}>
        Read the metrics now
      </button>
      {refresh.isPending && <Working label={`Asking ${post.platform}…`} />}
    </section>
  );
}

const DELIVERY_WORDS: Record<Delivery['status'], string> = {
  pending: 'Waiting to be sent',
  sending: 'Being sent',
  delivered: 'Delivered',
  failed: 'Not delivered yet; it will be retried',
  dead: 'Not delivered; Postkit gave up',
};

function Deliveries({ id }: { id: string }) {
  const deliveries = useQuery({
    queryKey: ['post-deliveries', id],
    queryFn: () => ok(api.GET('/v1/posts/{id}/deliveries', { params: { path: { id } } })),
    refetchInterval: 10_000,
  });
  const list = deliveries.data?.deliveries ?? [];
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      <ErrorBox error={deliveries.error} />
      {deliveries.data && list.length === 0 && (
        <p className="muted">
          No webhook was called about this post. <Link to="/webhooks">Webhooks</Link> lists your endpoints.
        </p>
      )}
      {list.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Outcome</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.id}>
                  <td>
                    <code>{d.event}</code>
                  </td>
                  <td>
                    <code>{d.url}</code>
                  </td>
                  <td>
                    {DELIVERY_WORDS[d.status]}
                    {d.status === 'failed' && d.nextAttemptAt ? ` (${formatWhen(d.nextAttemptAt)})` : ''}
                  </td>
                  <td>{d.attempts}</td>
                  <td>{d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? '—')}</td>
                  <td>{formatWhen(d.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
