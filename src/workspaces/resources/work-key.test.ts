import { describe, expect, it } from 'vitest';
import { normaliseUrl, workKeyOf } from './work-key.js';

describe('workKeyOf', () => {
  it.each([
    [{ doi: 'https://doi.org/10.1038/NATURE14539' }, 'doi:10.1038/nature14539'],
    [{ url: 'https://dx.doi.org/10.1038/nature14539' }, 'doi:10.1038/nature14539'],
    [{ resourceId: 'crossref:10.1038/nature14539' }, 'doi:10.1038/nature14539'],
    [{ resourceId: '10.1038/nature14539' }, 'doi:10.1038/nature14539'],
    [{ arxivId: '1706.03762' }, 'arxiv:1706.03762'],
    [{ resourceId: 'arxiv:1706.03762v5' }, 'arxiv:1706.03762'],
    [{ url: 'https://arxiv.org/pdf/1706.03762v2.pdf' }, 'arxiv:1706.03762'],
    [{ doi: '10.48550/arXiv.1706.03762' }, 'arxiv:1706.03762'],
    [{ resourceId: 'arxiv:cond-mat/0603029v1' }, 'arxiv:cond-mat/0603029'],
    [{ pmid: '031452104' }, 'pmid:31452104'],
    [{ url: 'https://pubmed.ncbi.nlm.nih.gov/31452104/' }, 'pmid:31452104'],
    [{ resourceId: 'pubmed:31452104' }, 'pmid:31452104'],
    [{ url: 'http://WWW.Example.org/a/?b=2&utm_source=x&a=1#frag' }, 'url:example.org/a?a=1&b=2'],
    [{ resourceId: 'openalex:W2741809807' }, 'id:openalex:w2741809807'],
    [{}, null],
    [{ url: 'not a url' }, null],
  ])('%j → %s', (ids, key) => {
    expect(workKeyOf(ids)).toBe(key);
  });

  it('prefers the DOI over the URL and the arXiv id over the search id', () => {
    expect(workKeyOf({ doi: '10.1234/x', url: 'https://example.org/x' })).toBe('doi:10.1234/x');
    expect(workKeyOf({ arxivId: '2101.00001', resourceId: 'semanticscholar:abc' })).toBe(
      'arxiv:2101.00001',
    );
  });
});

describe('normaliseUrl', () => {
  it('treats http and https, www and a trailing slash alike, and keeps other ports', () => {
    expect(normaliseUrl('http://www.example.org/paper/')).toBe(
      normaliseUrl('https://example.org/paper'),
    );
    expect(normaliseUrl('https://example.org:8443/x')).toBe('example.org:8443/x');
    expect(normaliseUrl('ftp://example.org/x')).toBeNull();
  });
});
