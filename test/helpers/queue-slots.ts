import { expect } from 'vitest';
import type { TestApp } from './app.ts';

/** A weekly queue slot as the contract writes it: day 0 is Sunday, time is HH:MM in the zone. */
export type Slot = { day: number; time: string };

/**
 * Gives a channel weekly queue slots through the API (an in-process app or a spawned process:
 * both answer `request`), fails the test on anything but 200, and returns the next `count`
 * upcoming slot times so a test can say where a queued post must land.
 */
export async function setQueueSlots(
  via: Pick<TestApp, 'request'>,
  input: { key: string; channelId: string; timezone: string; slots: Slot[]; count?: number },
): Promise<{ at: number; postId: string | null }[]> {
  const path = `/v1/channels/${input.channelId}/queue`;
  const put = await via.request('PUT', path, {
    key: input.key,
    body: { timezone: input.timezone, slots: input.slots },
  });
  expect(put.status, put.text).toBe(200);
  const next = await via.request('GET', `${path}?count=${input.count ?? 3}`, { key: input.key });
  expect(next.status, next.text).toBe(200);
  return next.body.upcoming;
}
