import { z } from 'zod';
import { ChannelListResult } from '../../features/channels/channels.schemas.ts';
import { listChannels } from '../../features/channels/channels.service.ts';
import { defineTool, formatWhen, plural, readOnly } from '../tool.ts';

export const channelTools = [
  defineTool({
    name: 'list_channels',
    title: 'List channels',
    description:
      "Lists the account's connected social accounts (channels), newest first, with their status (connected, expired, revoked, error) and token expiry; never any token. Use it to find the `channelId` that create_post and schedule_post need: only `connected` channels can publish. Channels are connected by a person through the REST OAuth flow, not through tools. Free.",
    input: z.object({}).strict(),
    output: ChannelListResult,
    annotations: readOnly,
    scope: 'read',
    run: async (ctx) => ({ channels: await listChannels({ ctx, input: undefined }) }),
    summarize: ({ channels }) =>
      `${plural(channels.length, 'channel')}.${channels
        .map(
          (c) =>
            `\n- ${c.id} ${c.platform} ${c.handle ?? '(no handle)'}: ${c.status}${c.expiresAt === null ? '' : `, token expires ${formatWhen(c.expiresAt)}`}`,
        )
        .join('')}`,
  }),
];
