/**
 * Google and GitHub sign-in, coming back to `next` (a path the page already checked with safeNext;
 * the server checks it again). The server answers GET /api/auth/{provider} with a redirect when the
 * provider is configured and a 400 (reason not_configured) when not: the app asks first, without
 * following the redirect, so that an unconfigured provider is a message here and not a JSON page.
 */
import { useState } from 'react';
import { apiErrorFrom, describeError } from '../../api/errors';

const PROVIDERS = [
  { id: 'google', label: 'Google' },
  { id: 'github', label: 'GitHub' },
] as const;

export function OAuthButtons({ next }: { next: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const start = async (provider: (typeof PROVIDERS)[number]) => {
    setMessage(null);
    setBusy(provider.id);
    const url = `/api/auth/${provider.id}?next=${encodeURIComponent(next)}`;
    try {
      const probe = await fetch(url, { redirect: 'manual', credentials: 'include' });
      if (probe.type === 'opaqueredirect' || (probe.status >= 300 && probe.status < 400)) {
        window.location.assign(url);
        return;
      }
      const body: unknown = await probe.json().catch(() => null);
      const error = apiErrorFrom(probe, body);
      setMessage(
        error.details.reason === 'not_configured'
          ? `Sign-in with ${provider.label} is not configured on this server. Use your e-mail and password.`
          : describeError(error),
      );
    } catch {
      setMessage('The service cannot be reached. Check your connection and try again.');
    }
    setBusy(null);
  };
  return (
    <div className="oauth">
      <p className="divider">
        <span>or</span>
      </p>
      <div className="oauth-buttons">
        {PROVIDERS.map((provider) => (
          <button
            key={provider.id}
            type="button"
            className="button button-secondary"
            onClick={() => void start(provider)}
            disabled={busy !== null}
          >
            {busy === provider.id
              ? `Opening ${provider.label}…`
              : `Continue with ${provider.label}`}
          </button>
        ))}
      </div>
      {message && (
        <p className="form-alert" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
