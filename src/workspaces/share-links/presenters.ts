/** A share link as the owner (or, a read-only one, an editor) sees it: never its token's hash or sealed form. */
import type { ShareLinkRow } from './store.js';

export function presentShareLink(
  row: ShareLinkRow,
  token: string | null,
  url: string | null,
  now = new Date(),
) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    token,
    url,
    readOnly: row.readOnly,
    allowJoin: row.allowJoin,
    active: row.revokedAt === null && row.pausedAt === null && row.expiresAt > now,
    pausedAt: row.pausedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
