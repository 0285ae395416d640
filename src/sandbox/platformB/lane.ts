import type { LaneCtx, Exchange as LaneExchange, Route as LaneRoute } from '../http.ts';
import type { PlatformBFaults, PlatformBRoute } from './faults.ts';
import type { PlatformBState } from './state.ts';

export interface PlatformBSettings {
  clientId: string;
  clientSecret: string;
  accessTokenTtlSeconds: number;
  /** Creates per member per window (the live platform: 100 per 15 minutes). */
  createLimit: number;
  /** Deletes per member per window (the live platform: 50 per 15 minutes). */
  deleteLimit: number;
  windowSeconds: number;
  /** STATUS reads that answer in_progress after finalize before succeeded (default 1). */
  mediaProcessingPolls: number;
  /** Refuse a member's second live post with the same text (403 duplicate content). */
  rejectDuplicates: boolean;
  /**
   * The member's timeline lists only this many of their most recent posts (the live platform:
   * 3,200); older ones are past the platform's window for recovery's look-ups.
   */
  timelineLimit: number;
}

/** What platformB's handlers get: the shared context plus its state, faults and settings. */
export interface PlatformBCtx extends LaneCtx {
  state: PlatformBState;
  faults: PlatformBFaults;
  settings: PlatformBSettings;
}

export type Exchange = LaneExchange<PlatformBCtx>;
export type Route = LaneRoute<PlatformBCtx, PlatformBRoute>;
