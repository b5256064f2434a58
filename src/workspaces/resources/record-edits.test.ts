/**
 * A resource's record edited field by field (issue 35, "Edit every field"): the change logged with
 * the record fields it names and heard live by another member; every field read back through each
 * export format by a real parser (BibTeX: @retorquere/bibtex-parser; RIS: the service's own reader,
 * Zotero's mapping; CSL-JSON: JSON.parse); a resource made by hand with a type and no URL, cited.
 * Expected values are written from what was sent, never from what came out.
 */
import type { AddressInfo } from 'node:net';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, embeddedLeg, type TestApp } from '../../../test/support/app.js';
import { buildUser, type TestUser } from '../../../test/support/factories.js';
import { openSse } from '../../../test/support/sse-client.js';
import { readCitations } from '../import/formats.js';
import { addResource, createWorkspace } from '../test-support/helpers.js';

/** Every kind of name: particles both ways, a suffix, an organisation, an editor and a translator. */
const CREATORS = [
  { role: 'author', family: 'Beethoven', given: 'Ludwig', droppingParticle: 'van' },
  { role: 'author', family: 'Gogh', given: 'Vincent', nonDroppingParticle: 'van' },
  { role: 'author', family: 'King', given: 'Martin Luther', suffix: 'Jr.' },
  { role: 'author', literal: 'World Health Organization' },
  { role: 'editor', family: 'Hopper', given: 'Grace' },
  { role: 'translator', family: 'Menabrea', given: 'Luigi' },
] as const;
type SentCreator = (typeof CREATORS)[number];

const TITLE = 'A Record With Every Field';
const URL_SENT = 'https://example.org/full-record';
/** The record a PATCH sends: every field the issue names. */
const RECORD = {
  creators: CREATORS,
  issued: { year: 2001, month: 5, day: 17 },
  containerTitle: 'Collected Essays on Music & Light',
  volume: '3',
  issue: '2',
  pages: '12-19',
  publisher: 'Oxford University Press',
  publisherPlace: 'Oxford',
  edition: '2',
  isbn: '978-0-306-40615-7',
  issn: '0028-0836',
  doi: '10.1234/full.record-1',
  pmid: '12345678',
  language: 'de',
  genre: 'Essay',
  number: '42',
  collectionTitle: 'Studies in Music, 100% {braced}',
  accessed: { year: 2024, month: 1, day: 9 },
  abstract: 'What it is about: $x_1$ & more -- with a ~tilde and a #hash.',
};

const ofRole = (role: SentCreator['role']) =>
  CREATORS.filter((creator) => creator.role === role) as readonly SentCreator[];
/** A date's parts, as CSL's `date-parts` hold them. */
const parts = (date: { year: number; month: number; day: number }) => [
  [date.year, date.month, date.day],
];

