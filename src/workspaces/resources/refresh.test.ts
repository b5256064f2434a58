/**
 * "Update from source" (GET …/resources/{resourceId}/refresh): a lookup of the resource's DOI, arXiv
 * id or PMID through the app's resolver (a fake one here, which counts what it is asked), the changes
 * it proposes field by field, and applying them with a PATCH at the version the proposal names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedResource, ResourceResolver } from '../../context.js';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import {
  DIALECTS,
  addResource,
  as,
  createWorkspace,
  fakeResolver,
  UNKNOWN_ID,
} from '../test-support/helpers.js';

const DOI = '10.1234/refresh.1';

/** What the source says of the work behind DOI: more than the resource holds, and one ISSN the PATCH would refuse. */
const SOURCE: ResolvedResource = {
  id: `crossref:${DOI}`,
  title: 'The <i>Corrected</i> Title',
  authors: ['Ada Lovelace', 'Charles Babbage'],
  abstract: 'What the source says it is about.',
  url: `https://doi.org/${DOI}`,
  provider: 'crossref',
  publishedDate: '2019-03-14',
  // The DOI as the source spells it: the same DOI, so not proposed.
  doi: DOI.toUpperCase(),
  details: {
    type: 'chapter',
    creators: [
      { role: 'author', family: 'Lovelace', given: 'Ada' },
      { role: 'author', family: 'Babbage', given: 'Charles' },
    ],
    containerTitle: 'Collected Papers',
    volume: '7',
    pages: '12-19',
    // Same as the resource holds: not proposed.
    language: 'en',
    // A wrong check digit: a PATCH would refuse it, so it is not proposed.
    issn: '0378-5956',
  },
};

const ARXIV: ResolvedResource = {
  id: 'arxiv:2101.00001v2',
  title: 'A Preprint, Looked Up',
  authors: ['Grace Hopper'],
  abstract: '',
  url: 'https://arxiv.org/abs/2101.00001v2',
  provider: 'arxiv',
  arxivId: '2101.00001',
};

