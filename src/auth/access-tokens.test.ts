import { describe, expect, it } from 'vitest';
import { createAccessTokenIssuer } from './access-tokens.js';

const claims = {
  userId: 'user-1',
  email: 'reader@example.org',
  name: 'Reader',
  sessionId: 'session-1',
};

/** The token with its payload replaced (re-encoded), its header and signature kept. */
function withPayload(token: string, change: (payload: Record<string, unknown>) => void): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  change(decoded);
  return [header, Buffer.from(JSON.stringify(decoded)).toString('base64url'), signature].join('.');
}

describe('access tokens', () => {
  it('verifies its own tokens, every time, and refuses another secret’s', async () => {
    const issuer = createAccessTokenIssuer('s'.repeat(64));
    const { token, expiresAt } = await issuer.sign(claims);
    expect(await issuer.verify(token)).toEqual({ ...claims, expiresAt });
    expect(await issuer.verify(token)).toEqual({ ...claims, expiresAt });
    expect(await createAccessTokenIssuer('t'.repeat(64)).verify(token)).toBeNull();
  });

  it('refuses a verified token’s signature under another payload, before and after the real one is verified', async () => {
    const issuer = createAccessTokenIssuer('s'.repeat(64));
    const { token } = await issuer.sign(claims);
    const someoneElse = withPayload(token, (payload) => {
      payload.sub = 'user-2';
    });
    expect(someoneElse.split('.')[2]).toBe(token.split('.')[2]);
    expect(await issuer.verify(someoneElse)).toBeNull();
    expect(await issuer.verify(token)).toMatchObject({ userId: 'user-1' });
    expect(await issuer.verify(someoneElse)).toBeNull();
    // The real token still answers after the refusal.
    expect(await issuer.verify(token)).toMatchObject({ userId: 'user-1' });
  });

  it('refuses a token and garbage with no signature at all', async () => {
    const issuer = createAccessTokenIssuer('s'.repeat(64));
    const { token } = await issuer.sign(claims);
    await issuer.verify(token);
    expect(await issuer.verify(token.slice(0, token.lastIndexOf('.') + 1))).toBeNull();
    expect(await issuer.verify('garbage')).toBeNull();
    expect(await issuer.verify('')).toBeNull();
  });
});
