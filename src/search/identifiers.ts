/**
 * Reads the identifiers people paste: a result id (`arxiv:2101.00001v2`, `crossref:10.1038/nature14539`,
 * `semantic:<id>` ...), a DOI bare or as a doi.org URL, an arXiv id (new or old style, with or without
 * version) or arXiv URL, a PMID or PubMed URL, an OpenAlex id or URL, and the page URLs of Semantic
 * Scholar, Zenodo and YouTube.
 */
import { normaliseDoi } from './text.js';
import { PROVIDER_IDS } from './types.js';
import type { ProviderId } from './types.js';
import { ownValue } from '../platform/own-key.js';

export type ParsedIdentifier =
  | { kind: 'result'; provider: ProviderId; nativeId: string }
  | { kind: 'doi'; doi: string }
  | { kind: 'arxiv'; arxivId: string }
  | { kind: 'pmid'; pmid: string }
  | { kind: 'openalex'; openalexId: string };

/** Other names accepted for a provider id (in `providers=` and in result ids). */
const PROVIDER_ID_ALIASES: Readonly<Record<string, ProviderId>> = {
  semantic: 'semanticscholar',
};

/** The provider id a name stands for (`semantic` → `semanticscholar`), or null for an unknown name. */
export function resolveProviderId(name: string): ProviderId | null {
  const lower = name.trim().toLowerCase();
  if ((PROVIDER_IDS as readonly string[]).includes(lower)) return lower as ProviderId;
  return ownValue(PROVIDER_ID_ALIASES, lower) ?? null;
}

/** New-style (`2101.00001`, `0704.0001v2`) or old-style (`cond-mat/0603029v1`, `math.GT/0309136`) arXiv id. */
const ARXIV_NEW = /^\d{4}\.\d{4,5}(v\d+)?$/i;
const ARXIV_OLD = /^[a-z][a-z-]*(\.[a-z]{2})?\/\d{7}(v\d+)?$/i;
const OPENALEX_WORK = /^W\d{2,}$/i;
const PMID = /^\d{1,9}$/;
const SEMANTIC_SCHOLAR_ID = /^[0-9a-f]{40}$/i;
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

function isArxivId(value: string): boolean {
  return ARXIV_NEW.test(value) || ARXIV_OLD.test(value);
}

export function parseIdentifier(input: string): ParsedIdentifier | null {
  const value = input.trim();
  if (!value || value.length > 2048) return null;
  if (
    /^(https?:\/\/|www\.|(dx\.)?doi\.org\/|arxiv\.org\/|pubmed\.ncbi|openalex\.org\/|youtu\.be\/|youtube\.com\/)/i.test(
      value,
    )
  ) {
    return parseUrl(/^https?:\/\//i.test(value) ? value : `https://${value}`);
  }
  const prefixed = /^([a-z]+):\s*(.+)$/i.exec(value);
  if (prefixed?.[1] && prefixed[2]) {
    const parsed = parsePrefixed(prefixed[1].toLowerCase(), prefixed[2].trim());
    if (parsed !== undefined) return parsed;
  }
  const doi = normaliseDoi(value);
  if (doi) return { kind: 'doi', doi };
  if (isArxivId(value)) return { kind: 'arxiv', arxivId: value };
  if (OPENALEX_WORK.test(value)) return { kind: 'openalex', openalexId: value.toUpperCase() };
  if (PMID.test(value)) return { kind: 'pmid', pmid: String(Number(value)) };
  return null;
}

/** `undefined` when the prefix is not one this parser knows (so the bare forms get their turn). */
function parsePrefixed(prefix: string, rest: string): ParsedIdentifier | null | undefined {
  if (prefix === 'doi') {
    const doi = normaliseDoi(rest);
    return doi ? { kind: 'doi', doi } : null;
  }
  if (prefix === 'pmid')
    return PMID.test(rest) ? { kind: 'pmid', pmid: String(Number(rest)) } : null;
  const provider = resolveProviderId(prefix);
  if (!provider) return undefined;
  switch (provider) {
    case 'arxiv':
      return isArxivId(rest) ? { kind: 'result', provider, nativeId: rest } : null;
    case 'pubmed':
      return PMID.test(rest) ? { kind: 'result', provider, nativeId: String(Number(rest)) } : null;
    case 'crossref': {
      const doi = normaliseDoi(rest);
      return doi
        ? { kind: 'result', provider, nativeId: rest.replace(/^https?:\/\/(dx\.)?doi\.org\//i, '') }
        : null;
    }
    case 'openalex':
      return OPENALEX_WORK.test(rest)
        ? { kind: 'result', provider, nativeId: rest.toUpperCase() }
        : null;
    case 'semanticscholar':
      return /^\S+$/.test(rest) ? { kind: 'result', provider, nativeId: rest } : null;
    case 'zenodo':
      return /^\d+$/.test(rest) ? { kind: 'result', provider, nativeId: rest } : null;
    case 'youtube':
      return YOUTUBE_ID.test(rest) ? { kind: 'result', provider, nativeId: rest } : null;
  }
}

function parseUrl(raw: string): ParsedIdentifier | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = safeDecode(url.pathname).replace(/\/+$/, '');
  if (host === 'doi.org' || host === 'dx.doi.org') {
    const doi = normaliseDoi(path.replace(/^\//, ''));
    return doi ? { kind: 'doi', doi } : null;
  }
  if (host === 'arxiv.org' || host === 'export.arxiv.org') {
    const id = /^\/(abs|pdf)\/(.+?)(\.pdf)?$/i.exec(path)?.[2];
    return id && isArxivId(id) ? { kind: 'arxiv', arxivId: id } : null;
  }
  if (host === 'pubmed.ncbi.nlm.nih.gov') {
    const pmid = /^\/(\d{1,9})$/.exec(path)?.[1];
    return pmid ? { kind: 'pmid', pmid } : null;
  }
  if (host === 'ncbi.nlm.nih.gov') {
    const pmid = /^\/pubmed\/(\d{1,9})$/.exec(path)?.[1];
    return pmid ? { kind: 'pmid', pmid } : null;
  }
  if (host === 'openalex.org' || host === 'api.openalex.org') {
    const id = /\/(W\d{2,})$/i.exec(path)?.[1];
    return id ? { kind: 'openalex', openalexId: id.toUpperCase() } : null;
  }
  if (host === 'semanticscholar.org' || host === 'api.semanticscholar.org') {
    const id = /\/([0-9a-f]{40})$/i.exec(path)?.[1];
    return id && SEMANTIC_SCHOLAR_ID.test(id)
      ? { kind: 'result', provider: 'semanticscholar', nativeId: id.toLowerCase() }
      : null;
  }
  if (host === 'zenodo.org') {
    const id = /^\/(records?|api\/records)\/(\d+)$/.exec(path)?.[2];
    return id ? { kind: 'result', provider: 'zenodo', nativeId: id } : null;
  }
  if (host === 'youtube.com' || host === 'm.youtube.com') {
    const id =
      url.searchParams.get('v') ?? /^\/(embed|shorts)\/([A-Za-z0-9_-]{11})$/.exec(path)?.[2];
    return id && YOUTUBE_ID.test(id) ? { kind: 'result', provider: 'youtube', nativeId: id } : null;
  }
  if (host === 'youtu.be') {
    const id = path.replace(/^\//, '');
    return YOUTUBE_ID.test(id) ? { kind: 'result', provider: 'youtube', nativeId: id } : null;
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
