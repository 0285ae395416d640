import type { EventDropArg, EventInput } from '@fullcalendar/core';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin from '@fullcalendar/interaction';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api.ts';
import { ErrorBox, Notice } from '../components/ErrorBox.tsx';
import { browserZone, formatWhen } from '../lib/time.ts';
import { navigate } from '../router.tsx';

/** Month and week views of scheduled and published posts; drag a scheduled post to move it. */
export function CalendarPage() {
  const [range, setRange] = useState<{ from: number; to: number } | null>(null);
  const [moved, setMoved] = useState<string | null>(null);
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

  const events: EventInput[] = (calendar.data?.calendar ?? []).map((e) => ({
    id: e.postId,
    title: e.preview,
    start: e.when,
    classNames: [`ev-${e.status}`],
    startEditable: e.status === 'scheduled',
    durationEditable: false,
    extendedProps: { status: e.status },
  }));

  const onDrop = (arg: EventDropArg) => {
    const start = arg.event.start?.getTime();
    if (!start || start <= Date.now()) {
      arg.revert();
      setMoved(null);
      reschedule.reset();
      window.alert('A post can only be moved to a time in the future.');
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
        height="auto"
        nowIndicator
        events={events}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        datesSet={(info) => setRange({ from: info.start.getTime(), to: info.end.getTime() })}
        eventDrop={onDrop}
        eventClick={(info) => {
          info.jsEvent.preventDefault();
          navigate(`/posts?open=${info.event.id}`);
        }}
        eventDidMount={(info) => {
          // Keyboard: each post is focusable and opens with Enter.
          info.el.setAttribute('tabindex', '0');
          info.el.setAttribute('role', 'button');
          info.el.setAttribute('aria-label', `${info.event.extendedProps.status}: ${info.event.title}`);
          info.el.addEventListener('keydown', (e) => {
            if (e.key === 'Enter') navigate(`/posts?open=${info.event.id}`);
          });
        }}
      />
    </div>
  );
}
