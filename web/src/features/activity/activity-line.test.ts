import { describe, expect, it } from 'vitest';
import { activityLine, type ActivityItem } from './activity-line';

const ME = '00000000-0000-4000-8000-000000000001';
const ANA = { id: '00000000-0000-4000-8000-000000000002', name: 'Ana' };
const GRACE = '00000000-0000-4000-8000-000000000003';

const item = (type: ActivityItem['type'], fields: Partial<ActivityItem> = {}): ActivityItem => ({
  id: '1',
  type,
  actor: ANA,
  at: '2026-11-28T01:00:00Z',
  details: {},
  ...fields,
});

describe('activityLine', () => {
  it('names who: the reader as You, another by name, the service for its own work', () => {
    expect(
      activityLine(item('resource.added', { details: { title: 'Attention is all you need' } }), ME),
    ).toBe('Ana added ‘Attention is all you need’');
    expect(
      activityLine(
        item('resource.added', {
          actor: { id: ME, name: 'Me' },
          details: { title: 'Deep residual learning' },
        }),
        ME,
      ),
    ).toBe('You added ‘Deep residual learning’');
    expect(
      activityLine(
        item('pdf.updated', { actor: null, details: { state: 'ready', pageCount: 12 } }),
        ME,
      ),
    ).toBe('A PDF was read and can be searched');
    expect(
      activityLine(
        item('resource.updated', {
          actor: null,
          details: { title: 'A paper', fields: ['record'] },
        }),
        ME,
      ),
    ).toBe('The record of ‘A paper’ was filled in from its PDF');
  });

  it('counts a batch, and says an import', () => {
    expect(
      activityLine(item('resource.added', { details: { count: 12, via: 'import' } }), ME),
    ).toBe('Ana added 12 resources by import');
    expect(
      activityLine(item('resource.removed', { details: { count: 1, resourceIds: ['x'] } }), ME),
    ).toBe('Ana removed 1 resource');
    expect(
      activityLine(item('resource.updated', { details: { count: 3, fields: ['tags'] } }), ME),
    ).toBe('Ana edited 3 resources');
  });

  it('says what happened to members, with their role, and “you” for the reader', () => {
    expect(
      activityLine(item('member.added', { userId: ANA.id, details: { role: 'editor' } }), ME),
    ).toBe('Ana joined as an editor');
    expect(
      activityLine(
        item('member.added', { userId: GRACE, details: { name: 'Grace', role: 'viewer' } }),
        ME,
      ),
    ).toBe('Ana added Grace as a viewer');
    expect(
      activityLine(
        item('member.updated', { userId: ME, details: { name: 'Me', role: 'viewer' } }),
        ME,
      ),
    ).toBe('Ana made you a viewer');
    expect(
      activityLine(
        item('member.updated', { userId: GRACE, details: { name: 'Grace', role: 'owner' } }),
        ME,
      ),
    ).toBe('Ana handed ownership to Grace');
    expect(
      activityLine(item('member.removed', { userId: ANA.id, details: { left: true } }), ME),
    ).toBe('Ana left the workspace');
    expect(
      activityLine(item('member.removed', { userId: GRACE, details: { left: false } }), ME),
    ).toBe('Ana removed a member');
    expect(
      activityLine(
        item('member.removed', { userId: GRACE, details: { left: false, name: 'Grace' } }),
        ME,
      ),
    ).toBe('Ana removed Grace');
  });

  it('names the member whose deleted account left the workspace, not “The service”', () => {
    const line = activityLine(
      item('member.removed', {
        actor: null,
        userId: GRACE,
        details: { left: true, accountDeleted: true, name: 'Grace Hopper' },
      }),
      ME,
    );
    expect(line).toBe('Grace Hopper left the workspace (their account was deleted)');
    // An entry logged before the name was kept still says who it can.
    expect(
      activityLine(
        item('member.removed', {
          actor: null,
          userId: GRACE,
          details: { left: true, accountDeleted: true },
        }),
        ME,
      ),
    ).toBe('A member left the workspace (their account was deleted)');
  });

  it('says share links and the workspace’s own changes', () => {
    expect(
      activityLine(item('share.updated', { details: { change: 'created', readOnly: false } }), ME),
    ).toBe('Ana created an editable share link');
    expect(
      activityLine(item('share.updated', { details: { change: 'created', readOnly: true } }), ME),
    ).toBe('Ana created a read-only share link');
    expect(activityLine(item('share.updated', { details: { change: 'revoked' } }), ME)).toBe(
      'Ana revoked a share link',
    );
    expect(
      activityLine(
        item('workspace.updated', { details: { name: 'Lab list', fields: ['name'] } }),
        ME,
      ),
    ).toBe('Ana renamed the workspace ‘Lab list’');
    expect(
      activityLine(item('workspace.updated', { details: { fields: ['description'] } }), ME),
    ).toBe('Ana changed the workspace’s details');
  });

  it('shortens a long title or name and ignores details of the wrong type', () => {
    const line = activityLine(
      item('resource.added', {
        actor: { id: ANA.id, name: 'A'.repeat(60) },
        details: { title: 'T'.repeat(200) },
      }),
      ME,
    );
    expect(line.length).toBeLessThan(140);
    expect(line).toMatch(/^A{39}… added ‘T{79}…’$/);
    expect(activityLine(item('resource.added', { details: { title: 42, count: '3' } }), ME)).toBe(
      'Ana added a resource',
    );
  });
});
