import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, DEFAULT_PLATFORM, ok, type PlatformId, type Schemas } from '../api.ts';
import { EngineNotice } from '../components/EngineNotice.tsx';
import { ErrorBox, Working } from '../components/ErrorBox.tsx';
import { NamedSelect } from '../components/NamedSelect.tsx';
import { channelName } from '../lib/channels.ts';
import { planLine } from '../lib/engine.ts';
import { useBrands, useChannels, useMeta, useVoices } from '../lib/hooks.ts';
import { draftFromPlanItem, type PlanContext } from '../lib/plan-draft.ts';
import { itemShape, sharedEvidence } from '../lib/plan-words.ts';
import { formatWhen } from '../lib/time.ts';
import { Link, navigate } from '../router.tsx';
import { DraftsMade, SavedPlans, useTurnIntoDrafts } from './PlanSaved.tsx';

type PlanItem = Schemas['PlanItem'];
/** What a plan was asked with: its brief, platform, brand, voice and the channel its posts go to. */
type Asked = Omit<PlanContext, 'offline'> & { channelId: string };

/** Who planned the outline: the model, or the offline engine standing in for it and why. */
function PlannedBy({ result }: { result: Schemas['PlanResult'] }) {
  const line = planLine(result.engine, result.writtenBy);
  if (!line) return <EngineNotice engine={result.engine} work="plan" />;
  return (
    <p className="engine-note plan-by muted" role="status">
      {line}
    </p>
  );
}

