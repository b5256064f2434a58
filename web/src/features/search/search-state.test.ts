import { describe, expect, it } from 'vitest';
import { apiFilters, describeFilters, readSearchState, searchParamsOf } from './search-state';

describe('search state: filters in the URL', () => {
  it('reads the filters and writes them back as they were', () => {
    const params = new URLSearchParams(
      'q=graphs&yearFrom=2019&yearTo=2021&hasPdf=true&type=dataset&venue=Nature',
    );
    const state = readSearchState(params);
    expect(state.filters).toEqual({
      yearFrom: 2019,
      yearTo: 2021,
      hasPdf: true,
      type: 'dataset',
      venue: 'Nature',
    });
    expect(Object.fromEntries(searchParamsOf(state))).toEqual(Object.fromEntries(params));
    expect(apiFilters(state.filters)).toEqual({
      yearFrom: 2019,
      yearTo: 2021,
      hasPdf: true,
      type: 'dataset',
      venue: 'Nature',
    });
  });

  it('drops what the API would refuse from a pasted link', () => {
    const state = readSearchState(
      new URLSearchParams(
        `q=x&yearFrom=2022&yearTo=2020&hasPdf=yes&type=poem&venue=${'v'.repeat(300)}`,
      ),
    );
    expect(state.filters).toMatchObject({
      yearFrom: 2022,
      yearTo: null,
      hasPdf: false,
      type: null,
    });
    expect(state.filters.venue).toHaveLength(200);
    expect(readSearchState(new URLSearchParams('yearFrom=20x0&yearTo=999')).filters).toMatchObject({
      yearFrom: null,
      yearTo: null,
    });
    expect(
      searchParamsOf(readSearchState(new URLSearchParams('q=x&hasPdf=false'))).toString(),
    ).toBe('q=x');
  });

  it('says the active filters in words', () => {
    expect(
      describeFilters(
        readSearchState(
          new URLSearchParams('yearFrom=2019&yearTo=2021&hasPdf=true&type=chapter&venue=Cell'),
        ).filters,
      ),
    ).toEqual(['Published 2019–2021', 'With a free PDF', 'Book chapter', 'Venue: Cell']);
    expect(describeFilters(readSearchState(new URLSearchParams('yearTo=2000')).filters)).toEqual([
      'Published in or before 2000',
    ]);
    expect(describeFilters(readSearchState(new URLSearchParams('q=x')).filters)).toEqual([]);
  });
});
