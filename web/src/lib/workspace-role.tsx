/**
 * What the signed-in user's role in a workspace lets them do, mirroring the service's one policy table
 * (src/workspaces/policy.ts, POLICY): the workspace page offers only the controls the role allows, so a
 * viewer is never shown a button the service would refuse with a 403. The page provides the role; the
 * library, a resource's panel, its PDF and the share links read it (lib/: features/workspaces,
 * pdfs-upload and members all do). Without a provider (a page that is not a
 * workspace's) everything is offered, as before roles existed.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { components } from '../api/schema';

export type Role = components['schemas']['Role'];

const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  editor: 'Editor',
  viewer: 'Viewer',
};

/** The abilities of a role, by POLICY's actions (the least role of each in the comment). */
export function abilitiesOf(role: Role) {
  const atLeast = (least: Role) => RANK[role] >= RANK[least];
  return {
    role,
    /** workspace.edit, resource.update/delete (editor): add, import, PDFs, notes and tags, bulk changes, remove. */
    edit: atLeast('editor'),
    /** workspace.share and readShares (editor): see and create read-only links. */
    share: atLeast('editor'),
    /** workspace.shareEditable (owner): create links through which a signed-in visitor joins as editor. */
    shareEditable: atLeast('owner'),
    /** workspace.shareJoinable and readEditableShares (owner): open a read-only link to joining; see the links one joins through. */
    shareJoinable: atLeast('owner'),
    /** workspace.update and delete (owner): rename, delete. */
    manageWorkspace: atLeast('owner'),
    /** workspace.manageShares (owner): revoke and resume links. */
    manageShares: atLeast('owner'),
    /** workspace.manageMembers (owner): invite, change roles, transfer, remove. */
    manageMembers: atLeast('owner'),
    /** annotation.delete: editors and the owner may remove anyone's (their author always may). */
    removeAnyAnnotation: atLeast('editor'),
  };
}
export type Abilities = ReturnType<typeof abilitiesOf>;

const RoleContext = createContext<Abilities>(abilitiesOf('owner'));

export function WorkspaceRoleProvider({ role, children }: { role: Role; children: ReactNode }) {
  return <RoleContext.Provider value={abilitiesOf(role)}>{children}</RoleContext.Provider>;
}

export function useAbilities(): Abilities {
  return useContext(RoleContext);
}