const PUBMED: ResolvedResource = {
  id: 'pubmed:31452104',
  title: 'A Trial, Looked Up',
  authors: [],
  abstract: '',
  url: 'https://pubmed.ncbi.nlm.nih.gov/31452104/',
  provider: 'pubmed',
  pmid: '31452104',
};

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(
    `GET /api/workspaces/{id}/resources/{resourceId}/refresh (${leg.name})`,
    () => {
      let t: TestApp;
      let owner: TestUser;
      let editor: TestUser;
      let viewer: TestUser;
      let stranger: TestUser;
      /** Every identifier the app asked the resolver for, in order. */
      const asked: string[] = [];
      const resolver: ResourceResolver = async (identifier, signal) => {
        asked.push(identifier);
        if (identifier === '10.9999/down') throw new Error('upstream timed out');
        const known: Record<string, ResolvedResource> = {
          [DOI]: SOURCE,
          'arxiv:2101.00001': ARXIV,
          'pmid:31452104': PUBMED,
        };
        return known[identifier] ?? fakeResolver(identifier, signal);
      };

      beforeAll(async () => {
        t = await buildTestApp({ leg, build: { resolveResource: resolver } });
        [owner, editor, viewer, stranger] = await Promise.all([
          buildUser(t.app),
          buildUser(t.app),
          buildUser(t.app),
          buildUser(t.app),
        ]);
      });
      afterAll(async () => t?.close());

      /** A workspace of the owner's with an editor and a viewer. */
      async function sharedWorkspace(): Promise<string> {
        const { id } = await createWorkspace(t.app, owner);
        for (const [member, role] of [
          [editor, 'editor'],
          [viewer, 'viewer'],
        ] as const) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${id}/members`,
            headers: owner.bearer,
            payload: { email: member.email, role },
          });
          expect(res.statusCode).toBe(201);
        }
        return id;
      }

      const refresh = (workspaceId: string, resourceId: string, headers: Record<string, string>) =>
        t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${workspaceId}/resources/${resourceId}/refresh`,
          headers,
        });
      const patch = (
        workspaceId: string,
        resourceId: string,
        headers: Record<string, string>,
        payload: Record<string, unknown>,
      ) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/workspaces/${workspaceId}/resources/${resourceId}`,
          headers,
          payload,
        });

      /** A resource typed by hand with the DOI: some fields as the source says, some not, some the source lacks. */
      const described = {
        title: 'An old title',
        type: 'book',
        doi: DOI,
        creators: [
          { role: 'author' as const, family: 'Lovelace', given: 'A.' },
          { role: 'translator' as const, family: 'Menabrea', given: 'Luigi' },
        ],
        containerTitle: 'Collected Papers',
        volume: '6',
        publisher: 'Kept Press',
        language: 'en',
        issued: '2019',
      };

      it.each(DIALECTS)(
        'proposes every field the source says differently, none it lacks, as a PATCH saves it; applied at that version, nothing is left (dialect %s)',
        async (dialect) => {
          const ws = await sharedWorkspace();
          const resource = await addResource(t.app, owner, ws, described);
          const before = asked.length;
          const res = await refresh(ws, resource.id, as(editor, dialect));
          expect(res.statusCode).toBe(200);
          expect(asked.slice(before)).toEqual([DOI]);
          expect(res.headers.etag).toBe(`"r${resource.version}"`);
          expect(res.headers['cache-control']).toBe('private, no-store');
          expect(res.json()).toEqual({
            resourceId: resource.id,
            version: resource.version,
            source: { provider: 'crossref', id: `crossref:${DOI}` },
            changes: [
              { field: 'title', current: 'An old title', proposed: 'The Corrected Title' },
              { field: 'url', current: null, proposed: `https://doi.org/${DOI}` },
              { field: 'type', current: 'book', proposed: 'chapter' },
              {
                field: 'creators',
                current: described.creators,
                // The source's authors, and the translator it does not name, kept.
                proposed: [
                  { role: 'author', family: 'Lovelace', given: 'Ada' },
                  { role: 'author', family: 'Babbage', given: 'Charles' },
                  { role: 'translator', family: 'Menabrea', given: 'Luigi' },
                ],
              },
              { field: 'abstract', current: null, proposed: 'What the source says it is about.' },
              { field: 'pages', current: null, proposed: '12-19' },
              { field: 'volume', current: '6', proposed: '7' },
              {
                field: 'issued',
                current: { year: 2019 },
                proposed: { year: 2019, month: 3, day: 14 },
              },
            ],
          });
          // Nothing was written: the resource is as it was.
          const unchanged = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws}`,
            headers: owner.bearer,
          });
          expect(unchanged.json().resources[0]).toMatchObject({
            title: 'An old title',
            version: resource.version,
            publisher: 'Kept Press',
          });

          const changes = res.json().changes as Array<{ field: string; proposed: unknown }>;
          const body = Object.fromEntries(changes.map(({ field, proposed }) => [field, proposed]));
          const applied = await patch(
            ws,
            resource.id,
            { ...editor.bearer, 'if-match': res.headers.etag as string },
            body,
          );
          expect(applied.statusCode).toBe(200);
          expect(applied.json().resource).toMatchObject({
            ...body,
            // What the source did not say is kept.
            publisher: 'Kept Press',
            language: 'en',
            containerTitle: 'Collected Papers',
            doi: DOI,
            authors: ['Ada Lovelace', 'Charles Babbage'],
          });
          expect(applied.json().resource).not.toHaveProperty('issn');
          const again = await refresh(ws, resource.id, editor.bearer);
          expect(again.json()).toMatchObject({
            version: applied.json().resource.version,
            changes: [],
          });
          // A proposal applied after the resource changed is a 412, as any stale change.
          const stale = await patch(
            ws,
            resource.id,
            { ...editor.bearer, 'if-match': res.headers.etag as string },
            { volume: '8' },
          );
          expect(stale.statusCode).toBe(412);
        },
      );

      it('looks up the DOI before an arXiv id, an arXiv id before a PMID, each as the lookup reads it', async () => {
        const ws = await createWorkspace(t.app, owner);
        const both = await addResource(t.app, owner, ws.id, {
          title: 'Both',
          doi: DOI,
          arxivId: '2101.00001',
        });
        const preprint = await addResource(t.app, owner, ws.id, {
          title: 'A preprint',
          arxivId: 'arXiv:2101.00001v2',
          pmid: '31452104',
        });
        const trial = await addResource(t.app, owner, ws.id, {
          title: 'A trial',
          pmid: '31452104',
        });
        const before = asked.length;
        for (const resource of [both, preprint, trial])
          expect((await refresh(ws.id, resource.id, owner.bearer)).statusCode).toBe(200);
        expect(asked.slice(before)).toEqual([DOI, 'arxiv:2101.00001', 'pmid:31452104']);
        const fromArxiv = (await refresh(ws.id, preprint.id, owner.bearer)).json();
        expect(fromArxiv.source).toEqual({ provider: 'arxiv', id: 'arxiv:2101.00001v2' });
        expect(fromArxiv.changes).toContainEqual({
          field: 'creators',
          current: null,
          proposed: [{ role: 'author', family: 'Hopper', given: 'Grace' }],
        });
        // The source names no authors and no type: neither is proposed (nothing is ever cleared).
        const fromPubmed = (await refresh(ws.id, trial.id, owner.bearer)).json();
        expect(fromPubmed.changes.map((change: { field: string }) => change.field)).toEqual([
          'title',
          'url',
        ]);
      });

      it('409 no_identifier for a resource without a DOI, arXiv id or PMID; 404 naming the field no provider knows; 503 when they do not answer', async () => {
        const ws = await createWorkspace(t.app, owner);
        const bare = await addResource(t.app, owner, ws.id, { title: 'Nothing to look up' });
        const unknown = await addResource(t.app, owner, ws.id, {
          title: 'Unknown',
          doi: '10.9999/none',
        });
        const down = await addResource(t.app, owner, ws.id, { title: 'Down', doi: '10.9999/down' });
        const before = asked.length;
        const none = await refresh(ws.id, bare.id, owner.bearer);
        expect(none.statusCode).toBe(409);
        expect(none.json().error).toMatchObject({
          code: 'CONFLICT',
          details: { field: 'doi', reason: 'no_identifier' },
        });
        expect(asked.length).toBe(before);
        const notFound = await refresh(ws.id, unknown.id, owner.bearer);
        expect(notFound.statusCode).toBe(404);
        expect(notFound.json().error).toMatchObject({
          code: 'NOT_FOUND',
          details: { field: 'doi', reason: 'not_found' },
        });
        expect(notFound.json().error.message).toContain('10.9999/none');
        const unavailable = await refresh(ws.id, down.id, owner.bearer);
        expect(unavailable.statusCode).toBe(503);
        expect(unavailable.json().error.code).toBe('SERVICE_UNAVAILABLE');
      });

      it(
        'is for those who may apply it: a viewer 403 and a stranger 404 before any provider ' +
          'is asked; 401 signed out; 400 for an id that is not one',
        async () => {
          const ws = await sharedWorkspace();
          const resource = await addResource(t.app, owner, ws, { title: 'Guarded', doi: DOI });
          const before = asked.length;
          const byViewer = await refresh(ws, resource.id, viewer.bearer);
          expect(byViewer.statusCode).toBe(403);
          expect(byViewer.json().error.message).toContain('needs the editor role');
          expect((await refresh(ws, resource.id, stranger.bearer)).statusCode).toBe(404);
          expect((await refresh(ws, UNKNOWN_ID, owner.bearer)).statusCode).toBe(404);
          const otherWs = await createWorkspace(t.app, owner);
          expect((await refresh(otherWs.id, resource.id, owner.bearer)).statusCode).toBe(404);
          expect((await refresh(ws, resource.id, {})).statusCode).toBe(401);
          const malformed = await refresh(ws, 'not-a-uuid', owner.bearer);
          expect(malformed.statusCode).toBe(400);
          expect(malformed.json().error.details.field).toBe('resourceId');
          expect(asked.length).toBe(before);
        },
      );
    },
  );
}