/** Brief in, outline items out; each turns into a draft to finish in Compose. */
export function PlanPage() {
  const [brief, setBrief] = useState('');
  const [count, setCount] = useState(5);
  const [cadence, setCadence] = useState<'' | 'daily' | 'weekdays' | '3x-week'>('');
  const [platform, setPlatform] = useState<PlatformId>(DEFAULT_PLATFORM);
  const meta = useMeta();
  const [brandId, setBrandId] = useState('');
  const [voiceId, setVoiceId] = useState('');
  const brands = useBrands();
  const voices = useVoices();
  const channels = useChannels();
  const [channelId, setChannelId] = useState('');
  const [schedule, setSchedule] = useState(false);
  const queryClient = useQueryClient();
  // The plan's own brief, platform, brand and voice (as planned, not as edited since) shape its drafts.
  const plan = useMutation({
    mutationFn: async (asked: Asked) => {
      const result = await ok(
        api.POST('/v1/plan', {
          body: {
            brief: asked.brief,
            count,
            platform: asked.platform,
            ...(cadence ? { cadence } : {}),
            ...(asked.brandId ? { brandId: asked.brandId } : {}),
            ...(asked.voiceId ? { voiceId: asked.voiceId } : {}),
            ...(asked.channelId ? { channelId: asked.channelId } : {}),
          },
        }),
      );
      return { ...result, context: { ...asked, offline: result.engine?.offline ?? true } };
    },
    // A new plan is not saved yet, and has no drafts yet.
    onSuccess: () => {
      save.reset();
      drafts.reset();
    },
  });
  // Saving keeps the plan with its brief; turning it into drafts saves it first when it is not yet.
  const save = useMutation({
    mutationFn: async () => {
      const data = plan.data!;
      const { plan: saved } = await ok(
        api.POST('/v1/plans', {
          body: {
            brief: data.context.brief,
            platform: data.context.platform,
            items: data.items,
            ...(data.context.channelId ? { channelId: data.context.channelId } : {}),
          },
        }),
      );
      queryClient.invalidateQueries({ queryKey: ['plans'] });
      return saved;
    },
  });
  const drafts = useTurnIntoDrafts();
  const toDraft = useMutation({
    mutationFn: ({ item, context }: { item: PlanItem; context: PlanContext }) =>
      draftFromPlanItem(item, context),
    onSuccess: (post) => {
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      navigate(`/compose?post=${post.id}`);
    },
  });
  // Scheduling needs the channel the plan was made for and a suggested time to put a post on.
  const canSchedule = Boolean(plan.data?.context.channelId && plan.data.items.some((i) => i.when !== null));
  return (
    <div>
      <h1>Plan</h1>
      <p className="muted">
        Describe what you want to talk about; get an outline of posts, each one a click away from a draft.
      </p>
      <form
        className="card"
        onSubmit={(e) => {
          e.preventDefault();
          plan.mutate({ brief, platform, brandId, voiceId, channelId });
        }}
      >
        <label htmlFor="plan-brief">Brief</label>
        <textarea
          id="plan-brief"
          rows={4}
          required
          value={brief}
          onChange={(e) => setBrief(e.target.value)}
          placeholder="Themes, goals and topics for the coming posts."
        />
        <div className="row wrap">
          <label>
            Posts{' '}
            <input
              type="number"
              min={1}
              max={14}
              value={count}
              onChange={(e) => setCount(Number(e.target.value))}
            />
          </label>
          <label>
            Cadence{' '}
            <select value={cadence} onChange={(e) => setCadence(e.target.value as typeof cadence)}>
              <option value="">Any</option>
              <option value="daily">Daily</option>
              <option value="weekdays">Weekdays</option>
              <option value="3x-week">3 times a week</option>
            </select>
          </label>
          <label>
            Platform{' '}
            <select
              value={platform}
              onChange={(e) => {
                setPlatform(e.target.value as typeof platform);
                // A channel of another platform cannot take this plan's posts.
                setChannelId('');
              }}
            >
              {(meta.data?.platforms ?? [{ id: DEFAULT_PLATFORM, displayName: DEFAULT_PLATFORM }]).map(
                (p) => (
                  <option key={p.id} value={p.id}>
                    {p.displayName}
                  </option>
                ),
              )}
            </select>
          </label>
          <NamedSelect label="Brand" value={brandId} onChange={setBrandId} items={brands.data?.brands} />
          <NamedSelect label="Voice" value={voiceId} onChange={setVoiceId} items={voices.data?.voices} />
          <label>
            Channel{' '}
            <select
              value={channelId}
              onChange={(e) => {
                const chosen = channels.data?.channels.find((c) => c.id === e.target.value);
                setChannelId(e.target.value);
                if (chosen) setPlatform(chosen.platform as PlatformId);
              }}
            >
              <option value="">None</option>
              {channels.data?.channels.map((c) => (
                <option key={c.id} value={c.id}>
                  {channelName(c)}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="primary" disabled={!brief.trim() || plan.isPending}>
            Plan
          </button>
        </div>
        {plan.isPending && <Working label="Planning…" />}
        <ErrorBox error={plan.error} />
      </form>
      {plan.data && <PlannedBy result={plan.data} />}
      {plan.data && (
        <NoTimes
          items={plan.data.items}
          channelId={plan.data.context.channelId}
          channels={channels.data?.channels ?? []}
        />
      )}
      {plan.data && sharedEvidence(plan.data.items) && (
        <p className="muted shared-evidence">Every item: {sharedEvidence(plan.data.items)}</p>
      )}
      {plan.data?.items.some((i) => i.when !== null) && (
        <p className="muted">
          {plan.data.context.channelId
            ? "Suggested times are free slots of the channel's queue, your best times first when your history shows them."
            : 'Suggested times are your best times to post, from your history.'}{' '}
          They are shown in your browser's time zone.
        </p>
      )}
      {plan.data && (
        <div className="row wrap">
          <button type="button" onClick={() => save.mutate()} disabled={save.isPending || save.isSuccess}>
            {save.isSuccess ? 'Saved' : 'Save plan'}
          </button>
          <button
            type="button"
            disabled={drafts.isPending || save.isPending}
            onClick={async () =>
              drafts.mutate({
                id: (save.data ?? (await save.mutateAsync())).id,
                schedule: canSchedule && schedule,
              })
            }
          >
            Turn all into drafts
          </button>
          {canSchedule && (
            <label>
              <input type="checkbox" checked={schedule} onChange={(e) => setSchedule(e.target.checked)} />{' '}
              Schedule each on its suggested time
            </label>
          )}
          {(save.isPending || drafts.isPending) && <Working label="Making the drafts…" />}
          <ErrorBox error={save.error ?? drafts.error} />
          <DraftsMade result={drafts.data} />
        </div>
      )}
      <ol className="plan-items">
        {plan.data?.items.map((item) => (
          <li key={item.slot} className="card">
            <p className="muted">{[`#${item.slot}`, item.pillar, ...itemShape(item)].join(' · ')}</p>
            <p>
              <strong>{item.hook}</strong>
            </p>
            <p>{item.angle}</p>
            {item.evidence && !sharedEvidence(plan.data!.items) && <p className="muted">{item.evidence}</p>}
            {item.when !== null && <p className="muted">Suggested time: {formatWhen(item.when)}</p>}
            <button
              type="button"
              onClick={() => toDraft.mutate({ item, context: plan.data!.context })}
              disabled={toDraft.isPending}
            >
              Turn into a draft
            </button>
            {toDraft.variables?.item === item && (
              <>
                {toDraft.isPending && <Working label="Writing the post from this outline…" />}
                <ErrorBox error={toDraft.error} />
              </>
            )}
          </li>
        ))}
      </ol>
      <SavedPlans />
    </div>
  );
}

/**
 * A plan none of whose items got a time: why, and where to give it times, since "Schedule each on
 * its suggested time" is then not offered and nothing else would say so.
 */
function NoTimes({
  items,
  channelId,
  channels,
}: {
  items: Schemas['PlanItem'][];
  channelId: string | null | undefined;
  channels: Schemas['Channel'][];
}) {
  if (items.some((i) => i.when !== null)) return null;
  const channel = channels.find((c) => c.id === channelId);
  return (
    <p className="hint">
      {channel ? (
        <>
          No suggested times: {channelName(channel)} has no weekly slots in its queue, and your history does
          not show your best times yet. <Link to="/queue">Set its slots on the Queue page</Link>, then plan
          again to schedule each item on a free slot.
        </>
      ) : (
        <>
          No suggested times: your history does not show your best times yet. Choose a channel with weekly
          slots in its <Link to="/queue">queue</Link> and plan again to schedule each item on a free slot.
        </>
      )}
    </p>
  );
}
