import type { PlatformBFaults } from './faults.ts';
import type { PlatformBState } from './state.ts';

/** What platformB handlers share: its state, faults and settings (inside the sandbox ctx). */
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
}

export interface PlatformBLane {
  state: PlatformBState;
  faults: PlatformBFaults;
  settings: PlatformBSettings;
}
