import { useMemo } from 'react';
import type { Schemas } from '../api.ts';
import { formatWhen, nextHourStarts } from '../lib/time.ts';
import { navigate } from '../router.tsx';

type Insights = Schemas['InsightsResult'];
type Slot = Schemas['TimingSlot'];

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A multiple as a cell colour: green above the author's median, amber below, grey untested. */
function shade(multiple: number | null, posts: number): string {
  if (multiple === null) return posts === 0 ? '#f8f9fb' : '#e5e7eb';
  const strength = Math.min(1, Math.abs(Math.log(multiple)) / Math.log(2));
  const alpha = (0.15 + 0.65 * strength).toFixed(2);
  return multiple >= 1 ? `rgba(5, 150, 105, ${alpha})` : `rgba(217, 119, 6, ${alpha})`;
}

const posts = (n: number) => `${n} ${n === 1 ? 'post' : 'posts'}`;

/** "8 posts, 3.10× your median, stands out": what a cell rests on and shows, in words. */
function evidence(s: Slot): string {
  const value = s.multiple === null ? 'too few to compare' : `${s.multiple.toFixed(2)}× your median`;
  return `${posts(s.posts)}, ${value}${s.standsOut ? ', stands out' : ''}`;
}

function CellFace({ slot }: { slot: Slot }) {
  return (
    <>
      <span className="heat-value">
        {slot.multiple === null ? '—' : `${slot.multiple.toFixed(slot.multiple >= 10 ? 0 : 1)}×`}
      </span>
      <span className="heat-posts">{slot.posts}</span>
    </>
  );
}

/** The day's or the window's figure over all its posts: evidence, not a time to schedule. */
function Margin({ slot, name }: { slot: Slot | undefined; name: string }) {
  if (!slot) return <td />;
  return (
    <td className="heat-margin" style={{ background: shade(slot.multiple, slot.posts) }}>
      <span aria-hidden="true">
        <CellFace slot={slot} />
      </span>
      <span className="sr-only">
        {name}: {evidence(slot)}
      </span>
    </td>
  );
}

/**
 * Best posting times as a heat map: weekdays down, 3-hour windows across, on the clock of the
 * zone the insights were computed in (the browser's). Each cell shows the multiple and the posts
 * behind it, and opens Compose scheduled for that weekday and hour's next occurrence. The
 * margins are the days and windows on their own, which rest on more posts than any one cell.
 */
export function InsightsHeatMap({ insights }: { insights: Insights }) {
  const { grid, days, hours, timezone } = insights;
  const starts = useMemo(() => nextHourStarts(timezone), [timezone]);
  const windows = grid.cells.filter((c) => c.day === 0);
  return (
    <section className="card" aria-labelledby="best-times-title">
      <h2 id="best-times-title">Best times to post</h2>
      <p>{grid.note}</p>
      <div className="table-wrap">
        <table className="heatmap">
          <caption className="sr-only">
            Median engagement by weekday and time of day in {timezone}, as a multiple of your median, with the
            posts behind each cell
          </caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Weekday</span>
              </th>
              {windows.map((w) => (
                <th key={w.hour} scope="col" title={w.slot.slice(w.slot.indexOf(' ') + 1)}>
                  {String(w.hour).padStart(2, '0')}
                </th>
              ))}
              <th scope="col">All day</th>
            </tr>
          </thead>
          <tbody>
            {DAYS.map((day, d) => (
              <tr key={day}>
                <th scope="row" title={day}>
                  {day.slice(0, 3)}
                </th>
                {grid.cells
                  .filter((c) => c.day === d)
                  .map((c) => {
                    const at = starts.get(`${c.day}-${c.hour}`);
                    const label = `${c.slot}: ${evidence(c)}`;
                    const action = at ? `. Schedule a post for ${formatWhen(at)}` : '';
                    return (
                      <td key={c.hour}>
                        <button
                          type="button"
                          className={`heat-cell${c.standsOut ? ' stands-out' : ''}`}
                          style={{ background: shade(c.multiple, c.posts) }}
                          aria-label={label + action}
                          title={label + action}
                          disabled={!at}
                          onClick={() => at && navigate(`/compose?at=${at}`)}
                        >
                          <CellFace slot={c} />
                        </button>
                      </td>
                    );
                  })}
                <Margin slot={days.slots[d]} name={`${day}, all day`} />
              </tr>
            ))}
            <tr>
              <th scope="row">Every day</th>
              {windows.map((w, i) => (
                <Margin key={w.hour} slot={hours.slots[i]} name={`Every day ${hours.slots[i]?.slot ?? ''}`} />
              ))}
              <td />
            </tr>
          </tbody>
        </table>
      </div>
      <p className="hint">
        Columns are 3-hour windows starting at the hour shown ({timezone}). In each cell: your median
        engagement there as a multiple of your overall median (— under 5 posts), and below it the number of
        posts it rests on. Press a cell to write a post scheduled for its next occurrence.
      </p>
      {days.note !== grid.note && <p className="hint">Days on their own: {days.note}</p>}
      {hours.note !== grid.note && <p className="hint">Times on their own: {hours.note}</p>}
    </section>
  );
}
