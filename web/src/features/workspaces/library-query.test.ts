import { describe, expect, it } from 'vitest';
import { apiQuery, readLibraryState, writeLibraryState } from './library-query';
import { BulkTagForm, LibraryFilterForm } from './schemas';

const ID = '0b8e2a4e-3f7c-4a8e-9a51-2f4a6c1d9e10';

describe('the library state in the address', () => {
  it('reads back what it wrote, leaving defaults out', () => {
    const params = new URLSearchParams(
      `sort=title&order=desc&q=deep%20learning&tag=nlp&type=article&yearFrom=2015&yearTo=2020&page=3&size=50&resource=${ID}`,
    );
    const state = readLibraryState(params);
    expect(state).toEqual({
      sort: 'title',
      order: 'desc',
      q: 'deep learning',
      tag: 'nlp',
      type: 'article',
      yearFrom: '2015',
      yearTo: '2020',
      page: 3,
      size: 50,
      open: ID,
    });
    expect(Object.fromEntries(writeLibraryState(state))).toEqual(Object.fromEntries(params));
    expect(
      writeLibraryState(readLibraryState(new URLSearchParams('sort=year&order=desc'))).toString(),
    ).toBe('sort=year');
    expect(writeLibraryState(readLibraryState(new URLSearchParams(''))).toString()).toBe('');
  });

  it('drops what the API would refuse, so a hand-edited address still shows a list', () => {
    const state = readLibraryState(
      new URLSearchParams(
        'sort=citations&order=up&yearFrom=20x5&page=-1&size=7&resource=not-an-id',
      ),
    );
    expect(state).toMatchObject({
      sort: 'added',
      order: 'desc',
      yearFrom: '',
      page: 1,
      size: 25,
      open: null,
    });
  });

  it('asks the API for the page as limit and offset, without empty filters', () => {
    const state = readLibraryState(new URLSearchParams('sort=venue&page=2&size=10&yearTo=1999'));
    expect(apiQuery(state)).toEqual({
      sort: 'venue',
      order: 'asc',
      limit: 10,
      offset: 10,
      yearTo: 1999,
    });
  });
});

describe('the library forms', () => {
  it('refuses a year range backwards and a year that is not one, at the field', () => {
    const filters = { q: '', tag: '', type: '', yearFrom: '2020', yearTo: '2010' };
    expect(
      LibraryFilterForm.safeParse(filters).error?.issues.map((issue) => [
        issue.path.join('.'),
        issue.message,
      ]),
    ).toEqual([['yearTo', 'Not before the first year.']]);
    expect(
      LibraryFilterForm.safeParse({ ...filters, yearFrom: '20x', yearTo: '' }).error?.issues.map(
        (issue) => issue.path.join('.'),
      ),
    ).toEqual(['yearFrom']);
    expect(LibraryFilterForm.parse({ ...filters, q: '  deep  ', yearTo: '2021' })).toMatchObject({
      q: 'deep',
      yearFrom: '2020',
      yearTo: '2021',
    });
  });

  it('sends tags to add and remove as lists, and wants at least one', () => {
    expect(BulkTagForm.parse({ add: 'to-read, review,', remove: ' inbox ' })).toEqual({
      add: ['to-read', 'review'],
      remove: ['inbox'],
    });
    expect(
      BulkTagForm.safeParse({ add: ' , ', remove: '' }).error?.issues.map((issue) => [
        issue.path.join('.'),
        issue.message,
      ]),
    ).toEqual([['add', 'Enter a tag to add or to remove.']]);
  });
});
