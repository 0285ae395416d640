import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  api,
  type Channel,
  DEFAULT_PLATFORM,
  type Media,
  ok,
  type Post,
  type Schemas,
  type ScoreResult,
} from '../api.ts';
import { EngineNotice } from '../components/EngineNotice.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { MediaPicker } from '../components/MediaPicker.tsx';
import { PostReviewById, usePostForReview } from '../components/PostReview.tsx';
import { PlatformAPreview, PlatformBPreview } from '../components/Preview.tsx';
import { ScorePanel } from '../components/ScorePanel.tsx';
import { EditorMarks } from '../components/SpanMarks.tsx';
import { channelName } from '../lib/channels.ts';
import { engineOfMeta } from '../lib/engine.ts';
import { useApprovalsHold, useDebounced, useMeta } from '../lib/hooks.ts';
import { mediaKindOf } from '../lib/media.ts';
import { factsOf, hasThreads, joinParts, maxThreadParts, partsToSend, threadFrom } from '../lib/parts.ts';
import { fromLocalInput, localSlot, toLocalInput } from '../lib/time.ts';
import { Link, navigate, useRoute } from '../router.tsx';
import { GeneratePanel, RewritePanel } from './ComposeAssist.tsx';
import { ChannelFields, type PlatformId, useComposeChannel } from './ComposeChannel.tsx';
import { GroupVariantNote } from './ComposeGroupNote.tsx';
import {
  FirstCommentField,
  PostValidation,
  SplitOffer,
  splitAtCursor,
  ThreadEditor,
} from './ComposeParts.tsx';
import { AutosaveLine, DoneNotice, GroupDoneNotice, PublishControls } from './ComposePublish.tsx';
import { RepeatControls } from './ComposeRepeat.tsx';
import { ReviewControls, reviewOf } from './ComposeReview.tsx';
import { AlsoPostTo, ChannelTabs } from './ComposeTabs.tsx';
import { type ComposeTab, dropDrafts, type GroupVariant, newTabKey } from './compose-group.ts';
import { readLocalDraft, useLeaveWarning, writeLocalDraft } from './compose-local.ts';
import {
  type ComposeSession,
  groupJson,
  newAttemptKey,
  type SaveAction,
  type SavedGroup,
  savedJson,
  useSavePost,
} from './compose-save.ts';

/** A tab as Compose holds it: the channel's text, and the score last shown for it. */
type Tab = ComposeTab & { scored?: { text: string; result: ScoreResult } | null };

import { composeSource, useSourcePost } from './compose-source.ts';

/** One editor per post: opening another post (or a new one) starts a fresh compose session. */
export function ComposePage() {
  const route = useRoute();
  return <ComposeEditor key={route.params.get('post') ?? route.params.get('copy') ?? 'new'} />;
}

