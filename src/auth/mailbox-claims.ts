/**
 * An account whose address was never confirmed may have been made by someone who does not own the
 * address, waiting for its owner to use it (a pre-account hijack). When the owner proves they hold
 * the mailbox (a verified OAuth e-mail, a reset link), the account becomes theirs cleanly: its
 * password, linked identities, mailed links and sessions all end, and the address counts as
 * confirmed. Its workspaces stay: the owner may have made them.
 *
 * Its share links are paused, not revoked (docs/design.md, Account claims): with e-mail confirmation
 * off every password account is unconfirmed, so this claim is most often the real owner's own reset,
 * and their links must survive it. A paused link opens nothing; the owner, now the only one who can
 * sign in, is mailed which workspaces' links were paused and resumes those they made, at the same
 * address.
 */
import type { Db, Tx } from '../platform/db/client.js';
import type { Mailer } from '../platform/mail/index.js';
import { pauseShareLinksOfOwner } from '../workspaces/index.js';
import { pausedLinksMail } from './mails.js';
import { endAllSessions, type SessionDeps } from './sessions.js';
import { clearUnconfirmedAccount, type UserRow } from './users.js';

export interface ClaimDeps {
  db: Db;
  sessions: SessionDeps;
  mailer: Mailer;
  /** The web app's origin, for the workspaces' addresses in the mail. */
  appOrigin: string;
}

/** Runs `then` in the same transaction, after the claim (or alone for a confirmed account). */
export async function claimForMailboxOwner(
  deps: ClaimDeps,
  account: Pick<UserRow, 'id' | 'email' | 'emailConfirmedAt'>,
  then: (tx: Tx) => Promise<void>,
): Promise<void> {
  const claim = await deps.db.transaction(async (tx) => {
    const wasUnconfirmed =
      !account.emailConfirmedAt && (await clearUnconfirmedAccount(tx, account.id));
    const paused = wasUnconfirmed ? await pauseShareLinksOfOwner(tx, account.id) : [];
    await then(tx);
    return { wasUnconfirmed, paused };
  });
  if (!claim.wasUnconfirmed) return;
  await endAllSessions(deps.sessions, account.id);
  if (claim.paused.length > 0)
    await deps.mailer.send(pausedLinksMail(deps.appOrigin, account.email, claim.paused));
}
