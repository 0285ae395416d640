import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok } from '../api.ts';
import { factsOf, type PlatformFacts } from './parts.ts';

/** The service contract (platforms, limits, whether a model is configured). Public and stable. */
export function useMeta() {
  return useQuery({ queryKey: ['meta'], queryFn: () => ok(api.GET('/v1/meta')), staleTime: 300_000 });
}

/** One platform's profile from /v1/meta (limits, counting, threads); undefined while it loads. */
export function usePlatformFacts(platform: string): PlatformFacts | undefined {
  return factsOf(useMeta().data?.platforms, platform);
}

export function useChannels() {
  return useQuery({ queryKey: ['channels'], queryFn: () => ok(api.GET('/v1/channels')) });
}

export function useBrands() {
  return useQuery({ queryKey: ['brands'], queryFn: () => ok(api.GET('/v1/brands')) });
}

export function useVoices() {
  return useQuery({ queryKey: ['voices'], queryFn: () => ok(api.GET('/v1/voices')) });
}

/** `value`, once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The account's settings: its time zone (the default of queues, series and insights) and approvals. */
export function useAccountSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: () => ok(api.GET('/v1/account/settings')) });
}

/** Whether the signed-in member's posts wait for an approver: an editor while approvals are required. */
export function useApprovalsHold(): boolean {
  const me = useQuery({ queryKey: ['whoami-key'], queryFn: () => ok(api.GET('/v1/account')) });
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => ok(api.GET('/v1/account/settings')) });
  const role = me.data?.member.role;
  return (
    settings.data?.settings.approvals === 'required' &&
    role !== undefined &&
    role !== 'owner' &&
    role !== 'admin'
  );
}
