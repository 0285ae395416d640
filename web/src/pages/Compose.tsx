import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, type Media, ok, type Post, type ScoreResult } from '../api.ts';
import { EngineNotice } from '../components/EngineNotice.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { MediaPicker } from '../components/MediaPicker.tsx';
import { PlatformAPreview, PlatformBPreview } from '../components/Preview.tsx';
import { ScorePanel } from '../components/ScorePanel.tsx';
import { engineOfMeta } from '../lib/engine.ts';
import { useChannels, useDebounced, useMeta } from '../lib/hooks.ts';
import { mediaKindOf } from '../lib/media.ts';
import { partsToSend } from '../lib/parts.ts';
import { fromLocalInput, toLocalInput } from '../lib/time.ts';
import { Link, navigate, useRoute } from '../router.tsx';
import { GeneratePanel, RewritePanel } from './ComposeAssist.tsx';
import { FirstCommentField, PostValidation, ThreadEditor } from './ComposeParts.tsx';
import { DoneNotice, PublishControls } from './ComposePublish.tsx';
import { useSavePost } from './compose-save.ts';

export function ComposePage() {
  const route = useRoute();
  const editing = route.params.get('post');
  const meta = useMeta();
  const channels = useChannels();
  const connected = (channels.data?.channels ?? []).filter((c) => c.status === 'connected');

  const [text, setText] = useState(route.params.get('text') ?? '');
  // Follow-up parts (platformB) and the first comment (both platforms).
  const [thread, setThread] = useState<string[]>([]);
  const [firstComment, setFirstComment] = useState('');
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
    setThread(post.thread);
    setFirstComment(post.firstComment ?? '');
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
  const parts = partsToSend(effectivePlatform, thread, firstComment);

  // Live validation of every part: no model call, every pause of 400 ms.
  // (Debounced as one string: a new array on every keystroke would restart the pause forever.)
  const settledKey = useDebounced(JSON.stringify({ post: text, ...parts }), 400);
  const settled = JSON.parse(settledKey) as { post: string; thread: string[]; firstComment: string | null };
  const validation = useQuery({
    queryKey: ['validate', settledKey, effectivePlatform, media.map((m) => m.id).join(',')],
    queryFn: () =>
      ok(
        api.POST('/v1/posts/validate', {
          body: { ...settled, platform: effectivePlatform, mediaIds: media.map((m) => m.id) },
        }),
      ),
    enabled: settled.post.trim().length > 0,
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

  const save = useSavePost({
    editingDraft: editing && draft.data?.post.status === 'draft' ? editing : null,
    fields: { text, channelId: channelId || null, mediaIds: media.map((m) => m.id), ...parts },
    platform: effectivePlatform,
    runAt,
    onSaved: setDone,
  });

  const author = channel?.handle ?? 'You';
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
            setThread([]);
            setFirstComment('');
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
          <PostValidation platform={effectivePlatform} text={text} report={report} error={validation.error} />
          <ThreadEditor platform={effectivePlatform} thread={thread} onChange={setThread} report={report} />
          <FirstCommentField
            platform={effectivePlatform}
            value={firstComment}
            onChange={setFirstComment}
            report={report}
          />
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
          <PublishControls
            save={save}
            canSave={Boolean(text.trim())}
            blocked={blocked}
            canPost={canPost}
            when={when}
            onWhen={setWhen}
          />
        </section>
        <section className="side-panel" aria-label="Preview and score">
          <h2>Preview</h2>
          {effectivePlatform === 'platformB' ? (
            <PlatformBPreview
              text={text}
              author={author}
              thread={parts.thread}
              comment={parts.firstComment}
            />
          ) : (
            <PlatformAPreview text={text} author={author} media={media} comment={parts.firstComment} />
          )}
          <h2>Score</h2>
          {score.isPending && <Working label="Scoring…" />}
          <ErrorBox error={score.error} />
          {scored ? (
            <>
              {scored.text !== text && (
                <p className="hint">The text changed since this score: score again to update it.</p>
              )}
              <EngineNotice
                engine={scored.result.engine ?? engineOfMeta(meta.data?.capabilities)}
                work="score"
              />
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
