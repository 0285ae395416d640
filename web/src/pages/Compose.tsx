import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, type Media, ok, type Post, type ScoreResult } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { MediaPicker } from '../components/MediaPicker.tsx';
import { PlatformAPreview, PlatformBPreview } from '../components/Preview.tsx';
import { ScorePanel } from '../components/ScorePanel.tsx';
import { ApiError, explainPostError } from '../lib/errors.ts';
import { useChannels, useDebounced, useMeta } from '../lib/hooks.ts';
import { mediaKindOf } from '../lib/media.ts';
import { browserZone, formatWhen, fromLocalInput, toLocalInput, zoneAbbreviation } from '../lib/time.ts';
import { Link, navigate, useRoute } from '../router.tsx';
import { GeneratePanel, RewritePanel } from './ComposeAssist.tsx';

export function ComposePage() {
  const route = useRoute();
  const editing = route.params.get('post');
  const queryClient = useQueryClient();
  const meta = useMeta();
  const channels = useChannels();
  const connected = (channels.data?.channels ?? []).filter((c) => c.status === 'connected');

  const [text, setText] = useState(route.params.get('text') ?? '');
  const [channelId, setChannelId] = useState<string>('');
  const [platform, setPlatform] = useState<'platformA' | 'platformB'>('platformA');
  const [media, setMedia] = useState<Media[]>([]);
  const [when, setWhen] = useState(() => toLocalInput(Date.now() + 3_600_000));
  const [autoScore, setAutoScore] = useState(false);
  const [done, setDone] = useState<Post | null>(null);

  // Editing a draft: load it once.
  const draft = useQuery({
    queryKey: ['post', editing],
    queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id: editing! } } })),
    enabled: Boolean(editing),
  });
  useEffect(() => {
    const post = draft.data?.post;
    if (!post) return;
    setText(post.text);
    setChannelId(post.channelId ?? '');
    if (post.platform === 'platformB') setPlatform('platformB');
    if (post.scheduledFor) setWhen(toLocalInput(post.scheduledFor));
    Promise.all(
      post.mediaIds.map((id) =>
        ok(api.GET('/v1/media/{id}', { params: { path: { id } } })).then((r) => r.media),
      ),
    ).then(setMedia, () => {});
  }, [draft.data]);

  // Default to the first connected channel.
  useEffect(() => {
    if (!channelId && !editing && connected[0]) setChannelId(connected[0].id);
  }, [connected, channelId, editing]);

  const channel = connected.find((c) => c.id === channelId);
  const effectivePlatform = (channel?.platform as 'platformA' | 'platformB' | undefined) ?? platform;
  const kind = mediaKindOf(media);

  // Live validation: no model call, every pause of 400 ms.
  const settled = useDebounced(text, 400);
  const validation = useQuery({
    queryKey: ['validate', settled, effectivePlatform, media.map((m) => m.id).join(',')],
    queryFn: () =>
      ok(
        api.POST('/v1/posts/validate', {
          body: { post: settled, platform: effectivePlatform, mediaIds: media.map((m) => m.id) },
        }),
      ),
    enabled: settled.trim().length > 0,
    placeholderData: (prev) => prev,
  });

  const runAt = fromLocalInput(when);
  const scoreBody = useMemo(() => {
    const at = runAt ? new Date(runAt) : null;
    return {
      post: text,
      platform: effectivePlatform,
      media: kind,
      ...(at ? { dayOfWeek: at.getDay(), hourLocal: at.getHours() } : {}),
    };
  }, [text, effectivePlatform, kind, runAt]);

  const score = useMutation({ mutationFn: () => ok(api.POST('/v1/score', { body: scoreBody })) });
  const [scored, setScored] = useState<{ text: string; result: ScoreResult } | null>(null);
  const runScore = () =>
    score.mutate(undefined, { onSuccess: (result) => setScored({ text: scoreBody.post, result }) });

  // Score after a 1.5 s pause, only when asked to (each score counts against the model quota).
  const paused = useDebounced(text, 1500);
  useEffect(() => {
    if (autoScore && paused.trim() && paused === text && scored?.text !== paused && !score.isPending)
      runScore();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoScore, paused]);

  const save = useMutation({
    mutationFn: async (action: 'draft' | 'schedule' | 'publish') => {
      const fields = { text, channelId: channelId || null, mediaIds: media.map((m) => m.id) };
      let post: Post;
      if (editing && draft.data?.post.status === 'draft') {
        post = (await ok(api.PATCH('/v1/posts/{id}', { params: { path: { id: editing } }, body: fields })))
          .post;
        if (action === 'schedule') {
          post = (
            await ok(
              api.POST('/v1/posts/{id}/schedule', {
                params: { path: { id: post.id } },
                body: { runAt: runAt! },
              }),
            )
          ).post;
        }
      } else {
        const body = {
          ...fields,
          platform: effectivePlatform,
          ...(action === 'schedule' ? { runAt: runAt! } : {}),
        };
        post = (await ok(api.POST('/v1/posts', { body }))).post;
      }
      if (action === 'publish') {
        try {
          post = (await ok(api.POST('/v1/posts/{id}/publish', { params: { path: { id: post.id } } }))).post;
        } catch (err) {
          // publish_failed / channel_revoked carry the failed post: show its reason, not a bare error.
          if (err instanceof ApiError && err.body.post) return err.body.post as Post;
          throw err;
        }
      }
      return post;
    },
    onSuccess: (post) => {
      setDone(post);
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
    },
  });

  const author = channel?.handle ?? 'You';
  const zone = browserZone();
  const abbreviation = zoneAbbreviation(runAt ?? Date.now());
  const zoneLabel = abbreviation === zone ? zone : `${zone}, ${abbreviation}`;
  const canPost = Boolean(channelId);
  const report = validation.data;
  const blocked = !text.trim() || (report ? !report.valid : false);

  return (
    <div className="compose">
      <h1>{editing ? 'Edit draft' : 'Compose'}</h1>
      {done && (
        <DoneNotice
          post={done}
          onAgain={() => {
            setDone(null);
            setText('');
            setMedia([]);
            navigate('/compose');
          }}
        />
      )}
      <div className="compose-grid">
        <section className="editor" aria-label="Write">
          <div className="row wrap">
            <label>
              Channel{' '}
              <select value={channelId} onChange={(e) => setChannelId(e.target.value)}>
                <option value="">No channel (draft only)</option>
                {connected.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.handle ?? c.platformUserId ?? c.id} ({c.platform})
                  </option>
                ))}
              </select>
            </label>
            {!channel && (
              <label>
                Platform{' '}
                <select
                  value={platform}
                  onChange={(e) => setPlatform(e.target.value as 'platformA' | 'platformB')}
                >
                  {(meta.data?.platforms ?? [{ id: 'platformA' }, { id: 'platformB' }]).map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.id}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
          {connected.length === 0 && channels.isSuccess && (
            <p className="hint">
              No connected channel yet: <Link to="/channels">connect one</Link> to schedule or publish. You
              can still write, score and save drafts.
            </p>
          )}
          <label htmlFor="post-text">Post</label>
          <textarea
            id="post-text"
            rows={12}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Start with the sentence that makes someone stop scrolling."
            aria-describedby="validation"
          />
          <div id="validation" className="validation" aria-live="polite">
            {report && (
              <>
                <span className="muted">
                  {report.stats.length} characters · {report.stats.lines} lines · {report.stats.hashtags}{' '}
                  hashtags · {report.stats.links} links
                </span>
                {report.errors.map((e) => (
                  <p key={e.code} className="v-error">
                    ✖ {e.message}
                  </p>
                ))}
                {report.warnings.map((w) => (
                  <p key={w.code} className="v-warn">
                    ⚠ {w.message}
                  </p>
                ))}
                {report.valid && report.warnings.length === 0 && <p className="v-ok">✔ Ready to publish</p>}
              </>
            )}
            <ErrorBox error={validation.error} />
          </div>
          <MediaPicker selected={media} onChange={setMedia} />
          <div className="row wrap">
            <button
              type="button"
              className="primary"
              onClick={runScore}
              disabled={!text.trim() || score.isPending}
            >
              Score
            </button>
            <label className="check">
              <input type="checkbox" checked={autoScore} onChange={(e) => setAutoScore(e.target.checked)} />
              <span>
                Score when I pause typing
                <small className="muted"> (each score counts against the monthly model quota)</small>
              </span>
            </label>
          </div>
          <fieldset className="schedule">
            <legend>Publish</legend>
            <div className="row wrap">
              <button
                type="button"
                onClick={() => save.mutate('draft')}
                disabled={!text.trim() || save.isPending}
              >
                Save draft
              </button>
              <label>
                Date and time ({zoneLabel}){' '}
                <input
                  type="datetime-local"
                  value={when}
                  step={1}
                  onChange={(e) => setWhen(e.target.value)}
                />
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
        </section>
        <section className="side-panel" aria-label="Preview and score">
          <h2>Preview</h2>
          {effectivePlatform === 'platformB' ? (
            <PlatformBPreview text={text} author={author} />
          ) : (
            <PlatformAPreview text={text} author={author} media={media} />
          )}
          <h2>Score</h2>
          {score.isPending && <Working label="Scoring…" />}
          <ErrorBox error={score.error} />
          {scored ? (
            <>
              {scored.text !== text && (
                <p className="hint">The text changed since this score: score again to update it.</p>
              )}
              <ScorePanel result={scored.result} />
            </>
          ) : (
            !score.isPending && <p className="muted">Press Score to grade the post on six dimensions.</p>
          )}
          <RewritePanel body={scoreBody} onUse={setText} />
          <GeneratePanel platform={effectivePlatform} media={kind} onUse={setText} />
        </section>
      </div>
    </div>
  );
}

function DoneNotice({ post, onAgain }: { post: Post; onAgain: () => void }) {
  if (post.status === 'failed') {
    const e = explainPostError(post.error);
    return (
      <div className="error" role="alert">
        <strong>The post failed.</strong> {e.reason} <span className="action">{e.action}</span>
      </div>
    );
  }
  const what =
    post.status === 'scheduled' && post.scheduledFor
      ? `Scheduled for ${formatWhen(post.scheduledFor)}.`
      : post.status === 'published'
        ? 'Published.'
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
