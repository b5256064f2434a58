/** Access tokens: HS256 JWTs signed with the service secret, valid one hour (docs/design.md, Sessions). */
import { SignJWT, jwtVerify, errors } from 'jose';
import { LRUCache } from 'lru-cache';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface AccessClaims {
  userId: string;
  email: string;
  name: string;
  /** The refresh-token family (one sign-in); revoking it ends this session's access tokens too. */
  sessionId: string;
}

/** A verified token's claims and its expiry (epoch seconds; null when it has none). */
export interface VerifiedAccess extends AccessClaims {
  expiresAt: number | null;
}

export interface AccessTokenIssuer {
  sign(claims: AccessClaims): Promise<{ token: string; expiresAt: number }>;
  /** The claims, 'expired', or null for anything else that is wrong with the token. */
  verify(token: string): Promise<VerifiedAccess | 'expired' | null>;
}

/** How many verified tokens one process remembers (a few hundred bytes each). */
const VERIFIED_TOKENS = 5_000;

export function createAccessTokenIssuer(secret: string, issuer = 'research-workspace'): AccessTokenIssuer {
  const key = new TextEncoder().encode(secret);
  /**
   * Tokens this process has already verified, with their claims. A client presents the same access
   * token on every request for up to an hour, and verifying it again (a key import and an HMAC run
   * as an asynchronous job) is a large share of a small request's CPU time (docs/performance.md).
   * Only a byte-identical token hits; expiry is checked on every hit, and revocation is the caller's
   * check on every request, as before. Looked up by the token's signature, its last 43 characters,
   * because a Map hashes a new string key on every lookup and the whole token is some 300 characters.
   * The entry holds the whole token, and a hit must equal it.
   */
  const verified = new LRUCache<string, { token: string; claims: VerifiedAccess }>({ max: VERIFIED_TOKENS });
  return {
    async sign(claims) {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = now + ACCESS_TOKEN_TTL_SECONDS;
      const token = await new SignJWT({ email: claims.email, name: claims.name, sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.userId)
        .setIssuer(issuer)
        .setAudience('authenticated')
        .setIssuedAt(now)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt };
    },
    async verify(token) {
      const signature = token.slice(token.lastIndexOf('.') + 1);
      const known = verified.get(signature);
      if (known?.token === token) {
        const { claims } = known;
        return claims.expiresAt !== null && claims.expiresAt <= Math.floor(Date.now() / 1000) ? 'expired' : claims;
      }
      try {
        const { payload } = await jwtVerify(token, key, { issuer, audience: 'authenticated', algorithms: ['HS256'] });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        const claims: VerifiedAccess = {
          userId: payload.sub,
          email: typeof payload.email === 'string' ? payload.email : '',
          name: typeof payload.name === 'string' ? payload.name : '',
          sessionId: payload.sid,
          expiresAt: payload.exp ?? null,
        };
        verified.set(signature, { token, claims });
        return claims;
      } catch (error) {
        if (error instanceof errors.JWTExpired) return 'expired';
        return null;
      }
    },
  };
}
