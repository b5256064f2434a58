import { describe, expect, it } from 'vitest';
import { LibrarySearchForm } from './schemas';
import { apiQuery, readLibrarySearchState, writeLibrarySearchState } from './search-state';
import { pdfPageAddress, resourceAddress, snippetParts, whereFound } from './snippets';

const WORKSPACE = '0b8e2a4e-3f7c-4a8e-9a51-2f4a6c1d9e10';
const RESOURCE = '5d1f7c9a-2b3e-4f60-8a71-9c0d1e2f3a4b';

describe('the library search state in the address', () => {
  it('reads back what it wrote, leaving defaults out', () => {
    const params = new URLSearchParams(
      `q=quasi%20cryst&workspace=${WORKSPACE}&tag=nlp&type=article&yearFrom=2015&yearTo=2020&sort=date&page=3`,
    );
    const state = readLibrarySearchState(params);
    expect(state).toEqual({
      q: 'quasi cryst',
      workspace: WORKSPACE,
      tag: 'nlp',
      type: 'article',
      yearFrom: '2015',
      yearTo: '2020',
      sort: 'date',
      page: 3,
    });
    expect(Object.fromEntries(writeLibrarySearchState(state))).toEqual(Object.fromEntries(params));
    expect(
      writeLibrarySearchState(
        readLibrarySearchState(new URLSearchParams('sort=relevance&page=1')),
      ).toString(),
    ).toBe('');
  });

  it('drops what the API would refuse, so a hand-edited address still searches', () => {
    const state = readLibrarySearchState(
      new URLSearchParams(
        `q=${'a'.repeat(600)}&workspace=nope&yearFrom=999&yearTo=20x0&sort=citations&page=99999`,
      ),
    );
    expect(state).toEqual({
      q: 'a'.repeat(500),
      workspace: '',
      tag: '',
      type: '',
      yearFrom: '',
      yearTo: '',
      sort: 'relevance',
      page: 1,
    });
    // A range backwards keeps its start only.
    expect(readLibrarySearchState(new URLSearchParams('yearFrom=2020&yearTo=2010'))).toMatchObject({
      yearFrom: '2020',
      yearTo: '',
    });
  });

  it('asks the API for a page as limit and offset, without empty filters', () => {
    expect(
      apiQuery(
        readLibrarySearchState(
          new URLSearchParams(`q=fold&workspace=${WORKSPACE}&yearTo=1999&page=2`),
        ),
      ),
    ).toEqual({
      q: 'fold',
      workspaceId: WORKSPACE,
      yearTo: 1999,
      sort: 'relevance',
      limit: 20,
      offset: 20,
    });
  });

  it('refuses, at the field, a year the API would not take and a range backwards', () => {
    const filters = { q: '', workspace: '', tag: '', type: '', yearFrom: '2020', yearTo: '2010' };
    const backwards = LibrarySearchForm.safeParse(filters);
    expect(backwards.success).toBe(false);
    expect(backwards.error?.issues.map((issue) => issue.path)).toEqual([['yearTo']]);
    expect(
      LibrarySearchForm.safeParse({ ...filters, yearFrom: '999', yearTo: '' }).error?.issues.map(
        (issue) => issue.path,
      ),
    ).toEqual([['yearFrom']]);
    expect(
      LibrarySearchForm.safeParse({ ...filters, q: '  fold ', yearFrom: '', yearTo: '' }).data?.q,
    ).toBe('fold');
  });
});

describe('snippets', () => {
  it('cuts the text into plain and marked parts at the highlights, in order', () => {
    const text = 'Folding of quasicrystals: folded <b>sheets</b>';
    expect(
      snippetParts({
        text,
        highlights: [
          { start: 26, end: 32 },
          { start: 0, end: 7 },
        ],
      }),
    ).toEqual([
      { text: 'Folding', marked: true },
      { text: ' of quasicrystals: ', marked: false },
      { text: 'folded', marked: true },
      { text: ' <b>sheets</b>', marked: false },
    ]);
  });

  it('leaves out ranges that are empty, overlap one taken, or fall outside the text', () => {
    expect(
      snippetParts({
        text: 'abcdef',
        highlights: [
          { start: 1, end: 3 },
          { start: 2, end: 4 },
          { start: 5, end: 5 },
          { start: 4, end: 99 },
          { start: 40, end: 50 },
        ],
      }),
    ).toEqual([
      { text: 'a', marked: false },
      { text: 'bc', marked: true },
      { text: 'd', marked: false },
      { text: 'ef', marked: true },
    ]);
    expect(snippetParts({ text: 'plain', highlights: [] })).toEqual([
      { text: 'plain', marked: false },
    ]);
  });

  it('says where a snippet was found, a PDF with its page', () => {
    expect(whereFound({ in: 'pdf', page: 3 })).toBe('PDF, page 3');
    expect(whereFound({ in: 'notes' })).toBe('Notes');
    expect(whereFound({ in: 'annotation' })).toBe('Annotation');
  });

  it('opens a hit in its workspace (filtered by its title, so it is on the first page) and a PDF at a page', () => {
    const hit = {
      id: RESOURCE,
      title: ' 50% of R&D? ',
      workspace: { id: WORKSPACE, name: 'Reading' },
    };
    const address = new URL(resourceAddress(hit), 'http://app.test');
    expect(address.pathname).toBe(`/workspaces/${WORKSPACE}`);
    expect(Object.fromEntries(address.searchParams)).toEqual({
      q: '50% of R&D?',
      resource: RESOURCE,
    });
    expect(pdfPageAddress(hit, 3)).toBe(
      `/workspaces/${WORKSPACE}/resources/${RESOURCE}/pdf?page=3`,
    );
  });
});
