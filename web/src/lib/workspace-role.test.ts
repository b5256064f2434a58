/**
 * The app offers exactly what the service allows: each ability of each role is checked against the
 * service's own policy table (src/workspaces/policy.ts), so a change to the table that the app does not
 * follow fails here.
 */
import { describe, expect, it } from 'vitest';
import { allows, POLICY, ROLES, type Rule } from '../../../src/workspaces/policy';
import { abilitiesOf, type Abilities } from './workspace-role';

/** Which rules of the table each ability of the app stands for (all of them must allow). */
const RULES: Record<Exclude<keyof Abilities, 'role'>, Rule[]> = {
  edit: [POLICY.workspace.edit, POLICY.resource.update, POLICY.resource.delete],
  share: [POLICY.workspace.share, POLICY.workspace.readShares],
  shareEditable: [POLICY.workspace.shareEditable],
  shareJoinable: [POLICY.workspace.shareJoinable, POLICY.workspace.readEditableShares],
  manageWorkspace: [POLICY.workspace.update, POLICY.workspace.delete],
  manageShares: [POLICY.workspace.manageShares],
  manageMembers: [POLICY.workspace.manageMembers],
  // Someone else's annotation: not its author.
  removeAnyAnnotation: [POLICY.annotation.delete],
};

describe('abilitiesOf', () => {
  it.each(ROLES)('offers a %s what the policy table allows, no more, no less', (role) => {
    const abilities = abilitiesOf(role);
    for (const [ability, rules] of Object.entries(RULES)) {
      expect(abilities[ability as keyof typeof RULES], ability).toBe(
        rules.every((rule) => allows(rule, role, false)),
      );
    }
  });
});
