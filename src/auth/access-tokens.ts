/** Access tokens: HS256 JWTs signed with the service secret, valid one hour (docs/design.md, Sessions). */
import { SignJWT, jwtVerify, errors } from 'jose';

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

export function createAccessTokenIssuer(
  secret: string,
  issuer = 'research-workspace',
): AccessTokenIssuer {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims) {
      const now = Math.floor(Date.now() / 1000);
      const expiresAt = now + ACCESS_TOKEN_TTL_SECONDS;
      const token = await new SignJWT({
        email: claims.email,
        name: claims.name,
        sid: claims.sessionId,
      })
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
      try {
        const { payload } = await jwtVerify(token, key, {
          issuer,
          audience: 'authenticated',
          algorithms: ['HS256'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
        return {
          userId: payload.sub,
          email: typeof payload.email === 'string' ? payload.email : '',
          name: typeof payload.name === 'string' ? payload.name : '',
          sessionId: payload.sid,
          expiresAt: payload.exp ?? null,
        };
      } catch (error) {
        if (error instanceof errors.JWTExpired) return 'expired';
        return null;
      }
    },
  };
}
