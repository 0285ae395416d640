/**
 * Scheduling happens in the browser's timezone; the API speaks epoch milliseconds. These convert
 * between the two and name the zone, so "Tue 09:00" means the writer's 09:00 wherever they are.
 */

/** The browser's IANA zone, e.g. "Europe/Paris". */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone's short name at an instant, e.g. "CET" or "GMT+1" (depends on the locale). */
export function zoneAbbreviation(at: number, zone = browserZone(), locale = browserLocale()): string {
  const part = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(new Date(at))
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}

/** The browser's zone as a date field names it: "Europe/Paris, CET" (the zone alone where it has no short name). */
export function zoneLabelOf(runAt: number | null): string {
  const zone = browserZone();
  const abbreviation = zoneAbbreviation(runAt ?? Date.now());
  return abbreviation === zone ? zone : `${zone}, ${abbreviation}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The value of an <input type="datetime-local"> showing `at` in the browser's local time. */
export function toLocalInput(at: number): string {
  const d = new Date(at);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Epoch ms for a datetime-local value read as the browser's local time, or null when empty or
 * invalid. A wall time skipped by a daylight-saving jump resolves as the browser's Date does.
 */
export function fromLocalInput(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const date = new Date(y!, mo! - 1, d!, h!, mi!, Number.isNaN(s) ? 0 : (s ?? 0));
  const at = date.getTime();
  return Number.isNaN(at) ? null : at;
}

/**
 * "Tue 24 Nov, 09:00 CET" in an en-GB browser, "Tue, Nov 24, 09:00 AM EST" in an en-US one: a
 * time in the browser's zone, written the way the browser's locale writes dates, with the
 * zone's name.
 */
export function formatWhen(at: number, locale = browserLocale()): string {
  const text = new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: new Date(at).getFullYear() === new Date().getFullYear() ? undefined : 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(at));
  return `${text} ${zoneAbbreviation(at, browserZone(), locale)}`;
}

/**
 * A chart's axis label for `at`, as fine as the chart's span needs: seconds within an hour, the
 * time of day within a day, and the date too beyond that.
 */
export function formatTick(at: number, spanMs: number, locale = browserLocale()): string {
  return new Intl.DateTimeFormat(locale, {
    ...(spanMs > 86_400_000 ? { day: 'numeric', month: 'short' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    ...(spanMs < 3_600_000 ? { second: '2-digit' } : {}),
  }).format(new Date(at));
}

/** "in 5 minutes", "3 days ago": for expiries and schedules. */
export function relative(at: number, now = Date.now()): string {
  const diff = at - now;
  const abs = Math.abs(diff);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1000],
  ];
  const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, ms] of units) {
    if (abs >= ms || unit === 'second') return rtf.format(Math.round(diff / ms), unit);
  }
  return rtf.format(0, 'second');
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The weekday (Sunday = 0) and hour (0-23) of `at` on the clock of `zone` (default: the
 * browser's), as the score's `dayOfWeek` and `hourLocal` mean them: 09:00 in Paris is hour 9,
 * whatever UTC says.
 */
export function localSlot(at: number, zone = browserZone()): { dayOfWeek: number; hourLocal: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    hour: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const weekday = parts.find((p) => p.type === 'weekday')?.value ?? 'Sun';
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  return { dayOfWeek: Math.max(0, WEEKDAYS.indexOf(weekday)), hourLocal: hour % 24 };
}

const QUARTER_HOUR = 900_000;

/**
 * When each weekday's whole hour next starts on the clock of `zone`, at least `lead` ms from
 * `now` (so it can still be scheduled): keyed `${day}-${hour}`, day 0 = Sunday as in
 * `localSlot`. It walks quarter hours over the next 15 days rather than doing arithmetic on
 * offsets, so zones 30 or 45 minutes off UTC and daylight-saving days land on the zone's own
 * hour, and an hour a clock change skips one week is found the week after.
 */
export function nextHourStarts(
  zone = browserZone(),
  now = Date.now(),
  lead = 3_600_000,
): Map<string, number> {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  const found = new Map<string, number>();
  const first = Math.ceil((now + lead) / QUARTER_HOUR) * QUARTER_HOUR;
  for (let at = first; at < first + 15 * 86_400_000 && found.size < 168; at += QUARTER_HOUR) {
    const parts = format.formatToParts(new Date(at));
    if (Number(parts.find((p) => p.type === 'minute')?.value) !== 0) continue;
    const day = WEEKDAYS.indexOf(parts.find((p) => p.type === 'weekday')?.value ?? '');
    const hour = Number(parts.find((p) => p.type === 'hour')?.value) % 24;
    const slot = `${day}-${hour}`;
    if (!found.has(slot)) found.set(slot, at);
  }
  return found;
}

/** The browser's locale: every date and time the console writes is in it (the Calendar's too). */
export function browserLocale(): string {
  return (typeof navigator !== 'undefined' && navigator.language) || 'en-US';
}

/** Regions whose week starts on Sunday, where the browser cannot say (no Intl week info). */
const SUNDAY_FIRST = new Set(['US', 'CA', 'MX', 'BR', 'JP', 'IL', 'PH', 'KR', 'TW', 'HK', 'IN', 'ZA', 'SA']);

/** The locale's first day of the week, 0 = Sunday ... 6 = Saturday (en-GB Monday, en-US Sunday). */
export function firstWeekday(locale = browserLocale()): number {
  try {
    const info = new Intl.Locale(locale) as Intl.Locale & {
      getWeekInfo?: () => { firstDay: number };
      weekInfo?: { firstDay: number };
    };
    // ISO numbering (Monday = 1 ... Sunday = 7), from the browser's CLDR data.
    const firstDay = info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay;
    if (firstDay) return firstDay % 7;
    const region = info.maximize().region ?? '';
    return SUNDAY_FIRST.has(region) ? 0 : 1;
  } catch {
    return 1;
  }
}
