/** A workspace's role for the signed-in user, beside its name. */
import { ROLE_LABELS, type Role } from '../lib/workspace-role';

/** "Owner", or "Editor · shared with you" for a workspace someone else owns. */
export function RoleBadge({ role }: { role: Role }) {
  return (
    <span className="badge role-badge">
      {ROLE_LABELS[role]}
      {role !== 'owner' && ' · shared with you'}
    </span>
  );
}
