/**
 * Turns an external identity into one of our users: a known identity signs its user in; otherwise a
 * verified e-mail links to the account with that address, or a new account is created. An
 * unverified e-mail never takes over an existing account. A verified one that finds an account whose
 * address was never confirmed takes it over cleanly (claimUnconfirmedAccount): whoever made it may
 * have squatted the address, so their password, sessions, identities and share links end.
 */
import type { Db } from '../../platform/db/client.js';
import { revokeShareLinksOfOwner } from '../../workspaces/store.js';
import { endAllSessions, type SessionDeps } from '../sessions.js';
import {
  claimUnconfirmedAccount,
  createUserWithProfile,
  EmailTakenError,
  findUserByEmail,
  findUserByIdentity,
  linkIdentity,
  type UserRow,
} from '../users.js';
import type { ExternalIdentity } from './providers.js';

export class IdentityConflictError extends Error {}

export interface IdentityDeps {
  db: Db;
  sessions: SessionDeps;
}

/** Links the identity to an existing account with its (verified) address, first claiming the account if its address was never confirmed. */
async function linkByVerifiedEmail(deps: IdentityDeps, account: UserRow, identity: ExternalIdentity): Promise<void> {
  const claimed = await deps.db.transaction(async (tx) => {
    const wasUnconfirmed = !account.emailConfirmedAt && (await claimUnconfirmedAccount(tx, account.id));
    if (wasUnconfirmed) await revokeShareLinksOfOwner(tx, account.id);
    await linkIdentity(tx, account.id, identity.provider, identity.providerUserId, identity.email);
    return wasUnconfirmed;
  });
  if (claimed) await endAllSessions(deps.sessions, account.id);
}

export async function userForIdentity(deps: IdentityDeps, identity: ExternalIdentity): Promise<UserRow> {
  const known = await findUserByIdentity(deps.db, identity.provider, identity.providerUserId);
  if (known) return known;
  if (!identity.email) throw new IdentityConflictError('The provider did not share an e-mail address');
  const existing = await findUserByEmail(deps.db, identity.email);
  if (existing) {
    if (!identity.emailVerified) throw new IdentityConflictError('An account with this e-mail exists; sign in with your password first');
    await linkByVerifiedEmail(deps, existing, identity);
    return existing;
  }
  try {
    const user = await createUserWithProfile(deps.db, {
      email: identity.email,
      name: (identity.name ?? identity.email.split('@')[0] ?? 'Researcher').slice(0, 100),
      passwordHash: null,
      emailConfirmed: identity.emailVerified,
    });
    await linkIdentity(deps.db, user.id, identity.provider, identity.providerUserId, identity.email);
    return user;
  } catch (error) {
    if (error instanceof EmailTakenError) return userForIdentity(deps, identity);
    throw error;
  }
}