for (const leg of embeddedLeg()) {
  describe.skipIf(leg.skipReason)(`a record edited field by field (${leg.name})`, () => {
    let t: TestApp;
    let base: string;
    let owner: TestUser;
    let editor: TestUser;
    beforeAll(async () => {
      t = await buildTestApp({ leg });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      [owner, editor] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => t?.close());

    const patch = (workspaceId: string, resourceId: string, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/workspaces/${workspaceId}/resources/${resourceId}`,
        headers: owner.bearer,
        payload,
      });
    const exported = async (workspaceId: string, format: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/export?format=${format}`,
        headers: owner.bearer,
      });
      expect(res.statusCode).toBe(200);
      return res.body;
    };

    it('a change of record fields is logged naming them, and another member hears it live', async () => {
      const { id: ws } = await createWorkspace(t.app, owner);
      const member = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/members`,
        headers: owner.bearer,
        payload: { email: editor.email, role: 'editor' },
      });
      expect(member.statusCode).toBe(201);
      const resource = await addResource(t.app, owner, ws, { title: 'Heard when edited' });
      const sse = await openSse(`${base}/api/workspaces/${ws}/events`, editor.bearer);
      try {
        expect(sse.status).toBe(200);
        const res = await patch(ws, resource.id, {
          containerTitle: 'Nature',
          creators: [{ role: 'author', family: 'Franklin', given: 'Rosalind' }],
          issued: '1953-04-25',
        });
        expect(res.statusCode).toBe(200);
        const [event] = await sse.waitFor(1, (event) => event.event === 'change');
        expect(JSON.parse(event!.data)).toMatchObject({
          workspaceId: ws,
          type: 'resource.updated',
          actor: { id: owner.id },
          resourceId: resource.id,
        });
      } finally {
        sse.close();
      }
      const activity = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${ws}/activity?limit=1`,
        headers: editor.bearer,
      });
      const [latest] = activity.json().activity;
      expect(latest).toMatchObject({
        type: 'resource.updated',
        resourceId: resource.id,
        details: { title: 'Heard when edited' },
      });
      expect([...latest.details.fields].sort()).toEqual(['containerTitle', 'creators', 'issued']);
    });

    it('every field edited is read back as sent through BibTeX, RIS and CSL-JSON, each by a real parser', async () => {
      const { id: ws } = await createWorkspace(t.app, owner);
      const resource = await addResource(t.app, owner, ws, { title: 'Placeholder' });
      const res = await patch(ws, resource.id, {
        title: TITLE,
        url: URL_SENT,
        type: 'chapter',
        ...RECORD,
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().resource).toMatchObject({ ...RECORD, title: TITLE, type: 'chapter' });
      // A report, to read back a work's own number (a chapter's `number` in BibTeX is its issue).
      const report = await addResource(t.app, owner, ws, { title: 'A Report' });
      expect(
        (await patch(ws, report.id, { type: 'report', number: 'TR-7', publisher: 'MIT' }))
          .statusCode,
      ).toBe(200);

      // ---- CSL-JSON: every variable, names with both particles kept apart ----
      const items = JSON.parse(await exported(ws, 'csljson')) as Array<Record<string, unknown>>;
      const item = items.find((entry) => entry.title === TITLE)!;
      const cslName = (creator: SentCreator) =>
        'literal' in creator
          ? { literal: creator.literal }
          : {
              family: creator.family,
              given: creator.given,
              ...('droppingParticle' in creator
                ? { 'dropping-particle': creator.droppingParticle }
                : {}),
              ...('nonDroppingParticle' in creator
                ? { 'non-dropping-particle': creator.nonDroppingParticle }
                : {}),
              ...('suffix' in creator ? { suffix: creator.suffix } : {}),
            };
      expect(item).toMatchObject({
        type: 'chapter',
        title: TITLE,
        URL: URL_SENT,
        author: ofRole('author').map(cslName),
        editor: ofRole('editor').map(cslName),
        translator: ofRole('translator').map(cslName),
        issued: { 'date-parts': parts(RECORD.issued) },
        accessed: { 'date-parts': parts(RECORD.accessed) },
        'container-title': RECORD.containerTitle,
        'collection-title': RECORD.collectionTitle,
        volume: RECORD.volume,
        issue: RECORD.issue,
        page: RECORD.pages,
        publisher: RECORD.publisher,
        'publisher-place': RECORD.publisherPlace,
        edition: RECORD.edition,
        ISBN: RECORD.isbn,
        ISSN: RECORD.issn,
        DOI: RECORD.doi,
        PMID: RECORD.pmid,
        language: RECORD.language,
        genre: RECORD.genre,
        number: RECORD.number,
        abstract: RECORD.abstract,
      });

      // ---- BibTeX: @retorquere/bibtex-parser, as Better BibTeX reads it ----
      const bibtex = await exported(ws, 'bibtex');
      const library = parseBibtex(bibtex, { english: false });
      expect(library.errors).toEqual([]);
      expect(library.entries).toHaveLength(2);
      const entry = library.entries.find((found) => found.fields.title === TITLE)!;
      expect(entry.type).toBe('incollection');
      // BibTeX has one "von" part: both particles are it; an organisation is one braced name.
      // A dropping particle is written after the given names (`Beethoven, Ludwig van`), as Zotero
      // and Better BibTeX write it: BibTeX reads it back as part of the first name.
      const bibtexName = (creator: SentCreator) =>
        'literal' in creator
          ? { name: creator.literal }
          : {
              lastName: creator.family,
              firstName:
                'droppingParticle' in creator
                  ? `${creator.given} ${creator.droppingParticle}`
                  : creator.given,
              ...('nonDroppingParticle' in creator ? { prefix: creator.nonDroppingParticle } : {}),
              ...('suffix' in creator ? { suffix: creator.suffix } : {}),
            };
      const { fields } = entry;
      expect(fields.author).toEqual(ofRole('author').map(bibtexName));
      expect(fields.editor).toEqual(ofRole('editor').map(bibtexName));
      expect(fields.translator).toEqual(ofRole('translator').map(bibtexName));
      expect(fields).toMatchObject({
        booktitle: RECORD.containerTitle,
        series: RECORD.collectionTitle,
        volume: RECORD.volume,
        number: RECORD.issue,
        // A range is written with BibTeX's range dash (`12--19`), which the parser reads as an en dash.
        pages: RECORD.pages.replace('-', '–'),
        publisher: [RECORD.publisher],
        address: RECORD.publisherPlace,
        edition: RECORD.edition,
        isbn: RECORD.isbn,
        issn: RECORD.issn,
        doi: RECORD.doi,
        pmid: RECORD.pmid,
        language: RECORD.language,
        type: RECORD.genre,
        year: String(RECORD.issued.year),
        month: String(RECORD.issued.month),
        urldate: '2024-01-09',
        url: URL_SENT,
        abstract: RECORD.abstract,
      });
      const reportEntry = library.entries.find((found) => found.fields.title === 'A Report')!;
      expect(reportEntry.type).toBe('techreport');
      expect(reportEntry.fields).toMatchObject({ number: 'TR-7', institution: ['MIT'] });

      // ---- RIS: the service's own reader (Zotero's mapping), as import reads it ----
      const ris = await exported(ws, 'ris');
      const read = readCitations(ris, 'ris');
      expect(read.every((found) => found.ok)).toBe(true);
      const records = read.flatMap((found) => (found.ok ? [found.item] : []));
      const risItem = records.find((found) => found.title === TITLE)!;
      // RIS's `Family, Given, Suffix` has one family part and one given part: a non-dropping particle
      // is read as part of the family, a dropping one (written after the given names, as Zotero does)
      // as part of the given names.
      const risName = (creator: SentCreator) =>
        'literal' in creator
          ? { literal: creator.literal }
          : expect.objectContaining({
              family: creator.family,
              given:
                'droppingParticle' in creator
                  ? `${creator.given} ${creator.droppingParticle}`
                  : creator.given,
              ...('suffix' in creator ? { suffix: creator.suffix } : {}),
            });
      expect(risItem).toMatchObject({
        type: 'chapter',
        title: TITLE,
        URL: URL_SENT,
        author: ofRole('author').map(risName),
        editor: ofRole('editor').map(risName),
        translator: ofRole('translator').map(risName),
        issued: { 'date-parts': parts(RECORD.issued) },
        accessed: { 'date-parts': parts(RECORD.accessed) },
        'container-title': RECORD.containerTitle,
        'collection-title': RECORD.collectionTitle,
        volume: RECORD.volume,
        issue: RECORD.issue,
        page: RECORD.pages,
        publisher: RECORD.publisher,
        'publisher-place': RECORD.publisherPlace,
        edition: RECORD.edition,
        ISBN: RECORD.isbn,
        ISSN: RECORD.issn,
        DOI: RECORD.doi,
        language: RECORD.language,
        genre: RECORD.genre,
        abstract: RECORD.abstract,
      });
      // Each particle is in the name as sent, whichever part the reader puts it in.
      for (const [index, creator] of ofRole('author').entries()) {
        const particle =
          'droppingParticle' in creator
            ? creator.droppingParticle
            : 'nonDroppingParticle' in creator
              ? creator.nonDroppingParticle
              : undefined;
        if (particle)
          expect(JSON.stringify(risItem.author![index])).toMatch(new RegExp(`\\b${particle}\\b`));
      }
      // The PMID is RIS's accession number and a chapter's own number its M1, as Zotero writes them
      // (Zotero's reading, which import follows, keeps them as the archive location and a line of extra).
      expect(ris.split('\n')).toEqual(
        expect.arrayContaining([`AN  - ${RECORD.pmid}`, `M1  - ${RECORD.number}`]),
      );
      expect(records.find((found) => found.title === 'A Report')).toMatchObject({
        type: 'report',
        number: 'TR-7',
        publisher: 'MIT',
      });
    });

    it("a date range's end keeps its season, an open range stays open, and CSL-JSON says both", async () => {
      const { id: ws } = await createWorkspace(t.app, owner);
      const { id } = await addResource(t.app, owner, ws, { title: 'Ranges of Seasons' });
      const seasons = { year: 1999, season: 1, end: { year: 2001, season: 2 } };
      const open = { year: 1987, openEnd: true };
      const res = await patch(ws, id, { issued: seasons, originalDate: open });
      expect(res.statusCode).toBe(200);
      expect(res.json().resource).toMatchObject({ issued: seasons, originalDate: open });
      const [item] = JSON.parse(await exported(ws, 'csljson'));
      expect(item.issued).toEqual({
        'date-parts': [
          [1999, 20 + 1],
          [2001, 20 + 2],
        ],
      });
      expect(item['original-date']).toEqual({ 'date-parts': [[1987], [0]] });
      // An open range has no end, and a range has a year.
      for (const [date, field] of [
        [{ ...open, end: { year: 1990 } }, 'openEnd'],
        [{ literal: 'ongoing', openEnd: true }, 'year'],
        [{ year: 1999, end: { year: 2001, season: 5 } }, 'season'],
      ] as const) {
        const refused = await patch(ws, id, { issued: date });
        expect(refused.statusCode).toBe(400);
        expect(JSON.stringify(refused.json())).toContain(field);
      }
    });

    it('a resource made by hand with a type, its fields and no URL is kept so and cited right (APA)', async () => {
      const { id: ws } = await createWorkspace(t.app, owner);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/workspaces/${ws}/resources`,
        headers: owner.bearer,
        payload: {
          title: 'The Structure of Scientific Revolutions',
          type: 'book',
          creators: [{ role: 'author', family: 'Kuhn', given: 'Thomas S.' }],
          publisher: 'University of Chicago Press',
          issued: '1999',
        },
      });
      expect(res.statusCode).toBe(201);
      const { resource } = res.json();
      expect(resource).toMatchObject({
        url: null,
        type: 'book',
        authors: ['Thomas S. Kuhn'],
        creators: [{ role: 'author', family: 'Kuhn', given: 'Thomas S.' }],
        publisher: 'University of Chicago Press',
        issued: { year: 1999 },
        year: 1999,
      });
      const cited = await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${ws}/cite?resourceIds=${resource.id}&style=apa`,
        headers: owner.bearer,
      });
      expect(cited.statusCode).toBe(200);
      // APA 7 for a book: Author, I. I. (Year). *Title*. Publisher.
      expect(cited.json()).toMatchObject({
        bibliography:
          'Kuhn, T. S. (1999). The Structure of Scientific Revolutions. University of Chicago Press.',
        citation: '(Kuhn, 1999)',
      });
    });
  });
}
