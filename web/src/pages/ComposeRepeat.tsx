import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { PlatformId } from '../api.ts';
import { api, ok, type Post, type Schemas } from '../api.ts';
import { ErrorBox } from '../components/ErrorBox.tsx';
import { fromLocalInput } from '../lib/time.ts';
import { type ComposeFields, newAttemptKey } from './compose-save.ts';

type Mode = 'recurring' | 'evergreen';
type Series = Schemas['Series'];

/**
 * The repeat editor under Compose's publish controls: a recurring series from the chosen time
 * (every n days, weeks or months, ending after a number of posts or on a date), or an evergreen
 * post re-queued into the channel's slots with a minimum gap. Each occurrence becomes its own post.
 */
export function RepeatControls({
  fields,
  platform,
  runAt,
  canPost,
  blocked,
  onSaved,
}: {
  fields: ComposeFields;
  platform: PlatformId;
  runAt: number | null;
  canPost: boolean;
  blocked: boolean;
  /** The series' first post and the series: Compose says what was scheduled (DoneNotice). */
  onSaved: (post: Post, series: Series) => void;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>('recurring');
  const [unit, setUnit] = useState<'day' | 'week' | 'month'>('week');
  const [n, setN] = useState(1);
  const [count, setCount] = useState('4');
  const [until, setUntil] = useState('');
  const [gap, setGap] = useState(30);
  const untilAt = fromLocalInput(until);
  const end = {
    ...(count ? { count: Number(count) } : {}),
    ...(untilAt ? { until: untilAt } : {}),
  };
  // One Idempotency-Key per attempt: a double click or a retry after a lost answer replays the
  // first series instead of starting a second one; a success starts a new attempt.
  const attemptKey = useRef(newAttemptKey());
  const create = useMutation({
    mutationFn: () => {
      const body =
        mode === 'recurring'
          ? { ...fields, platform, runAt: runAt!, repeat: { every: { unit, n }, ...end } }
          : { ...fields, platform, queue: true, repeat: { minGapDays: gap, ...end } };
      return ok(api.POST('/v1/posts', { body, headers: { 'idempotency-key': attemptKey.current } }));
    },
    onSuccess: ({ post, series }) => {
      attemptKey.current = newAttemptKey();
      if (series) onSaved(post, series);
      queryClient.invalidateQueries({ queryKey: ['posts'] });
      queryClient.invalidateQueries({ queryKey: ['calendar'] });
    },
  });
  const needsTime = mode === 'recurring' && (!runAt || runAt <= Date.now());
  return (
    <fieldset className="repeat">
      <legend>Repeat</legend>
      <div className="row wrap">
        <label>
          <input type="radio" checked={mode === 'recurring'} onChange={() => setMode('recurring')} /> Every
        </label>
        <input
          aria-label="How many units"
          type="number"
          min={1}
          max={365}
          value={n}
          disabled={mode !== 'recurring'}
          onChange={(e) => setN(Number(e.target.value))}
        />
        <select
          aria-label="Unit"
          value={unit}
          disabled={mode !== 'recurring'}
          onChange={(e) => setUnit(e.target.value as typeof unit)}
        >
          <option value="day">{n === 1 ? 'day' : 'days'}</option>
          <option value="week">{n === 1 ? 'week' : 'weeks'}</option>
          <option value="month">{n === 1 ? 'month' : 'months'}</option>
        </select>
        <label>
          <input type="radio" checked={mode === 'evergreen'} onChange={() => setMode('evergreen')} />{' '}
          Evergreen, at least{' '}
          <input
            aria-label="Days between posts"
            type="number"
            min={1}
            max={365}
            value={gap}
            disabled={mode !== 'evergreen'}
            onChange={(e) => setGap(Number(e.target.value))}
          />{' '}
          days apart, in the channel's queue
        </label>
      </div>
      <div className="row wrap">
        <label>
          Posts in all{' '}
          <input type="number" min={1} max={1000} value={count} onChange={(e) => setCount(e.target.value)} />
        </label>
        <label>
          Until <input type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />
        </label>
        <button
          type="button"
          onClick={() => create.mutate()}
          disabled={blocked || !canPost || needsTime || create.isPending}
        >
          {mode === 'recurring' ? 'Schedule series' : 'Start evergreen'}
        </button>
      </div>
      {needsTime && <p className="hint">Pick the first post's date and time above.</p>}
      {create.error && <ErrorBox error={create.error} />}
    </fieldset>
  );
}