function ComposeEditor() {
  const route = useRoute();
  const source = composeSource(route.params);
  const editing = source.copy ? null : source.id;
  const meta = useMeta();
  const compose = useComposeChannel(source);
  const { channel, channelId, setChannelId } = compose;

  // A new post (no ?post, ?copy or ?text) picks up what this browser kept of the last one.
  const [restored] = useState(() => (source.id || route.params.get('text') ? null : readLocalDraft()));
  const [text, setText] = useState(route.params.get('text') ?? restored?.text ?? '');
  // Follow-up parts (platformB) and the first comment (both platforms).
  const [thread, setThread] = useState<string[]>(restored?.thread ?? []);
  const [firstComment, setFirstComment] = useState(restored?.firstComment ?? '');
  const [platform, setPlatform] = useState<PlatformId>(restored?.platform ?? DEFAULT_PLATFORM);
  const [media, setMedia] = useState<Media[]>([]);
  // Kept from a copied post (Compose has no brand picker), so the copy stays under its brand.
  const [brandId, setBrandId] = useState<string | null>(null);
  // `?at=<epoch ms>` (Insights' best times) proposes a time to schedule for.
  const proposed = Number(route.params.get('at'));
  const [when, setWhen] = useState(() =>
    proposed > Date.now() ? toLocalInput(proposed) : (restored?.when ?? toLocalInput(Date.now() + 3_600_000)),
  );
  const [autoScore, setAutoScore] = useState(false);
  const [done, setDone] = useState<Post | null>(null);
  const [doneGroup, setDoneGroup] = useState<SavedGroup | null>(null);
  const [doneSeries, setDoneSeries] = useState<Schemas['Series'] | null>(null);
  const queryClient = useQueryClient();
  // Several channels: a tab each (none while the post goes to one channel). The open tab's
  // entry is stale while it is open: the editor's own fields above and below hold its text.
  const [tabs, setTabs] = useState<Tab[]>(restored?.tabs ?? []);
  const [active, setActive] = useState(restored?.tabs ? (restored.active ?? 0) : 0);
  const [queued, setQueued] = useState(false);
  const [showRestored, setShowRestored] = useState(Boolean(restored));
  // A group's posts as last saved: their reviews decide the controls, as the one post's does.
  const [savedGroupPosts, setSavedGroupPosts] = useState<Post[] | null>(null);
  useEffect(() => {
    if (restored?.channelId) setChannelId(restored.channelId);
  }, [restored, setChannelId]);

  // The server post this compose session writes to, and the key of this attempt at it.
  const session: ComposeSession = {
    postId: useRef<string | null>(editing ?? restored?.postId ?? null),
    status: useRef<string | null>(editing ? null : restored?.postId ? 'draft' : null),
    attemptKey: useRef(restored?.attemptKey ?? newAttemptKey()),
    group: useRef(restored?.group ?? null),
  };
  // What the server holds of this post (JSON of the fields last saved), to tell unsaved edits.
  const [savedSnapshot, setSavedSnapshot] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  // Set when a post loads: the next render's fields are what the server holds.
  const baseline = useRef(false);

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
    // A stored post's platform is one the API accepted (its Platform enumeration).
    setPlatform(post.platform as PlatformId);
    if (!source.copy) {
      session.status.current = post.status;
      baseline.current = true;
    }
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
  const facts = factsOf(meta.data?.platforms, effectivePlatform);
  const parts = partsToSend(facts, thread, firstComment);

  // Live validation of every part: no model call, every pause of 400 ms.
  // (Debounced as one string: a new array on every keystroke would restart the pause forever.)
  const settledKey = useDebounced(JSON.stringify({ post: text, ...parts }), 400);
  const settled = JSON.parse(settledKey) as { post: string; thread: string[]; firstComment: string | null };
  const currentKey = JSON.stringify({ post: text, ...parts });
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
      // The planned slot on the writer's own clock (the browser's time zone), not UTC's.
      ...(at ? localSlot(at.getTime()) : {}),
    };
  }, [text, effectivePlatform, kind, runAt]);

  const score = useMutation({ mutationFn: () => ok(api.POST('/v1/score', { body: scoreBody })) });
  const [scored, setScored] = useState<{ text: string; result: ScoreResult } | null>(null);
  const runScore = () =>
    score.mutate(undefined, { onSuccess: (result) => setScored({ text: scoreBody.post, result }) });

  // The tabs with the open one's fields as the editor holds them now.
  const grouped = tabs.length > 1;
  const liveTab = (key: string): Tab => ({ key, channelId, text, thread, firstComment, scored });
  const allTabs = (): Tab[] => tabs.map((tab, i) => (i === active ? liveTab(tab.key) : tab));
  const load = (tab: Tab) => {
    setText(tab.text);
    setThread(tab.thread);
    setFirstComment(tab.firstComment);
    setChannelId(tab.channelId);
    setScored(tab.scored ?? null);
    score.reset();
  };
  const openTab = (index: number) => {
    if (index === active) return;
    const all = allTabs();
    setTabs(all);
    setActive(index);
    load(all[index]!);
  };
  // A new channel's tab starts from the open tab's text, as that channel's platform takes it
  // (a thread split from a long post, or a thread joined into one post).
  const addChannel = (c: Channel) => {
    const base = grouped ? allTabs() : [liveTab(newTabKey())];
    const to = factsOf(meta.data?.platforms, c.platform);
    const sent = [text, ...parts.thread];
    const split = to ? threadFrom(to, sent) : sent;
    const tab: Tab = {
      key: newTabKey(),
      channelId: c.id,
      text: split[0] ?? '',
      thread: split.slice(1),
      firstComment,
      scored: null,
    };
    setTabs([...base, tab]);
    setActive(grouped ? active : 0);
  };
  // The post split into parts (at its paragraphs, or at the cursor): the first stays the post.
  const room = maxThreadParts(facts) - thread.length;
  // `index` is the thread's (0: the part after the post).
  const focusPart = (index: number) =>
    requestAnimationFrame(() => document.getElementById(`thread-${index}`)?.focus());
  const splitPost = (split: string[]) => {
    setText(split[0] ?? '');
    setThread((own) => [...split.slice(1), ...own]);
    focusPart(0);
  };
  const removeTab = (index: number) => {
    const rest = allTabs().filter((_, i) => i !== index);
    const next = index < active ? active - 1 : Math.min(active, rest.length - 1);
    setTabs(rest.length > 1 ? rest : []);
    setActive(rest.length > 1 ? next : 0);
    if (index === active) load(rest[next]!);
  };

  // Score after a 1.5 s pause, only when asked to (each score counts against the model quota).
  const paused = useDebounced(text, 1500);
  useEffect(() => {
    if (autoScore && paused.trim() && paused === text && scored?.text !== paused && !score.isPending)
      runScore();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoScore, paused]);

  const fields = { text, channelId: channelId || null, mediaIds: media.map((m) => m.id), ...parts };
  // Every tab as its channel's platform takes it, for the group's writes and the other tabs' checks.
  const connected = compose.connected;
  const variants: GroupVariant[] | null = grouped
    ? allTabs().map((tab) => {
        const c = connected.find((x) => x.id === tab.channelId);
        const p = (c?.platform ?? effectivePlatform) as PlatformId;
        const sent = partsToSend(factsOf(meta.data?.platforms, p), tab.thread, tab.firstComment);
        const label = c ? channelName(c) : 'A channel no longer connected';
        return {
          text: tab.text,
          channelId: tab.channelId,
          mediaIds: fields.mediaIds,
          ...sent,
          platform: p,
          label,
        };
      })
    : null;
  const otherChecks = useQueries({
    queries: (variants ?? []).map((v, i) => ({
      queryKey: ['validate', JSON.stringify(v)],
      queryFn: () =>
        ok(
          api.POST('/v1/posts/validate', {
            body: {
              post: v.text,
              thread: v.thread,
              firstComment: v.firstComment,
              platform: v.platform,
              mediaIds: v.mediaIds,
            },
          }),
        ),
      enabled: i !== active && v.text.trim().length > 0,
    })),
  });
  const needsFixing = (variants ?? []).map((v, i) =>
    i === active ? false : !v.text.trim() || otherChecks[i]?.data?.valid === false,
  );
  const othersValid = (variants ?? []).every(
    (v, i) => i === active || (v.text.trim() !== '' && otherChecks[i]?.data?.valid === true),
  );
  const snapshot = variants ? groupJson(variants) : savedJson(fields, effectivePlatform);
  const save = useSavePost({
    session,
    fields,
    platform: effectivePlatform,
    group: variants,
    brandId,
    runAt,
    onSaved: (post: Post, action: SaveAction, saved: string, group: SavedGroup | null) => {
      setSavedSnapshot(saved);
      setSavedAt(Date.now());
      if (group) setSavedGroupPosts(group.posts);
      if (action !== 'autosave') {
        setDone(post);
        setDoneGroup(group);
        setQueued(action === 'queue');
      }
      if (post.status !== 'draft') writeLocalDraft(null);
    },
    onConflict: (post: Post | null) => post && setDone(post),
  });

  /**
   * A series is new posts: the draft this session autosaved (server and browser) would stay
   * behind as a copy of its first post, so it goes.
   */
  const seriesStarted = (post: Post, series: Schemas['Series']) => {
    setDone(post);
    setDoneSeries(series);
    setQueued(false);
    writeLocalDraft(null);
    const drafts = [
      ...(session.postId.current && session.status.current === 'draft' ? [session.postId.current] : []),
      ...(session.group.current?.status === 'draft' ? session.group.current.postIds : []),
    ];
    session.postId.current = null;
    session.status.current = null;
    session.group.current = null;
    dropDrafts(drafts).finally(() => queryClient.invalidateQueries({ queryKey: ['posts'] }));
  };

  // An editor's posts wait for an approver while the workspace requires approvals: until this
  // post is approved, Compose offers submitting it for review instead of scheduling it.
  const held = useApprovalsHold();
  const reviewed = usePostForReview(session.postId.current);
  const review = reviewOf(
    session.group.current ? (savedGroupPosts ?? []) : reviewed.data ? [reviewed.data.post] : [],
  );
  const awaitingApproval = held && review !== 'approved';

  const author = channel?.handle ?? 'You';
  const canPost = Boolean(channelId);
  // The report shown is always about the text in the editor: none while a newer one is on its way.
  const report =
    text.trim() && settledKey === currentKey && !validation.isPlaceholderData ? validation.data : undefined;
  const blocked = !text.trim() || (report ? !report.valid : false) || (grouped && !othersValid);
  // A post of a group opened for editing: this editor writes that channel's post alone.
  const editedGroupPost = editing && draft.data?.post.groupId ? draft.data.post : null;
  // A scheduled post opened for editing stays editable until its publish starts.
  const editingScheduled = Boolean(editing) && draft.data?.post.status === 'scheduled';
  const finished =
    doneGroup?.posts.some((p) => p.status !== 'draft') ||
    (done !== null && done.status !== 'draft' && !(editingScheduled && done.status === 'scheduled'));
  const unsaved = !finished && Boolean(text.trim()) && snapshot !== savedSnapshot;
  useLeaveWarning(unsaved);
  const mediaLoaded = (draft.data?.post.mediaIds.length ?? 0) === 0 || loaded.media.data !== undefined;
  useEffect(() => {
    if (baseline.current && mediaLoaded && draft.data?.post.text === text) {
      baseline.current = false;
      setSavedSnapshot(snapshot);
    }
  }, [snapshot, mediaLoaded, draft.data, text]);

  // Keep every change in this browser (until the post is scheduled or published).
  useEffect(() => {
    if (finished || source.copy || editingScheduled) return;
    writeLocalDraft({
      text,
      thread,
      firstComment,
      platform: effectivePlatform,
      channelId,
      when,
      postId: session.postId.current,
      attemptKey: session.attemptKey.current,
      savedAt: Date.now(),
      ...(grouped ? { tabs: allTabs().map(({ scored: _, ...tab }) => tab), active } : {}),
      group: session.group.current,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text, thread, firstComment, effectivePlatform, channelId, when, finished, savedSnapshot, tabs, active]);

  // Autosave a server draft 1.5 s after the last change, once a channel is chosen (or the post is one).
  const pausedSnapshot = useDebounced(snapshot, 1500);
  const draftState = session.status.current === null || session.status.current === 'draft';
  const canAutosave =
    !finished && draftState && Boolean(channelId || session.postId.current) && Boolean(text.trim());
  useEffect(() => {
    if (!canAutosave || pausedSnapshot !== snapshot || snapshot === savedSnapshot || save.isPending) return;
    // An invalid post (any tab of it) stays in this browser until it is fixed.
    if (!report?.valid || (grouped && !othersValid)) return;
    save.mutate('autosave');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pausedSnapshot, canAutosave, report?.valid, othersValid]);

  const startOver = (keepText: boolean) => {
    session.postId.current = null;
    session.status.current = null;
    session.attemptKey.current = newAttemptKey();
    session.group.current = null;
    setDone(null);
    setDoneGroup(null);
    setDoneSeries(null);
    setSavedSnapshot(null);
    setSavedAt(null);
    setSavedGroupPosts(null);
    setShowRestored(false);
    save.reset();
    if (keepText) {
      writeLocalDraft({
        text,
        thread,
        firstComment,
        platform: effectivePlatform,
        channelId,
        when,
        postId: null,
        attemptKey: session.attemptKey.current,
        savedAt: Date.now(),
        ...(grouped ? { tabs: allTabs().map(({ scored: _, ...tab }) => tab), active } : {}),
        group: null,
      });
    } else {
      setTabs([]);
      setActive(0);
      setText('');
      setThread([]);
      setFirstComment('');
      setMedia([]);
      setBrandId(null);
      setScored(null);
      writeLocalDraft(null);
    }
    navigate('/compose');
  };

  return (
    <div className="compose">
      <h1>
        {editingScheduled
          ? 'Edit scheduled post'
          : editing
            ? 'Edit draft'
            : source.copy
              ? 'Write a copy'
              : 'Compose'}
      </h1>
      {source.copy && draft.data && (
        <p className="hint">
          A copy of a {draft.data.post.status} post: saving creates a new post and leaves{' '}
          <Link to={`/posts?open=${draft.data.post.id}`}>the original</Link> as it is.
        </p>
      )}
      {draft.isPending && source.id && <Working label="Loading the post…" />}
      <ErrorBox error={draft.error ?? loaded.media.error} />
      {showRestored && restored && (
        <div className="notice info" role="status">
          Restored the post you were writing ({restored.text.trim() ? 'kept in this browser' : 'empty'}).{' '}
          <button type="button" className="link" onClick={() => startOver(false)}>
            Start a new post instead
          </button>
        </div>
      )}
      {doneGroup ? (
        <GroupDoneNotice
          group={doneGroup}
          channels={compose.channels.data?.channels ?? []}
          queued={queued}
          onAgain={() => startOver(false)}
          onCopy={() => startOver(true)}
        />
      ) : (
        done && (
          <DoneNotice
            post={done}
            series={doneSeries}
            queued={queued}
            onAgain={() => startOver(false)}
            onCopy={() => startOver(true)}
          />
        )
      )}
      <div className="compose-grid">
        <section className="editor" aria-label="Write">
          <ChannelFields
            compose={compose}
            platform={platform}
            onPlatform={setPlatform}
            locked={finished}
            taken={grouped ? tabs.filter((_, i) => i !== active).map((tab) => tab.channelId) : []}
          />
          {editedGroupPost && (
            <GroupVariantNote post={editedGroupPost} channels={compose.channels.data?.channels ?? []} />
          )}
          <AlsoPostTo
            // Once sent, the post's channels are what they are: "Publish a copy" starts a new post.
            hidden={Boolean(editedGroupPost) || finished}
            connected={connected}
            current={channelId}
            chosen={grouped ? tabs.filter((_, i) => i !== active).map((tab) => tab.channelId) : []}
            onAdd={addChannel}
            onRemove={(id) => removeTab(tabs.findIndex((tab) => tab.channelId === id))}
          />
          <ChannelTabs
            tabs={tabs}
            active={active}
            connected={connected}
            needsFixing={needsFixing}
            onOpen={openTab}
            onRemove={removeTab}
            removable={!finished}
          />
          <label htmlFor="post-text">Post</label>
          <textarea
            id="post-text"
            dir="auto"
            rows={12}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              const halves = hasThreads(facts) ? splitAtCursor(e) : null;
              if (halves) splitPost(halves);
            }}
            placeholder="Start with the sentence that makes someone stop scrolling."
            aria-describedby="validation"
          />
          <EditorMarks text={text} />
          <PostValidation
            platform={effectivePlatform}
            text={text}
            report={report}
            error={validation.error}
            said={scored?.text === text ? scored.result.signals.map((s) => s.concept) : []}
            next={awaitingApproval ? (review === 'pending' ? 'pending' : 'submit') : 'publish'}
          />
          <SplitOffer facts={facts} text={text} room={room} onSplit={splitPost} />
          <ThreadEditor
            platform={effectivePlatform}
            thread={thread}
            onChange={(next, focus) => {
              setThread(next);
              if (focus !== undefined) focusPart(focus);
            }}
            onJoin={() => {
              setText(joinParts(text, thread));
              setThread([]);
            }}
            report={report}
          />
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
          {finished ? (
            <>
              <ErrorBox error={save.error} />
              <p className="hint">
                {doneGroup
                  ? 'These posts are scheduled or published: their text is no longer sent anywhere from here.'
                  : `This post is ${done?.status}: its text is no longer sent anywhere from here.`}{' '}
                Use “Publish a copy” to post it again, or “Write another” to start afresh.
              </p>
            </>
          ) : awaitingApproval ? (
            <ReviewControls
              save={save}
              canSave={Boolean(text.trim())}
              blocked={blocked}
              canPost={canPost}
              when={when}
              onWhen={setWhen}
              pending={review === 'pending'}
            />
          ) : (
            <PublishControls
              save={save}
              canSave={Boolean(text.trim())}
              blocked={blocked}
              canPost={canPost}
              when={when}
              onWhen={setWhen}
              channels={
                grouped
                  ? tabs.flatMap((tab, i) => {
                      const c = connected.find((x) => x.id === (i === active ? channelId : tab.channelId));
                      return c ? [c] : [];
                    })
                  : channel
                    ? [channel]
                    : []
              }
              scheduledEdit={editingScheduled}
            />
          )}
          <AutosaveLine
            finished={finished}
            saving={save.isPending && save.variables === 'autosave'}
            unsaved={unsaved}
            savedAt={savedAt}
            serverDraft={Boolean(channelId || session.postId.current)}
            valid={report ? report.valid : null}
            hasText={Boolean(text.trim())}
            scheduledEdit={editingScheduled}
            channels={grouped ? tabs.length : 1}
          />
          {session.postId.current && <PostReviewById id={session.postId.current} />}
          {/* A post already sent repeats as a copy (the hint above says so), not from here. */}
          {grouped && !finished && (
            <p className="hint repeat-note">
              Repeat makes a series on one channel at a time; to repeat this post, keep one channel (untick
              the others under Also post to).
            </p>
          )}
          {!grouped && !finished && !held && (
            <RepeatControls
              fields={{ text, channelId: channelId || null, mediaIds: media.map((m) => m.id), ...parts }}
              platform={effectivePlatform}
              runAt={runAt}
              canPost={canPost}
              // An autosave in flight could write the draft again after the series replaced it.
              blocked={blocked || save.isPending}
              onSaved={seriesStarted}
            />
          )}
        </section>
        <section className="side-panel" aria-label="Preview and score">
          <h2>Preview</h2>
          {facts &&
            (hasThreads(facts) ? (
              <PlatformBPreview
                facts={facts}
                text={text}
                author={author}
                thread={parts.thread}
                comment={parts.firstComment}
              />
            ) : (
              <PlatformAPreview
                facts={facts}
                text={text}
                author={author}
                media={media}
                comment={parts.firstComment}
              />
            ))}
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
              <ScorePanel result={scored.result} text={scored.text} />
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
