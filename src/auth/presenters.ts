/** Shapes of auth replies. */
import { ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';
import type { IssuedSession } from './sessions.js';

export function presentSession(session: IssuedSession) {
  return {
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_at: session.expiresAt,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    token_type: 'bearer' as const,
  };
}

export function presentUser(user: { id: string; email: string; name: string }) {
  return { id: user.id, email: user.email, name: user.name };
}
