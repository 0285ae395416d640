import { useQuery } from '@tanstack/react-query';
import { api, type Channel, ok } from '../api.ts';
import { channelName } from '../lib/channels.ts';
import { formatWhen } from '../lib/time.ts';
import { Link } from '../router.tsx';

/** The channel's queue and its next 14 slot times (the Queue page reads the same query). */
export function useChannelQueue(channelId: string | null) {
  return useQuery({
    queryKey: ['queue', channelId],
    enabled: Boolean(channelId),
    queryFn: () =>
      ok(api.GET('/v1/channels/{id}/queue', { params: { path: { id: channelId! }, query: { count: 14 } } })),
  });
}

/** The first free slot of a channel's queue: its time, null when all 14 shown are taken, undefined while loading. */
export function nextFreeSlot(queue: ReturnType<typeof useChannelQueue>): number | null | undefined {
  if (!queue.data) return undefined;
  return queue.data.upcoming.find((u) => u.postId === null)?.at ?? null;
}

/**
 * What "Add to queue" will do, before it is pressed: the chosen channel's next free slot, or why
 * there is none (no weekly slots yet: the Queue page sets them).
 */
export function QueueLine({
  channel,
  queue,
}: {
  channel: Channel;
  queue: ReturnType<typeof useChannelQueue>;
}) {
  const name = channelName(channel);
  if (queue.isPending || queue.error) return null;
  if (queue.data.queue.slots.length === 0)
    return (
      <p className="hint" id="queue-line">
        {name} has no queue slots yet: <Link to="/queue">set its weekly times on the Queue page</Link> to add
        posts to its queue.
      </p>
    );
  const at = nextFreeSlot(queue);
  return (
    <p className="hint" id="queue-line">
      {at
        ? `Add to queue takes the next free slot of ${name}: ${formatWhen(at)}.`
        : `Add to queue takes the next free slot of ${name}, after the next 14, which are taken.`}
    </p>
  );
}
