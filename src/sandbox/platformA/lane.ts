import type { LaneCtx, Exchange as LaneExchange, Route as LaneRoute } from '../http.ts';
import type { PlatformAFaults, PlatformARoute } from './faults.ts';
import type { PlatformAState } from './state.ts';

export interface PlatformASettings {
  clientId: string;
  clientSecret: string;
  /** null: any http(s) redirect URI is accepted. */
  redirectUris: string[] | null;
  requirePkce: boolean;
  accessTokenTtlSeconds: number;
  refreshTokens: boolean;
  refreshTokenTtlSeconds: number;
  videoPartSize: number;
  videoProcessingPolls: number;
  rejectDuplicates: boolean;
  minVersion: string;
}

/** What platformA's handlers get: the shared context plus its state, faults and settings. */
export interface PlatformACtx extends LaneCtx {
  state: PlatformAState;
  faults: PlatformAFaults;
  settings: PlatformASettings;
}

export type Exchange = LaneExchange<PlatformACtx>;
export type Route = LaneRoute<PlatformACtx, PlatformARoute>;
