import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type ChannelWorld, connected, startChannelWorld } from '../channels/helpers.ts';
import { connectClient } from './helpers.ts';

/** One account as an agent sees it: its key, its MCP client and its connected platformA channel. */
export interface Agent {
  apiKey: string;
  client: Client;
  channelId: string;
}

/** The service with the sandbox platform on loopback and two agents, each on its own account. */
export interface AgentWorld {
  w: ChannelWorld;
  a: Agent;
  b: Agent;
  close(): Promise<void>;
}

export async function startAgentWorld(): Promise<AgentWorld> {
  const w = await startChannelWorld();
  const agent = async (): Promise<Agent> => {
    const { apiKey } = await w.t.signup();
    const channel = await connected(w, apiKey);
    return { apiKey, client: await connectClient(w.t.url, apiKey), channelId: channel.id };
  };
  const a = await agent();
  const b = await agent();
  return {
    w,
    a,
    b,
    async close() {
      await a.client.close();
      await b.client.close();
      await w.close();
    },
  };
}
