/**
 * Turns an external identity into one of our users: a known identity signs its user in; otherwise a
 * verified e-mail links to the account with that address, or a new account is created. An
 * unverified e-mail never takes over an existing account. A verified one that finds an account whose
 * address was never confirmed claims it for the address's owner (mailbox-claims.ts).
 */
import { claimForMailboxOwner, type ClaimDeps } from '../mailbox-claims.js';
import {
  createUserWithProfile,
  EmailTakenError,
  findUserByEmail,
  findUserById,
  findUserByIdentity,
  linkIdentity,
  type UserRow,
} from '../users.js';
import type { ExternalIdentity } from './providers.js';

export class IdentityConflictError extends Error {}

export async function userForIdentity(
  deps: ClaimDeps,
  identity: ExternalIdentity,
): Promise<UserRow> {
  const known = await findUserByIdentity(deps.db, identity.provider, identity.providerUserId);
  if (known) return known;
  if (!identity.email)
    throw new IdentityConflictError('The provider did not share an e-mail address');
  const existing = await findUserByEmail(deps.db, identity.email);
  if (existing) {
    if (!identity.emailVerified)
      throw new IdentityConflictError(
        'An account with this e-mail exists; sign in with your password first',
      );
    await claimForMailboxOwner(deps, existing, (tx) =>
      linkIdentity(tx, existing.id, identity.provider, identity.providerUserId, identity.email),
    );
    // Read again: a claim changed the account's credentials (and their version), which this identity now is.
    const claimed = await findUserById(deps.db, existing.id);
    if (!claimed)
      throw new IdentityConflictError('The account was removed while it was being claimed');
    return claimed;
  }
  try {
    const user = await createUserWithProfile(deps.db, {
      email: identity.email,
      name: (identity.name ?? identity.email.split('@')[0] ?? 'Researcher').slice(0, 100),
      passwordHash: null,
      emailConfirmed: identity.emailVerified,
    });
    await linkIdentity(
      deps.db,
      user.id,
      identity.provider,
      identity.providerUserId,
      identity.email,
    );
    return user;
  } catch (error) {
    if (error instanceof EmailTakenError) return userForIdentity(deps, identity);
    throw error;
  }
}
