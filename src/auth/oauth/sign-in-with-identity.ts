/**
 * Turns an external identity into one of our users: a known identity signs its user in; otherwise a
 * verified e-mail links to the account with that address, or a new account is created. An
 * unverified e-mail never takes over an existing account.
 */
import type { Db } from '../../platform/db/client.js';
import { createUserWithProfile, EmailTakenError, findUserByEmail, findUserByIdentity, linkIdentity, type UserRow } from '../users.js';
import type { ExternalIdentity } from './providers.js';

export class IdentityConflictError extends Error {}

export async function userForIdentity(db: Db, identity: ExternalIdentity): Promise<UserRow> {
  const known = await findUserByIdentity(db, identity.provider, identity.providerUserId);
  if (known) return known;
  if (!identity.email) throw new IdentityConflictError('The provider did not share an e-mail address');
  const existing = await findUserByEmail(db, identity.email);
  if (existing) {
    if (!identity.emailVerified) throw new IdentityConflictError('An account with this e-mail exists; sign in with your password first');
    await linkIdentity(db, existing.id, identity.provider, identity.providerUserId, identity.email);
    return existing;
  }
  try {
    const user = await createUserWithProfile(db, {
      email: identity.email,
      name: (identity.name ?? identity.email.split('@')[0] ?? 'Researcher').slice(0, 100),
      passwordHash: null,
      emailConfirmed: identity.emailVerified,
    });
    await linkIdentity(db, user.id, identity.provider, identity.providerUserId, identity.email);
    return user;
  } catch (error) {
    if (error instanceof EmailTakenError) return userForIdentity(db, identity);
    throw error;
  }
}
