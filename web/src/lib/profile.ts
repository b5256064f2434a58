/** The signed-in user's profile (GET /api/profile), shared by the profile page and the theme it carries. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';

export type Profile = components['schemas']['Profile'];
export const PROFILE_KEY = ['profile'] as const;

export function useProfile(enabled = true) {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => (await unwrap(api.GET('/api/profile'))).profile,
    enabled,
    staleTime: 5 * 60_000,
  });
}

/**
 * The locale dates and numbers are written in: the browser's own (`navigator.language`), for visitors
 * and signed-in users alike, so that a date reads the same before and after signing in and as the
 * reader's browser writes it. The profile's `language` (the API's `en-IN`, its only value) is not used
 * for it: it would write an en-US reader's dates the Indian way.
 */
export function useReaderLocale(): string | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.language || undefined;
}
