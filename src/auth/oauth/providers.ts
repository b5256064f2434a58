/**
 * Google and GitHub sign-in through arctic's OAuth 2.0 client (authorization code + state + PKCE),
 * with every endpoint taken from the config so that tests can run a real local OAuth server.
 */
import { CodeChallengeMethod, OAuth2Client } from 'arctic';
import type { OAuthProviderConfig } from '../../config.js';
import { describeError } from '../../platform/error-causes.js';
import type { Outbound } from '../../platform/outbound.js';

export type OAuthProviderId = 'google' | 'github';

export interface ExternalIdentity {
  provider: OAuthProviderId;
  providerUserId: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export interface OAuthProvider {
  id: OAuthProviderId;
  authorizationUrl(state: string, codeVerifier: string): URL;
  /** Exchanges the code (with the PKCE verifier) and reads who the user is. */
  identify(code: string, codeVerifier: string): Promise<ExternalIdentity>;
}

const SCOPES: Record<OAuthProviderId, string[]> = {
  google: ['openid', 'email', 'profile'],
  github: ['read:user', 'user:email'],
};

async function getJson<T>(outbound: Outbound, url: string, accessToken: string): Promise<T> {
  const response = await outbound.request(url, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    timeoutMs: 10_000,
    maxBytes: 1024 * 1024,
  });
  if (response.status !== 200) throw new Error(`Identity endpoint answered ${response.status}`);
  return response.json<T>();
}

export function createOAuthProvider(
  id: OAuthProviderId,
  config: OAuthProviderConfig,
  redirectUri: string,
  outbound: Outbound,
): OAuthProvider {
  const client = new OAuth2Client(config.clientId, config.clientSecret, redirectUri);
  return {
    id,
    authorizationUrl: (state, codeVerifier) =>
      client.createAuthorizationURLWithPKCE(
        config.authorizationUrl,
        state,
        CodeChallengeMethod.S256,
        codeVerifier,
        SCOPES[id],
      ),
    async identify(code, codeVerifier) {
      let accessToken: string;
      try {
        accessToken = (
          await client.validateAuthorizationCode(config.tokenUrl, code, codeVerifier)
        ).accessToken();
      } catch (error) {
        // arctic's errors say "fetch failed" and keep the reason in `cause`: the warning names it.
        throw new Error(`Token exchange failed: ${describeError(error)}`, { cause: error });
      }
      if (id === 'google') {
        const info = await getJson<{
          sub?: string;
          email?: string;
          email_verified?: boolean | string;
          name?: string;
        }>(outbound, config.userInfoUrl, accessToken);
        if (!info.sub) throw new Error('Identity without a subject');
        return {
          provider: id,
          providerUserId: String(info.sub),
          email: info.email ?? null,
          emailVerified: info.email_verified === true || info.email_verified === 'true',
          name: info.name ?? null,
        };
      }
      const user = await getJson<{ id?: number | string; login?: string; name?: string | null }>(
        outbound,
        `${config.userInfoUrl}/user`,
        accessToken,
      );
      if (user.id === undefined) throw new Error('Identity without an id');
      const emails = await getJson<Array<{ email: string; primary: boolean; verified: boolean }>>(
        outbound,
        `${config.userInfoUrl}/user/emails`,
        accessToken,
      );
      const primary =
        emails.find((entry) => entry.primary && entry.verified) ??
        emails.find((entry) => entry.verified);
      return {
        provider: id,
        providerUserId: String(user.id),
        email: primary?.email ?? null,
        emailVerified: Boolean(primary),
        name: user.name ?? user.login ?? null,
      };
    },
  };
}
