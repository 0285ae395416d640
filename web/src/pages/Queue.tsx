import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok, type Post, type Schemas } from '../api.ts';
import { ErrorBox, Notice, Working } from '../components/ErrorBox.tsx';
import { ZoneHint } from '../components/ZoneHint.tsx';
import { channelName } from '../lib/channels.ts';
import { openingWords } from '../lib/opening-words.ts';
import { browserZone } from '../lib/time.ts';
import { useChannelQueue } from './ComposeQueue.tsx';

type Slot = Schemas['QueueSlot'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const bySlot = (a: Slot, b: Slot) => a.day - b.day || a.time.localeCompare(b.time);
const key = (s: Slot) => `${s.day} ${s.time}`;

/** "Tuesday 24 March, 09:00" in the queue's zone, in the viewer's locale. */
const inZone = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  }).format(at);

/**
 * A channel's queue: its weekly slots (edit, save), the slots suggested from the author's own
 * results, and the next slot times; a draft dragged onto a free slot is scheduled there.
 */
export function QueuePage() {
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: ['channels'], queryFn: () => ok(api.GET('/v1/channels')) });
  const [channelId, setChannelId] = useState('');
  const chosen = channelId || channels.data?.channels.find((c) => c.status === 'connected')?.id || '';
  const path = { params: { path: { id: chosen } } };
  const queue = useChannelQueue(chosen || null);
  // The posts in the upcoming slots, to show their opening words (one read each: 14 at most).
  const slotPosts = useQueries({
    queries: (queue.data?.upcoming ?? [])
      .flatMap((u) => (u.postId ? [u.postId] : []))
      .map((id) => ({
        queryKey: ['post', id],
        queryFn: () => ok(api.GET('/v1/posts/{id}', { params: { path: { id } } })),
      })),
  });
  const postById = new Map(
    slotPosts.flatMap((q) => (q.data ? [[q.data.post.id, q.data.post] as const] : [])),
  );
  const suggest = useQuery({
    queryKey: ['queue-suggest', chosen],
    enabled: Boolean(chosen),
    queryFn: () => ok(api.GET('/v1/channels/{id}/queue/suggest', path)),
  });
  const drafts = useQuery({
    queryKey: ['posts', 'draft'],
    queryFn: () => ok(api.GET('/v1/posts', { params: { query: { status: 'draft', limit: 100 } } })),
  });
  const [slots, setSlots] = useState<Slot[]>([]);
  const [timezone, setTimezone] = useState(browserZone());
  const [day, setDay] = useState(1);
  const [time, setTime] = useState('09:00');
  useEffect(() => {
    if (!queue.data) return;
    setSlots(queue.data.queue.slots);
    // A queue without slots answers with the account's time zone (Settings): it starts there.
    setTimezone(queue.data.queue.timezone);
  }, [queue.data]);

  const refresh = () => {
    queryClient.invalidateQueries({ queryKey: ['queue', chosen] });
    queryClient.invalidateQueries({ queryKey: ['posts'] });
    queryClient.invalidateQueries({ queryKey: ['post'] });
    queryClient.invalidateQueries({ queryKey: ['calendar'] });
  };
  const save = useMutation({
    mutationFn: () => ok(api.PUT('/v1/channels/{id}/queue', { ...path, body: { timezone, slots } })),
    onSuccess: refresh,
  });
  const place = useMutation({
    mutationFn: ({ postId, at }: { postId: string; at: number }) =>
      ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id: postId } }, body: { runAt: at } })),
    onSuccess: refresh,
  });
  const add = (slot: Slot) => {
    if (!slots.some((s) => key(s) === key(slot))) setSlots([...slots, slot].sort(bySlot));
  };

  if (channels.isPending) return <Working label="Loading channels" />;
  if (channels.error) return <ErrorBox error={channels.error} />;
  if (!chosen)
    return (
      <div>
        <h1>Queue</h1>
        <p>Connect a channel first: a queue holds the weekly times a channel posts at.</p>
      </div>
    );

  const zone = queue.data?.queue.timezone ?? timezone;
  const chosenChannel = channels.data.channels.find((c) => c.id === chosen);
  const channelLabel = chosenChannel ? channelName(chosenChannel) : '';
  const channelDrafts = (drafts.data?.posts ?? []).filter((p: Post) => p.channelId === chosen);
  const firstFree = queue.data?.upcoming.find((u) => u.postId === null);
  const changed =
    JSON.stringify(slots) !== JSON.stringify(queue.data?.queue.slots ?? []) || zone !== timezone;

  return (
    <div className="queue">
      <h1>Queue</h1>
      <label>
        Channel{' '}
        <select value={chosen} onChange={(e) => setChannelId(e.target.value)}>
          {channels.data.channels.map((c) => (
            <option key={c.id} value={c.id}>
              {channelName(c)}
            </option>
          ))}
        </select>
      </label>

      <section aria-label="Weekly slots">
        <h2>Weekly slots</h2>
        <label>
          Time zone <input value={timezone} onChange={(e) => setTimezone(e.target.value)} />
        </label>
        {queue.data?.queue.slots.length === 0 && timezone === queue.data.queue.timezone && (
          <ZoneHint zone={timezone} />
        )}
        {slots.length === 0 ? (
          <p className="hint">No slots yet: add some, or take the suggested ones below.</p>
        ) : (
          <ul className="slots">
            {slots.map((s) => (
              <li key={key(s)}>
                {DAYS[s.day - 1]} {s.time}{' '}
                <button
                  type="button"
                  className="ghost"
                  onClick={() => setSlots(slots.filter((x) => key(x) !== key(s)))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="row wrap">
          <select aria-label="Day" value={day} onChange={(e) => setDay(Number(e.target.value))}>
            {DAYS.map((d, i) => (
              <option key={d} value={i + 1}>
                {d}
              </option>
            ))}
          </select>
          <input aria-label="Time" type="time" value={time} onChange={(e) => setTime(e.target.value)} />
          <button type="button" onClick={() => add({ day, time })}>
            Add slot
          </button>
          <button
            type="button"
            className="primary"
            disabled={!changed || save.isPending}
            onClick={() => save.mutate()}
          >
            Save slots
          </button>
        </div>
        {save.error && <ErrorBox error={save.error} />}
      </section>

      <section aria-label="Suggested slots">
        <h2>Suggested slots</h2>
        {suggest.error && <ErrorBox error={suggest.error} />}
        {suggest.data && (
          <>
            <p className="hint">{suggest.data.note}</p>
            <ul className="suggested">
              {suggest.data.slots.map((s) => (
                <li key={key(s)}>
                  <strong>
                    {DAYS[s.day - 1]} {s.time}
                  </strong>{' '}
                  {s.reason}{' '}
                  <button
                    type="button"
                    disabled={slots.some((x) => key(x) === key(s))}
                    onClick={() => add({ day: s.day, time: s.time })}
                  >
                    Add
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      <section aria-label="Upcoming slots">
        <h2>Upcoming slots ({zone})</h2>
        {queue.error && <ErrorBox error={queue.error} />}
        {place.error && <ErrorBox error={place.error} />}
        {place.data && <Notice>Scheduled for {inZone(place.data.post.scheduledFor!, zone)}.</Notice>}
        {queue.data && queue.data.upcoming.length === 0 && (
          <p className="hint">
            None yet: the next 14 slot times show here once the channel has weekly slots.
          </p>
        )}
        <ol className="upcoming">
          {(queue.data?.upcoming ?? []).map((u) => (
            <li
              key={u.at}
              data-free={u.postId === null ? 'true' : undefined}
              onDragOver={(e) => {
                if (u.postId === null) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                const postId = e.dataTransfer.getData('text/plain');
                if (u.postId === null && postId) place.mutate({ postId, at: u.at });
              }}
            >
              {inZone(u.at, zone)}:{' '}
              {u.postId ? (
                <SlotPost post={postById.get(u.postId)} id={u.postId} channel={channelLabel} />
              ) : (
                'free'
              )}
            </li>
          ))}
        </ol>
      </section>

      <section aria-label="Drafts for this channel">
        <h2>Drafts</h2>
        <p className="hint">Drag a draft onto a free slot, or put it in the next free one.</p>
        {channelDrafts.length === 0 && <p>No drafts for this channel.</p>}
        <ul className="drafts">
          {channelDrafts.map((p) => (
            <li key={p.id} draggable onDragStart={(e) => e.dataTransfer.setData('text/plain', p.id)}>
              {openingWords(p.text)}{' '}
              <button
                type="button"
                disabled={!firstFree || place.isPending}
                onClick={() => firstFree && place.mutate({ postId: p.id, at: firstFree.at })}
              >
                Next free slot
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/** A taken slot: the post's opening words (a link to it) and its channel, never its id. */
function SlotPost({ post, id, channel }: { post: Post | undefined; id: string; channel: string }) {
  if (!post) return <span className="muted">a post (loading…)</span>;
  return (
    <>
      <a href={`#/post?id=${id}`} dir="auto">
        {openingWords(post.text)}
      </a>{' '}
      <span className="muted">
        on {channel}, {post.status}
      </span>
    </>
  );
}
