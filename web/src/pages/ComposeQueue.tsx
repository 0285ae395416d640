import { useQueries, useQuery } from '@tanstack/react-query';
import { api, type Channel, ok } from '../api.ts';
import { channelName } from '../lib/channels.ts';
import { formatWhen } from '../lib/time.ts';
import { Link } from '../router.tsx';

const queueQuery = (channelId: string | null) => ({
  queryKey: ['queue', channelId],
  enabled: Boolean(channelId),
  queryFn: () =>
    ok(api.GET('/v1/channels/{id}/queue', { params: { path: { id: channelId! }, query: { count: 14 } } })),
});

/** The channel's queue and its next 14 slot times (the Queue page reads the same query). */
export function useChannelQueue(channelId: string | null) {
  return useQuery(queueQuery(channelId));
}

/** The queues of several channels (a post to several channels), each the same query as above. */
export function useChannelQueues(channelIds: string[]) {
  return useQueries({ queries: channelIds.map(queueQuery) });
}

/** The first free slot of a channel's queue: its time, null when all 14 shown are taken, undefined while loading. */
export function nextFreeSlot(
  queue: Pick<ReturnType<typeof useChannelQueue>, 'data'>,
): number | null | undefined {
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
  queue: Pick<ReturnType<typeof useChannelQueue>, 'data' | 'isPending' | 'error'>;
}) {
  const name = channelName(channel);
  if (queue.isPending || queue.error || !queue.data) return null;
  if (queue.data.queue.slots.length === 0)
    return (
      <p className="hint queue-line">
        {name} has no queue slots yet: <Link to="/queue">set its weekly times on the Queue page</Link> to add
        posts to its queue.
      </p>
    );
  const at = nextFreeSlot(queue);
  return (
    <p className="hint queue-line">
      {at
        ? `Add to queue takes the next free slot of ${name}: ${formatWhen(at)}.`
        : `Add to queue takes the next free slot of ${name}, after the next 14, which are taken.`}
    </p>
  );
}
