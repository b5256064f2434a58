/** "Update from source" in words: failures said in their own words, and the PATCH of the accepted changes. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { canRefresh, proposalChanges, providerName, refreshErrorText } from './refresh';

type Resource = components['schemas']['Resource'];
const resource = { doi: '10.1/x', pmid: undefined } as unknown as Resource;

describe('update from source', () => {
  it('is offered for a DOI, an arXiv id or a PMID only', () => {
    expect(canRefresh(resource)).toBe(true);
    expect(canRefresh({ arxivId: '1706.03762' } as unknown as Resource)).toBe(true);
    expect(canRefresh({ url: 'https://example.org' } as unknown as Resource)).toBe(false);
  });

  it('names the provider', () => {
    expect(providerName('crossref')).toBe('Crossref');
    expect(providerName('elsewhere')).toBe('elsewhere');
  });

  it('says what went wrong: nothing found, the sources down, too many lookups', () => {
    const notFound = new ApiError(404, 'NOT_FOUND', 'No provider knows the doi "10.1/x"', {
      field: 'doi',
      reason: 'not_found',
    });
    expect(refreshErrorText(notFound, resource)).toBe(
      'Nothing to update from: no source knows the DOI 10.1/x now.',
    );
    const down = new ApiError(503, 'SERVICE_UNAVAILABLE', 'Could not look the resource up');
    expect(refreshErrorText(down, resource)).toMatch(/^The sources did not answer.*in a moment\.$/);
    const limited = new ApiError(429, 'RATE_LIMITED', 'Too many requests', {}, 30);
    expect(refreshErrorText(limited, resource)).toBe('Too many requests. Try again in 30 seconds.');
  });

  it('sends each accepted field as the source proposed it', () => {
    expect(
      proposalChanges([
        { field: 'title', current: 'Old', proposed: 'New' },
        { field: 'issued', current: null, proposed: { year: 2019 } },
      ]),
    ).toEqual({ title: 'New', issued: { year: 2019 } });
  });
});
