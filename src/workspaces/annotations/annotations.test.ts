import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { annotations } from '../../platform/db/schema.js';
import { LIMITS } from '../schemas.js';
import {
  DIALECTS,
  addResource,
  annotate,
  as,
  createWorkspace,
  UNKNOWN_ID,
} from '../test-support/helpers.js';

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`annotations (${leg.name})`, () => {
    let t: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let resourceId: string;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
      const ws = await createWorkspace(t.app, owner);
      resourceId = (await addResource(t.app, owner, ws.id, { title: 'Annotated paper' })).id;
    });
    afterAll(async () => t?.close());

    describe('POST /api/resources/{id}/annotations', () => {
      it.each(DIALECTS)(
        'creates an annotation with highlights: 201 (dialect %s)',
        async (dialect) => {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/resources/${resourceId}/annotations`,
            headers: as(owner, dialect),
            payload: {
              body: 'Key <b>claim</b> here',
              highlights: {
                ranges: [{ start: 10, end: 42, text: 'the <i>quoted</i> part', color: '#ffeb3b' }],
              },
            },
          });
          expect(res.statusCode).toBe(201);
          const annotation = res.json();
          expect(annotation).toMatchObject({
            resourceId,
            userId: owner.id,
            body: 'Key claim here',
            highlights: {
              ranges: [{ start: 10, end: 42, text: 'the quoted part', color: '#ffeb3b' }],
            },
          });
          expect(Object.keys(annotation).sort()).toEqual([
            'authorName',
            'body',
            'color',
            'createdAt',
            'highlights',
            'id',
            'resourceId',
            'updatedAt',
            'userId',
            'version',
          ]);
        },
      );

      it('keeps a colour of the palette (yellow when none is sent), refuses any other naming color', async () => {
        const red = await annotate(t.app, owner, resourceId, { body: 'red one', color: 'red' });
        const plain = await annotate(t.app, owner, resourceId, { body: 'no colour' });
        expect(red.color).toBe('red');
        expect(plain.color).toBe('yellow');
        const rows = await t.app.ctx.db.select().from(annotations);
        expect(rows.find((row) => row.id === red.id)?.color).toBe('red');
        for (const color of ['#ff0000', 'Red', 'teal', '', 3]) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/resources/${resourceId}/annotations`,
            headers: owner.bearer,
            payload: { body: 'bad colour', color },
          });
          expect(res.statusCode, String(color)).toBe(400);
          expect(res.json().error.details.field).toBe('color');
        }
      });

      it('the database refuses a colour outside the palette, whatever writes it', async () => {
        await expect(
          t.app.ctx.db
            .insert(annotations)
            .values({ resourceId, userId: owner.id, body: 'x', color: 'teal' }),
        ).rejects.toThrow();
      });

      it('accepts any highlights object and defaults to {}', async () => {
        const free = await annotate(t.app, owner, resourceId, {
          body: 'free form',
          highlights: { page: 3, colour: 'green' },
        });
        const none = await annotate(t.app, owner, resourceId, { body: 'plain' });
        const rows = await t.app.ctx.db.select().from(annotations);
        expect(rows.find((row) => row.id === free.id)?.highlights).toEqual({
          page: 3,
          colour: 'green',
        });
        expect(rows.find((row) => row.id === none.id)?.highlights).toEqual({});
      });

      it.each([
        [{}, 'body'],
        [{ body: '' }, 'body'],
        [{ body: '<br>' }, 'body'],
        [{ body: 'b'.repeat(LIMITS.annotationBody + 1) }, 'body'],
        [{ body: 'ok', highlights: 'yellow' }, 'highlights'],
        [{ body: 'ok', highlights: { ranges: [{ start: 5, end: 1 }] } }, 'highlights.ranges.0.end'],
        [
          { body: 'ok', highlights: { ranges: [{ start: -1, end: 1 }] } },
          'highlights.ranges.0.start',
        ],
        [{ body: 'ok', highlights: { ranges: 'all' } }, 'highlights.ranges'],
        [{ body: 'ok', highlights: { blob: 'x'.repeat(LIMITS.highlightsBytes) } }, 'highlights'],
      ])('rejects %# naming the field %s', async (payload, field) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resourceId}/annotations`,
          headers: owner.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it(`holds at most ${LIMITS.annotationsPerResource} annotations on one resource`, async () => {
        const ws = await createWorkspace(t.app, owner);
        const full = await addResource(t.app, owner, ws.id, { title: 'Busy' });
        await t.app.ctx.db.insert(annotations).values(
          Array.from({ length: LIMITS.annotationsPerResource }, (_, i) => ({
            resourceId: full.id,
            userId: owner.id,
            body: `n${i}`,
          })),
        );
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${full.id}/annotations`,
          headers: owner.bearer,
          payload: { body: 'more' },
        });
        expect(res.statusCode).toBe(409);
        expect(res.json().error.details.reason).toBe('too_many_annotations');
      });

      it("answers 404 on another user's resource or an unknown one, 401 without a session", async () => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${resourceId}/annotations`,
          headers: stranger.bearer,
          payload: { body: 'x' },
        });
        expect(res.statusCode).toBe(404);
        const unknown = await t.app.inject({
          method: 'POST',
          url: `/api/resources/${UNKNOWN_ID}/annotations`,
          headers: owner.bearer,
          payload: { body: 'x' },
        });
        expect(unknown.statusCode).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'POST',
              url: `/api/resources/${resourceId}/annotations`,
              payload: { body: 'x' },
            })
          ).statusCode,
        ).toBe(401);
      });
    });

    describe('highlights.pdf: where an annotation sits in the PDF', () => {
      const rect = { x: 0.1, y: 0.2, width: 0.5, height: 0.02 };
      const post = (pdf: unknown) =>
        t.app.inject({
          method: 'POST',
          url: `/api/resources/${resourceId}/annotations`,
          headers: owner.bearer,
          payload: { body: 'On the PDF', highlights: { pdf } },
        });

      it('keeps page, quote and boxes as sent, and reads them back', async () => {
        const pdf = {
          page: 2,
          quote: 'the <b>quoted</b> words',
          rects: [rect, { x: 0, y: 0.9, width: 1, height: 0.1 }],
        };
        const created = await post(pdf);
        expect(created.statusCode).toBe(201);
        expect(created.json().highlights).toEqual({ pdf: { ...pdf, quote: 'the quoted words' } });
        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resourceId}/annotations?limit=100`,
          headers: owner.bearer,
        });
        const found = listed
          .json()
          .find((annotation: { id: string }) => annotation.id === created.json().id);
        expect(found.highlights.pdf).toEqual({
          page: 2,
          quote: 'the quoted words',
          rects: [rect, { x: 0, y: 0.9, width: 1, height: 0.1 }],
        });
      });

      it('keeps a selection across a page break as one anchor: boxes on the next page say their page', async () => {
        const pdf = {
          page: 4,
          quote: 'ends one page and starts the next',
          rects: [
            { x: 0.1, y: 0.92, width: 0.6, height: 0.02 },
            { ...rect, page: 4 },
            { x: 0.1, y: 0.06, width: 0.3, height: 0.02, page: 5 },
          ],
        };
        const created = await post(pdf);
        expect(created.statusCode).toBe(201);
        expect(created.json().highlights.pdf).toEqual(pdf);
        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resourceId}/annotations?limit=100`,
          headers: owner.bearer,
        });
        const found = listed
          .json()
          .find((annotation: { id: string }) => annotation.id === created.json().id);
        expect(found.highlights.pdf).toEqual(pdf);
      });

      it.each([
        [{ page: 3, quote: 'q', rects: [{ ...rect, page: 2 }] }, 'highlights.pdf.rects'],
        [{ page: 3, quote: 'q', rects: [{ ...rect, page: 0 }] }, 'highlights.pdf.rects.0.page'],
        [{ page: 3, quote: 'q', rects: [{ ...rect, page: 3.5 }] }, 'highlights.pdf.rects.0.page'],
        [{ quote: 'q', rects: [rect] }, 'highlights.pdf.page'],
        [{ page: 0, quote: 'q', rects: [rect] }, 'highlights.pdf.page'],
        [{ page: 1.5, quote: 'q', rects: [rect] }, 'highlights.pdf.page'],
        [{ page: LIMITS.pdfPage + 1, quote: 'q', rects: [rect] }, 'highlights.pdf.page'],
        [{ page: 1, quote: '<i></i>', rects: [rect] }, 'highlights.pdf.quote'],
        [
          { page: 1, quote: 'q'.repeat(LIMITS.highlightText + 1), rects: [rect] },
          'highlights.pdf.quote',
        ],
        [{ page: 1, quote: 'q', rects: [] }, 'highlights.pdf.rects'],
        [
          { page: 1, quote: 'q', rects: Array.from({ length: LIMITS.pdfRects + 1 }, () => rect) },
          'highlights.pdf.rects',
        ],
        [{ page: 1, quote: 'q', rects: [{ ...rect, x: -0.1 }] }, 'highlights.pdf.rects.0.x'],
        [
          { page: 1, quote: 'q', rects: [{ ...rect, height: 1.5 }] },
          'highlights.pdf.rects.0.height',
        ],
        [
          { page: 1, quote: 'q', rects: [{ ...rect, x: 0.8, width: 0.5 }] },
          'highlights.pdf.rects.0.width',
        ],
        [
          { page: 1, quote: 'q', rects: [{ x: 0.1, y: 0.1, width: 0.1 }] },
          'highlights.pdf.rects.0.height',
        ],
        [{ page: 1, quote: 'q', rects: [{ ...rect, z: 1 }] }, 'highlights.pdf.rects.0.z'],
        [{ page: 1, quote: 'q', rects: [rect], colour: 'red' }, 'highlights.pdf.colour'],
        ['page 3', 'highlights.pdf'],
      ])('refuses bad anchor %# with a 400 naming the field', async (pdf, field) => {
        const res = await post(pdf);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } });
      });

      it('leaves out a pdf member kept before anchors were checked', async () => {
        const [row] = await t.app.ctx.db
          .insert(annotations)
          .values({
            resourceId,
            userId: owner.id,
            body: 'old',
            highlights: { pdf: 'page 3', colour: 'green' },
          })
          .returning();
        const listed = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resourceId}/annotations?limit=100`,
          headers: owner.bearer,
        });
        expect(listed.statusCode).toBe(200);
        expect(
          listed.json().find((annotation: { id: string }) => annotation.id === row!.id).highlights,
        ).toEqual({ colour: 'green' });
      });
    });

    describe('GET /api/resources/{id}/annotations', () => {
      it.each(DIALECTS)('lists oldest first as an array (dialect %s)', async (dialect) => {
        const ws = await createWorkspace(t.app, owner);
        const resource = await addResource(t.app, owner, ws.id, { title: 'Listed' });
        for (const body of ['one', 'two', 'three'])
          await annotate(t.app, owner, resource.id, { body });
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resource.id}/annotations`,
          headers: as(owner, dialect),
        });
        expect(res.statusCode).toBe(200);
        expect(res.json().map((a: { body: string }) => a.body)).toEqual(['one', 'two', 'three']);
        expect(res.headers['x-total-count']).toBe('3');
        const page = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resource.id}/annotations?limit=1&offset=2`,
          headers: owner.bearer,
        });
        expect(page.json().map((a: { body: string }) => a.body)).toEqual(['three']);
      });

      it('rejects a bad limit, answers 404 to another user and 401 without a session', async () => {
        const bad = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resourceId}/annotations?limit=0`,
          headers: owner.bearer,
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().error.details.field).toBe('limit');
        expect(
          (
            await t.app.inject({
              method: 'GET',
              url: `/api/resources/${resourceId}/annotations`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'GET', url: `/api/resources/${resourceId}/annotations` }))
            .statusCode,
        ).toBe(401);
      });
    });

    describe('PATCH /api/annotations/{id}', () => {
      it.each(DIALECTS)(
        "changes the body and/or highlights of one's own annotation (dialect %s)",
        async (dialect) => {
          const created = await annotate(t.app, owner, resourceId, {
            body: 'draft',
            highlights: { ranges: [{ start: 0, end: 3 }] },
          });
          const res = await t.app.inject({
            method: 'PATCH',
            url: `/api/annotations/${created.id}`,
            headers: as(owner, dialect),
            payload: { body: 'final <u>text</u>' },
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toMatchObject({
            id: created.id,
            body: 'final text',
            highlights: { ranges: [{ start: 0, end: 3 }] },
          });
          expect(new Date(res.json().updatedAt).getTime()).toBeGreaterThan(
            new Date(res.json().createdAt).getTime(),
          );
          const highlights = await t.app.inject({
            method: 'PATCH',
            url: `/api/annotations/${created.id}`,
            headers: owner.bearer,
            payload: { highlights: {} },
          });
          expect(highlights.json()).toMatchObject({ body: 'final text', highlights: {} });
          const recoloured = await t.app.inject({
            method: 'PATCH',
            url: `/api/annotations/${created.id}`,
            headers: owner.bearer,
            payload: { color: 'green' },
          });
          expect(recoloured.statusCode).toBe(200);
          expect(recoloured.json()).toMatchObject({ body: 'final text', color: 'green' });
        },
      );

      it.each([
        [{}, 'body'],
        [{ body: '' }, 'body'],
        [{ body: 'b'.repeat(LIMITS.annotationBody + 1) }, 'body'],
        [{ highlights: [] }, 'highlights'],
        [{ color: 'teal' }, 'color'],
      ])('rejects %# naming the field %s', async (payload, field) => {
        const created = await annotate(t.app, owner, resourceId, { body: 'to patch' });
        const res = await t.app.inject({
          method: 'PATCH',
          url: `/api/annotations/${created.id}`,
          headers: owner.bearer,
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.field).toBe(field);
      });

      it("answers 404 for another user's annotation, 401 without a session", async () => {
        const created = await annotate(t.app, owner, resourceId, { body: 'mine' });
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/annotations/${created.id}`,
              headers: stranger.bearer,
              payload: { body: 'hijack' },
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/annotations/${UNKNOWN_ID}`,
              headers: owner.bearer,
              payload: { body: 'x' },
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await t.app.inject({
              method: 'PATCH',
              url: `/api/annotations/${created.id}`,
              payload: { body: 'x' },
            })
          ).statusCode,
        ).toBe(401);
      });
    });

    describe('DELETE /api/annotations/{id}', () => {
      it.each(DIALECTS)(
        "deletes one's own annotation: 200 { success, id } (dialect %s)",
        async (dialect) => {
          const created = await annotate(t.app, owner, resourceId, { body: 'temporary' });
          const res = await t.app.inject({
            method: 'DELETE',
            url: `/api/annotations/${created.id}`,
            headers: as(owner, dialect),
          });
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ success: true, id: created.id });
          expect(
            (
              await t.app.inject({
                method: 'DELETE',
                url: `/api/annotations/${created.id}`,
                headers: owner.bearer,
              })
            ).statusCode,
          ).toBe(404);
        },
      );

      it("answers 404 for another user's annotation (which survives), 401 without a session", async () => {
        const created = await annotate(t.app, owner, resourceId, { body: 'keep' });
        expect(
          (
            await t.app.inject({
              method: 'DELETE',
              url: `/api/annotations/${created.id}`,
              headers: stranger.bearer,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (await t.app.inject({ method: 'DELETE', url: `/api/annotations/${created.id}` }))
            .statusCode,
        ).toBe(401);
        const list = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resourceId}/annotations?limit=100`,
          headers: owner.bearer,
        });
        expect(list.json().some((a: { id: string }) => a.id === created.id)).toBe(true);
      });
    });
  });
}
