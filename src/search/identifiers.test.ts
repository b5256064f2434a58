import { describe, expect, it } from 'vitest';
import { parseIdentifier, resolveProviderId } from './identifiers.js';
import type { ParsedIdentifier } from './identifiers.js';

const TABLE: Array<[string, ParsedIdentifier | null]> = [
  // Result ids, as search returns them.
  ['arxiv:2101.00001v2', { kind: 'result', provider: 'arxiv', nativeId: '2101.00001v2' }],
  [
    'arxiv:cond-mat/0603029v1',
    { kind: 'result', provider: 'arxiv', nativeId: 'cond-mat/0603029v1' },
  ],
  ['pubmed:31452104', { kind: 'result', provider: 'pubmed', nativeId: '31452104' }],
  [
    'crossref:10.1038/nature14539',
    { kind: 'result', provider: 'crossref', nativeId: '10.1038/nature14539' },
  ],
  ['openalex:W2741809807', { kind: 'result', provider: 'openalex', nativeId: 'W2741809807' }],
  [
    'semanticscholar:354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    {
      kind: 'result',
      provider: 'semanticscholar',
      nativeId: '354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    },
  ],
  [
    'semantic:354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    {
      kind: 'result',
      provider: 'semanticscholar',
      nativeId: '354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    },
  ],
  ['zenodo:7078768', { kind: 'result', provider: 'zenodo', nativeId: '7078768' }],
  ['youtube:D-lhorsDlUQ', { kind: 'result', provider: 'youtube', nativeId: 'D-lhorsDlUQ' }],
  ['arXiv:1707.08567', { kind: 'result', provider: 'arxiv', nativeId: '1707.08567' }],
  // DOIs, bare and as URLs.
  ['10.1038/nature14539', { kind: 'doi', doi: '10.1038/nature14539' }],
  ['10.1038/S42256-024-00832-8', { kind: 'doi', doi: '10.1038/s42256-024-00832-8' }],
  [
    'https://doi.org/10.1371/journal.pone.0033693',
    { kind: 'doi', doi: '10.1371/journal.pone.0033693' },
  ],
  [
    'http://dx.doi.org/10.1142/S021797921244002X',
    { kind: 'doi', doi: '10.1142/s021797921244002x' },
  ],
  ['doi.org/10.1016/j.xgen.2025.100814', { kind: 'doi', doi: '10.1016/j.xgen.2025.100814' }],
  [
    'https://doi.org/10.1016%2Fs0367-326x(01)00362-8',
    { kind: 'doi', doi: '10.1016/s0367-326x(01)00362-8' },
  ],
  ['doi:10.1098/rspa.1985.0070', { kind: 'doi', doi: '10.1098/rspa.1985.0070' }],
  // arXiv ids and URLs, new and old style, with and without version.
  ['2101.00001', { kind: 'arxiv', arxivId: '2101.00001' }],
  ['2005.14124v2', { kind: 'arxiv', arxivId: '2005.14124v2' }],
  ['0704.0001', { kind: 'arxiv', arxivId: '0704.0001' }],
  ['astro-ph/0601001', { kind: 'arxiv', arxivId: 'astro-ph/0601001' }],
  ['math.GT/0309136v1', { kind: 'arxiv', arxivId: 'math.GT/0309136v1' }],
  ['https://arxiv.org/abs/2202.12139v1', { kind: 'arxiv', arxivId: '2202.12139v1' }],
  ['http://arxiv.org/abs/cond-mat/0412498v1', { kind: 'arxiv', arxivId: 'cond-mat/0412498v1' }],
  ['https://arxiv.org/pdf/astro-ph/0601001v1', { kind: 'arxiv', arxivId: 'astro-ph/0601001v1' }],
  ['https://arxiv.org/pdf/2304.05376.pdf', { kind: 'arxiv', arxivId: '2304.05376' }],
  // PMIDs and PubMed URLs.
  ['31452104', { kind: 'pmid', pmid: '31452104' }],
  ['pmid:27797938', { kind: 'pmid', pmid: '27797938' }],
  ['https://pubmed.ncbi.nlm.nih.gov/38799228/', { kind: 'pmid', pmid: '38799228' }],
  ['https://www.ncbi.nlm.nih.gov/pubmed/11748933', { kind: 'pmid', pmid: '11748933' }],
  // OpenAlex ids and URLs.
  ['W2741809807', { kind: 'openalex', openalexId: 'W2741809807' }],
  ['w4396723768', { kind: 'openalex', openalexId: 'W4396723768' }],
  ['https://openalex.org/W4396723768', { kind: 'openalex', openalexId: 'W4396723768' }],
  ['https://api.openalex.org/works/W4365597205', { kind: 'openalex', openalexId: 'W4365597205' }],
  // Page URLs of the other providers.
  [
    'https://www.semanticscholar.org/paper/Augmenting-large-language-models/354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    {
      kind: 'result',
      provider: 'semanticscholar',
      nativeId: '354dcdebf3f8b5feeed5c62090e0bc1f0c28db06',
    },
  ],
  [
    'https://zenodo.org/record/7078768',
    { kind: 'result', provider: 'zenodo', nativeId: '7078768' },
  ],
  [
    'https://zenodo.org/records/7089850',
    { kind: 'result', provider: 'zenodo', nativeId: '7089850' },
  ],
  [
    'https://www.youtube.com/watch?v=gQ_1zX-F_No',
    { kind: 'result', provider: 'youtube', nativeId: 'gQ_1zX-F_No' },
  ],
  [
    'https://youtu.be/D-lhorsDlUQ',
    { kind: 'result', provider: 'youtube', nativeId: 'D-lhorsDlUQ' },
  ],
  // Not identifiers.
  ['', null],
  ['   ', null],
  ['machine learning', null],
  ['arxiv:not-an-id', null],
  ['pubmed:abc', null],
  ['crossref:nature14539', null],
  ['zenodo:12a', null],
  ['unknown:123', null],
  ['https://example.org/paper/1', null],
  ['https://arxiv.org/list/cs.AI/recent', null],
  ['10.1038', null],
  ['1234567890', null],
];

describe('parseIdentifier', () => {
  it.each(TABLE)('%s', (input, expected) => {
    expect(parseIdentifier(input)).toEqual(expected);
  });
});

describe('resolveProviderId', () => {
  it('knows the seven ids, the semantic alias, any case; nothing else', () => {
    expect(resolveProviderId('semantic')).toBe('semanticscholar');
    expect(resolveProviderId('ArXiv')).toBe('arxiv');
    expect(resolveProviderId(' youtube ')).toBe('youtube');
    expect(resolveProviderId('scholar')).toBeNull();
  });
});
