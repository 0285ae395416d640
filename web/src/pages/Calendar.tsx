import type { EventContentArg, EventDropArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { ErrorBox, Notice } from '../components/ErrorBox.tsx';
import { channelName as nameOfChannel } from '../lib/channels.ts';
import { useChannels } from '../lib/hooks.ts';
import { browserLocale, browserZone, firstWeekday, formatWhen } from '../lib/time.ts';
import { navigate } from '../router.tsx';

/** Month and week views of scheduled and published posts; drag a scheduled post to move it. */
export function CalendarPage() {
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const channels = useChannels();
  const channelList = channels.data?.channels ?? [];
  const colourOf = (key: string) =>
    channelColour(
      key,
      channelList.map((c) => c.id),
    );
  const channelName = (id: string | null, platform: string) => {
    const c = channelList.find((ch) => ch.id === id);
    return c ? (c.handle ?? c.platformUserId ?? platform) : platform;
  };
  const queryClient = useQueryClient();
  const calendar = useQuery({
    queryKey: ['calendar', range],
    queryFn: () => ok(api.GET('/v1/calendar', { params: { query: range! } })),
    enabled: range !== null,
    refetchInterval: 5000,
    placeholderData: (prev) => prev,
  });
  const reschedule = useMutation({
    mutationFn: ({ id, runAt }: { id: string; runAt: number }) =>
      ok(api.POST('/v1/posts/{id}/schedule', { params: { path: { id } }, body: { runAt } })),
    onSuccess: ({ post }) => {
      setMoved(`Moved to ${formatWhen(post.scheduledFor!)}.`);
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
      queryClient.invalidateQueries({ queryKey: ['posts'] });
    },
  });

  const events: EventInput[] = (calendar.data?.calendar ?? []).map((e) => {
    const name = channelName(e.channelId, e.platform);
    return {
      id: e.postId,
      // The channel first, so overlapping entries in a narrow column still say where they go.
      title: `${name}: ${e.preview}`,
      start: e.when,
      // An hour tall in week and day views: room for the channel's name and the text's start
      // when posts at the same time sit side by side.
      end: e.when + 3_600_000,
      classNames: [`ev-${e.status}`],
      startEditable: e.status === 'scheduled',
      durationEditable: false,
      extendedProps: {
        status: e.status,
        channel: name,
        preview: e.preview,
        colour: colourOf(e.channelId ?? e.platform),
      },
    };
  });

  const onDrop = (arg: EventDropArg) => {
    const start = arg.event.start?.getTime();
    setMoved(null);
    setRefused(null);
    reschedule.reset();
    if (!start || start <= Date.now()) {
      arg.revert();
      setRefused(
        `The post stays at ${formatWhen(arg.oldEvent.start!.getTime())}: ${start ? formatWhen(start) : 'that time'} has already passed, and a post can only be moved to a time in the future.`,
      );
      return;
    }
    reschedule.mutate({ id: arg.event.id, runAt: start }, { onError: () => arg.revert() });
  };

  return (
    <div>
      <h1>Calendar</h1>
      <p className="muted">
        Times in {browserZone()}. Drag a scheduled post to move it; click a post to open it.
      </p>
      <ErrorBox error={calendar.error ?? reschedule.error} />
      {moved && !reschedule.error && <Notice kind="success">{moved}</Notice>}
      {refused && (
        <div className="error" role="alert">
          <strong>Not moved.</strong> {refused}
        </div>
      )}
      {channelList.length > 0 && (
        <ul className="legend" aria-label="Channels">
          {channelList.map((c) => (
            <li key={c.id} className="chip" style={{ borderLeft: `6px solid ${colourOf(c.id)}` }}>
              {nameOfChannel(c)}
            </li>
          ))}
        </ul>
      )}
      <ul className="legend" aria-label="Legend">
        {['scheduled', 'published'].map((s) => (
          <li key={s} className={`ev-${s} chip`}>
            {s}
          </li>
        ))}
      </ul>
      <FullCalendar
        plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
        initialView={window.matchMedia('(max-width: 640px)').matches ? 'timeGridDay' : 'dayGridMonth'}
        headerToolbar={{
          left: 'prev,next today',
          center: 'title',
          right: 'dayGridMonth,timeGridWeek,timeGridDay',
        }}
        buttonText={{ today: 'Today', month: 'Month', week: 'Week', day: 'Day' }}
        timeZone="local"
        // The browser's locale for dates and its first weekday (Monday in en-GB, Sunday in en-US).
        locale={browserLocale()}
        firstDay={firstWeekday()}
        height="auto"
        nowIndicator
        // Only once the channels are known: eventDidMount sets each entry's colour and label once.
        events={channels.data ? events : []}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        slotEventOverlap={false}
        eventMaxStack={3}
        dayMaxEventRows={4}
        datesSet={(info) => setRange({ from: info.start.getTime(), to: info.end.getTime() })}
        eventContent={(arg) => <EntryFace arg={arg} />}
        eventDrop={onDrop}
        eventClick={(info) => {
          info.jsEvent.preventDefault();
          navigate(`/post?id=${info.event.id}`);
        }}
        eventDidMount={(info) => {
          // Keyboard: each post is focusable and opens with Enter.
          info.el.setAttribute('tabindex', '0');
          info.el.setAttribute('role', 'button');
          info.el.setAttribute('aria-label', `${info.event.extendedProps.status}: ${info.event.title}`);
          info.el.setAttribute('title', `${info.event.extendedProps.status}: ${info.event.title}`);
          info.el.style.borderLeft = `6px solid ${info.event.extendedProps.colour}`;
          info.el.addEventListener('keydown', (e) => {
            if (e.key === 'Enter') navigate(`/post?id=${info.event.id}`);
          });
        }}
      />
    </div>
  );
}

/**
 * One entry (its left edge in the channel's colour): the channel's name first, so it survives the
 * narrowest column, then the start of the text; the time too in the month view. The name wraps
 * anywhere rather than being cut.
 */
function EntryFace({ arg }: { arg: EventContentArg }) {
  const { channel, preview } = arg.event.extendedProps as { channel: string; preview: string };
  return (
    <div className="entry">
      {/* In week and day views the entry's place says its time (and the tooltip does): the
          narrow column's lines go to the channel and the text. */}
      {arg.timeText && !arg.view.type.startsWith('timeGrid') && (
        <span className="entry-time">{arg.timeText}</span>
      )}
      <span className="entry-channel">{channel}</span>
      <span className="entry-text">{preview}</span>
    </div>
  );
}

/** Channel colours: none is a status colour (scheduled blue, published green, failed red, publishing violet). */
const PALETTE = ['#f59e0b', '#db2777', '#0891b2', '#65a30d', '#ea580c', '#64748b', '#a16207', '#e11d48'];

/**
 * A channel's colour, the same in the legend and on its posts: picked by the channel's place in
 * the account's list, so up to eight channels never share one (a hash of the id gave two
 * channels the same colour one time in eight); a key not in the list falls back to its hash.
 */
export function channelColour(key: string, order: string[] = []): string {
  const place = order.indexOf(key);
  if (place >= 0) return PALETTE[place % PALETTE.length]!;
  let hash = 0;
  for (const ch of key) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}
