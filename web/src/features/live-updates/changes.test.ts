/** Which cached reads a workspace's change makes stale, what it says, and when the page must be left. */
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queries } from '../../api/client';
import {
  announcementFor,
  CHANGE_TYPES,
  eventsUrl,
  everyKeyOf,
  keysTouchedBy,
  leaveMessage,
  parseChange,
  type WorkspaceChange,
} from './changes';

const WS = '11111111-1111-4111-8111-111111111111';
const OTHER_WS = '22222222-2222-4222-8222-222222222222';
const ME = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ANA = { id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', name: 'Ana' };
const RESOURCE = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';
const OTHER_RESOURCE = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';

const change = (
  type: WorkspaceChange['type'],
  extra: Partial<WorkspaceChange> = {},
): WorkspaceChange => ({
  id: '42',
  workspaceId: WS,
  type,
  actor: ANA,
  at: '2026-11-27T21:00:00.000Z',
  ...extra,
});

/**
 * The reads the app caches, with the exact keys its hooks use (their sorts, filters and limits), for
 * this workspace and another: named, so that a test says which were marked stale.
 */
function cachedReads(): Record<string, QueryKey> {
  const reads: Record<string, QueryKey> = {};
  for (const [tag, id] of [
    ['', WS],
    ['other ', OTHER_WS],
  ] as const) {
    const path = { id };
    reads[`${tag}workspace`] = queries.queryOptions('get', '/api/workspaces/{id}', {
      params: { path, query: { resourceLimit: 0 } },
    }).queryKey;
    reads[`${tag}resources`] = queries.queryOptions('get', '/api/workspaces/{id}/resources', {
      params: { path, query: { sort: 'title', tag: 'ml', limit: 25 } },
    }).queryKey;
    reads[`${tag}members`] = queries.queryOptions('get', '/api/workspaces/{id}/members', {
      params: { path, query: { limit: 100 } },
    }).queryKey;
    reads[`${tag}invitations`] = queries.queryOptions('get', '/api/workspaces/{id}/invitations', {
      params: { path, query: { limit: 100 } },
    }).queryKey;
    reads[`${tag}shares`] = queries.queryOptions('get', '/api/workspaces/{id}/share', {
      params: { path },
    }).queryKey;
    reads[`${tag}activity`] = queries.queryOptions('get', '/api/workspaces/{id}/activity', {
      params: { path, query: { limit: 50 } },
    }).queryKey;
    reads[`${tag}suggestions`] = queries.queryOptions('get', '/api/workspaces/{id}/suggestions', {
      params: { path, query: { limit: 6 } },
    }).queryKey;
  }
  reads.workspaces = queries.queryOptions('get', '/api/workspaces', {
    params: { query: { limit: 100 } },
  }).queryKey;
  reads.annotations = queries.queryOptions('get', '/api/resources/{id}/annotations', {
    params: { path: { id: RESOURCE }, query: { limit: 100 } },
  }).queryKey;
  reads['other annotations'] = queries.queryOptions('get', '/api/resources/{id}/annotations', {
    params: { path: { id: OTHER_RESOURCE }, query: { limit: 100 } },
  }).queryKey;
  reads.session = ['session'];
  return reads;
}

/** The names of the cached reads left stale after marking `keys` (in a real QueryClient, by its own prefix matching). */
async function staleAfter(keys: QueryKey[]): Promise<string[]> {
  const client = new QueryClient();
  const reads = cachedReads();
  for (const key of Object.values(reads)) client.setQueryData(key, { cached: true });
  await Promise.all(
    keys.map((queryKey) => client.invalidateQueries({ queryKey, refetchType: 'none' })),
  );
  return Object.entries(reads)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe('keysTouchedBy', () => {
  const stale = (type: WorkspaceChange['type'], extra: Partial<WorkspaceChange> = {}) =>
    staleAfter(keysTouchedBy(change(type, extra), ME));

  it('a resource added or removed: the library list (every sort and filter), the counts of the workspace and of the list, the activity', async () => {
    for (const type of ['resource.added', 'resource.removed'] as const) {
      expect(await stale(type, { resourceId: RESOURCE }), type).toEqual([
        'activity',
        'resources',
        'workspace',
        'workspaces',
      ]);
    }
  });

  it('a resource edited or its PDF changed: its list and the activity only', async () => {
    expect(await stale('resource.updated', { resourceId: RESOURCE })).toEqual([
      'activity',
      'resources',
    ]);
    expect(await stale('pdf.updated', { resourceId: RESOURCE, actor: null })).toEqual([
      'activity',
      'resources',
    ]);
  });

  it('an annotation: that resource’s annotations (not another’s), the list that shows them, the activity', async () => {
    for (const type of ['annotation.added', 'annotation.updated', 'annotation.removed'] as const) {
      expect(await stale(type, { resourceId: RESOURCE, annotationId: 'e1' }), type).toEqual([
        'activity',
        'annotations',
        'resources',
      ]);
    }
  });

  it('the workspace renamed: it and the list of workspaces', async () => {
    expect(await stale('workspace.updated')).toEqual(['activity', 'workspace', 'workspaces']);
  });

  it('members: the members and the invitations; the workspace and the list too when the change is the user’s own role', async () => {
    expect(await stale('member.added', { userId: ANA.id })).toEqual([
      'activity',
      'invitations',
      'members',
    ]);
    expect(await stale('member.removed', { userId: ANA.id })).toEqual([
      'activity',
      'invitations',
      'members',
    ]);
    expect(await stale('member.updated', { userId: ME })).toEqual([
      'activity',
      'invitations',
      'members',
      'workspace',
      'workspaces',
    ]);
  });

  it('share links: the links and the list of workspaces (which counts them)', async () => {
    expect(await stale('share.updated')).toEqual(['activity', 'shares', 'workspaces']);
  });

  it('what leaves the page marks only the list of workspaces: the workspace read again would be a 404', async () => {
    expect(await stale('workspace.deleted')).toEqual(['workspaces']);
    expect(await stale('member.removed', { userId: ME })).toEqual(['workspaces']);
  });

  it('no change touches another workspace, the session, or the suggestions', async () => {
    for (const type of CHANGE_TYPES) {
      const names = await stale(type, { resourceId: RESOURCE, userId: ME });
      expect(
        names.filter(
          (name) =>
            (name.startsWith('other ') && name !== 'other annotations') ||
            name === 'session' ||
            name === 'suggestions',
        ),
        type,
      ).toEqual([]);
      expect(names, type).not.toContain('other annotations');
    }
  });
});

describe('everyKeyOf (reset)', () => {
  it('marks everything of the workspace, every resource’s annotations, and nothing of another workspace', async () => {
    expect(await staleAfter(everyKeyOf(WS))).toEqual([
      'activity',
      'annotations',
      'invitations',
      'members',
      'other annotations',
      'resources',
      'shares',
      'workspace',
      'workspaces',
    ]);
  });
});

describe('parseChange', () => {
  it('reads the stream’s data, with or without the optional ids', () => {
    const data = {
      id: '7',
      workspaceId: WS,
      type: 'resource.added',
      actor: ANA,
      resourceId: RESOURCE,
      at: '2026-11-27T21:00:00.000Z',
    };
    expect(parseChange(data)).toEqual(data);
    expect(parseChange({ ...data, actor: null, resourceId: undefined })).toMatchObject({
      actor: null,
      type: 'resource.added',
    });
  });

  it('ignores what is not a change: an unknown type, a missing field, an oversized id, not an object', () => {
    const data = { id: '7', workspaceId: WS, type: 'resource.added', actor: ANA, at: 'x' };
    expect(parseChange({ ...data, type: 'resource.exploded' })).toBeNull();
    expect(parseChange({ ...data, workspaceId: undefined })).toBeNull();
    expect(parseChange({ ...data, id: '9'.repeat(65) })).toBeNull();
    expect(parseChange(null)).toBeNull();
    expect(parseChange('change')).toBeNull();
  });
});

describe('eventsUrl', () => {
  it('resumes after the last change seen, and starts afresh without one', () => {
    expect(eventsUrl(WS, null)).toBe(`/api/workspaces/${WS}/events`);
    expect(eventsUrl(WS, '1234')).toBe(`/api/workspaces/${WS}/events?lastEventId=1234`);
    expect(eventsUrl('a/b', null)).toBe('/api/workspaces/a%2Fb/events');
  });
});

describe('announcementFor', () => {
  const say = (
    type: WorkspaceChange['type'],
    extra: Partial<WorkspaceChange> = {},
    context: Partial<Parameters<typeof announcementFor>[1]> = {},
  ) => announcementFor(change(type, extra), { me: ME, title: null, myRole: null, ...context });

  it('says another member’s change in a few words, with the resource’s title when the page has it', () => {
    expect(
      say('resource.added', { resourceId: RESOURCE }, { title: 'Attention is all you need' }),
    ).toBe('Ana added ‘Attention is all you need’');
    expect(say('resource.added', { resourceId: RESOURCE })).toBe('Ana added a resource');
    // No resourceId: several at once (an import, a move, a bulk change).
    expect(say('resource.added')).toBe('Ana added resources');
    expect(say('resource.updated')).toBe('Ana edited resources');
    expect(say('resource.removed')).toBe('Ana removed resources');
    expect(
      say('resource.removed', { resourceId: RESOURCE }, { title: 'Deep residual learning' }),
    ).toBe('Ana removed ‘Deep residual learning’');
    expect(
      say('annotation.added', { resourceId: RESOURCE }, { title: 'Deep residual learning' }),
    ).toBe('Ana annotated ‘Deep residual learning’');
    expect(say('member.added', { userId: ANA.id })).toBe('Ana joined the workspace');
    expect(say('member.removed', { userId: ANA.id })).toBe('Ana left the workspace');
    expect(say('member.updated', { userId: ME }, { myRole: 'viewer' })).toBe(
      'Ana made you a viewer',
    );
    expect(say('share.updated')).toBe('Ana changed the share links');
  });

  it('keeps it short: a long title or name is cut, and spaces are collapsed', () => {
    const text = say(
      'resource.updated',
      { actor: { id: ANA.id, name: `Ana ${'María '.repeat(20)}` } },
      { title: `A ${'very '.repeat(40)}long title` },
    );
    expect(text!.length).toBeLessThan(140);
    expect(text).toMatch(/^Ana María María .*… edited ‘A very very .*…’$/);
  });

  it('says nothing of the user’s own changes, the service’s own work, or what leaves the page', () => {
    expect(say('resource.added', { actor: { id: ME, name: 'Me' } }, { title: 'Mine' })).toBeNull();
    expect(
      say('pdf.updated', { actor: null, resourceId: RESOURCE }, { title: 'Extracted' }),
    ).toBeNull();
    expect(say('workspace.deleted')).toBeNull();
    expect(say('member.removed', { userId: ME })).toBeNull();
  });
});

describe('leaveMessage', () => {
  it('leaves when the workspace is deleted or the user removed, saying who did it; says nothing when the user did it', () => {
    expect(leaveMessage(change('workspace.deleted'), ME, 'Lab reading list')).toBe(
      'Ana deleted Lab reading list.',
    );
    expect(leaveMessage(change('member.removed', { userId: ME }), ME, 'Lab reading list')).toBe(
      'Ana removed you from Lab reading list.',
    );
    expect(
      leaveMessage(
        change('member.removed', { userId: ME, actor: { id: ME, name: 'Me' } }),
        ME,
        'Lab reading list',
      ),
    ).toBe('');
    expect(
      leaveMessage(
        change('workspace.deleted', { actor: { id: ME, name: 'Me' } }),
        ME,
        'Lab reading list',
      ),
    ).toBe('');
  });

  it('stays for everything else, another member removed included', () => {
    expect(leaveMessage(change('member.removed', { userId: ANA.id }), ME, 'Lab')).toBeNull();
    expect(leaveMessage(change('resource.removed'), ME, 'Lab')).toBeNull();
  });
});
