import { browserZone } from '../lib/time.ts';
import { Link } from '../router.tsx';

/**
 * One line where a page uses the account's time zone and this browser is elsewhere, so a
 * writer in Paris reading "09:00" on an account set to UTC knows which 09:00 it is.
 */
export function ZoneHint({ zone }: { zone: string }) {
  const here = browserZone();
  if (zone === here) return null;
  return (
    <p className="hint">
      {zone} is the account’s time zone; this browser is in {here}.{' '}
      <Link to="/settings">Change it in Settings</Link>
    </p>
  );
}
