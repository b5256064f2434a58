/** The signed-in user's profile (GET /api/profile), shared by the profile page and the theme it carries. */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { useSession } from './session';

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
 * The profile's language (a BCP 47 tag such as `en-IN`) for dates and numbers; undefined until the
 * profile has loaded, and for a visitor (who has no profile to ask for: the front page asks nothing).
 */
export function useProfileLanguage(): string | undefined {
  const signedIn = Boolean(useSession().data);
  return useProfile(signedIn).data?.preferences.language;
}
