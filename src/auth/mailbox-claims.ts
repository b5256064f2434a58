/**
 * An account whose address was never confirmed may have been made by someone who does not own the
 * address, waiting for its owner to use it (a pre-account hijack). When the owner proves they hold
 * the mailbox (a verified OAuth e-mail, a reset link), the account becomes theirs cleanly: its
 * password, linked identities, mailed links, share links and sessions all end, and the address
 * counts as confirmed. Its workspaces stay: the owner may have made them.
 */
import type { Db, Tx } from '../platform/db/client.js';
import { revokeShareLinksOfOwner } from '../workspaces/index.js';
import { endAllSessions, type SessionDeps } from './sessions.js';
import { clearUnconfirmedAccount, type UserRow } from './users.js';

export interface ClaimDeps {
  db: Db;
  sessions: SessionDeps;
}

/** Runs `then` in the same transaction, after the claim (or alone for a confirmed account). */
export async function claimForMailboxOwner(
  deps: ClaimDeps,
  account: Pick<UserRow, 'id' | 'emailConfirmedAt'>,
  then: (tx: Tx) => Promise<void>,
): Promise<void> {
  const claimed = await deps.db.transaction(async (tx) => {
    const wasUnconfirmed = !account.emailConfirmedAt && (await clearUnconfirmedAccount(tx, account.id));
    if (wasUnconfirmed) await revokeShareLinksOfOwner(tx, account.id);
    await then(tx);
    return wasUnconfirmed;
  });
  if (claimed) await endAllSessions(deps.sessions, account.id);
}
