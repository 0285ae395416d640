import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, type Media, ok, type Post, type ScoreResult } from '../api.ts';
import { EngineNotice } from '../components/EngineNotice.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { MediaPicker } from '../components/MediaPicker.tsx';
import { PlatformAPreview, PlatformBPreview } from '../components/Preview.tsx';
import { ScorePanel } from '../components/ScorePanel.tsx';
import { engineOfMeta } from '../lib/engine.ts';
import { useDebounced, useMeta } from '../lib/hooks.ts';
import { mediaKindOf } from '../lib/media.ts';
import { partsToSend } from '../lib/parts.ts';
import { fromLocalInput, toLocalInput } from '../lib/time.ts';
import { Link, navigate, useRoute } from '../router.tsx';
import { GeneratePanel, RewritePanel } from './ComposeAssist.tsx';
import { ChannelFields, type PlatformId, useComposeChannel } from './ComposeChannel.tsx';
import { FirstCommentField, PostValidation, ThreadEditor } from './ComposeParts.tsx';
import { DoneNotice, PublishControls } from './ComposePublish.tsx';
import { RepeatControls } from './ComposeRepeat.tsx';
import { useSavePost } from './compose-save.ts';
import { composeSource, useSourcePost } from './compose-source.ts';

export function ComposePage() {
  const route = useRoute();
  const source = composeSource(route.params);
  const editing = source.copy ? null : source.id;
  const meta = useMeta();
  const compose = useComposeChannel(source);
  const { channel, channelId, setChannelId } = compose;

  const [text, setText] = useState(route.params.get('text') ?? '');
  // Follow-up parts (platformB) and the first comment (both platforms).
  const [thread, setThread] = useState<string[]>([]);
  const [firstComment, setFirstComment] = useState('');
  const [platform, setPlatform] = useState<PlatformId>('platformA');
  const [media, setMedia] = useState<Media[]>([]);
  // Kept from a copied post (Compose has no brand picker), so the copy stays under its brand.
  const [brandId, setBrandId] = useState<string | null>(null);
  const [when, setWhen] = useState(() => toLocalInput(Date.now() + 3_600_000));
  const [autoScore, setAutoScore] = useState(false);
  const [done, setDone] = useState<Post | null>(null);

  // Editing a draft or copying a post: load it once and fill every field from it.
  const loaded = useSourcePost(source.id);
  const draft = loaded.post;
  useEffect(() => {
    const post = draft.data?.post;
    if (!post) return;
    setText(post.text);
    setThread(post.thread);
    setFirstComment(post.firstComment ?? '');
    setChannelId(post.channelId ?? '');
    setPlatform(post.platform === 'platformB' ? 'platformB' : 'platformA');
    // A copy keeps the original's time only while it is still ahead.
    if (post.scheduledFor && (!source.copy || post.scheduledFor > Date.now()))
      setWhen(toLocalInput(post.scheduledFor));
    if (source.copy) setBrandId(post.brandId);
  }, [draft.data, source.copy]);
  useEffect(() => {
    if (loaded.media.data) setMedia(loaded.media.data);
  }, [loaded.media.data]);

  const effectivePlatform = (channel?.platform as PlatformId | undefined) ?? platform;
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
    brandId,
    runAt,
    onSaved: setDone,
  });

  const author = channel?.handle ?? 'You';
  const canPost = Boolean(channelId);
  const report = validation.data;
  const blocked = !text.trim() || (report ? !report.valid : false);

  return (
    <div className="compose">
      <h1>{editing ? 'Edit draft' : source.copy ? 'Write a copy' : 'Compose'}</h1>
      {source.copy && draft.data && (
        <p className="hint">
          A copy of a {draft.data.post.status} post: saving creates a new post and leaves{' '}
          <Link to={`/posts?open=${draft.data.post.id}`}>the original</Link> as it is.
        </p>
      )}
      {draft.isPending && source.id && <Working label="Loading the post…" />}
      <ErrorBox error={draft.error ?? loaded.media.error} />
      {done && (
        <DoneNotice
          post={done}
          onAgain={() => {
            setDone(null);
            setText('');
            setThread([]);
            setFirstComment('');
            setMedia([]);
            setBrandId(null);
            navigate('/compose');
          }}
        />
      )}
      <div className="compose-grid">
        <section className="editor" aria-label="Write">
          <ChannelFields compose={compose} platform={platform} onPlatform={setPlatform} />
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
          <RepeatControls
            fields={{ text, channelId: channelId || null, mediaIds: media.map((m) => m.id), ...parts }}
            platform={effectivePlatform}
            runAt={runAt}
            canPost={canPost}
            blocked={blocked}
            onSaved={setDone}
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
          <RewritePanel
            body={scoreBody}
            onUse={(r) => {
              setText(r.text);
              // The rewrite's own thread continues the post, before any parts written after it.
              setThread((own) => [...r.thread, ...own]);
              const moved = r.firstComment;
              if (moved) setFirstComment((own) => (own.trim() ? `${own.trim()}\n${moved}` : moved));
            }}
          />
          <GeneratePanel
            platform={effectivePlatform}
            media={kind}
            onUse={(draft, replies) => {
              setText(draft);
              // A generated thread is a whole new post: its replies replace the thread.
              if (replies.length) setThread(replies);
            }}
          />
        </section>
      </div>
    </div>
  );
}
