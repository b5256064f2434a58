/**
 * The identity of a work, so that one workspace does not hold the same paper twice (the unique index
 * `workspace_resources_work_key`): its DOI, else its arXiv id without version, else its PMID, else its
 * normalised URL, else the search id it was added by. Works described by title alone have no key.
 */

export interface WorkIdentifiers {
  doi?: string | null;
  arxivId?: string | null;
  pmid?: string | null;
  url?: string | null;
  resourceId?: string | null;
}

const DOI = /^10\.\d{4,9}\/\S+$/;
const ARXIV_NEW = /^\d{4}\.\d{4,5}(v\d+)?$/i;
const ARXIV_OLD = /^[a-z][a-z-]*(\.[a-z]{2})?\/\d{7}(v\d+)?$/i;
const ARXIV_DOI = /^10\.48550\/arxiv\.(.+)$/i;
const PMID = /^\d{1,9}$/;
/** Query parameters that only track where a click came from. */
const TRACKING_PARAM = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|ref|source)$/i;

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A bare, lower-cased DOI from `10.x/y`, `doi:10.x/y` or a doi.org URL; null when it is not a DOI. */
export function normaliseDoi(input: string): string | null {
  const bare = safeDecode(input.trim())
    .replace(/^doi:\s*/i, '')
    .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
    .toLowerCase();
  return DOI.test(bare) ? bare : null;
}

/** An arXiv id without its version (`2101.00001`, `cond-mat/0603029`); null when it is not one. */
export function normaliseArxivId(input: string): string | null {
  const id = input.trim().replace(/^arxiv:/i, '');
  if (!ARXIV_NEW.test(id) && !ARXIV_OLD.test(id)) return null;
  return id.replace(/v\d+$/i, '').toLowerCase();
}

function normalisePmid(input: string): string | null {
  const id = input.trim().replace(/^pmid:\s*/i, '');
  return PMID.test(id) ? String(Number(id)) : null;
}

/** Identifiers hidden in a well-known URL: doi.org, arxiv.org/abs|pdf, PubMed. */
function identifiersInUrl(url: URL): Pick<WorkIdentifiers, 'doi' | 'arxivId' | 'pmid'> {
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const path = safeDecode(url.pathname).replace(/\/+$/, '');
  if (host === 'doi.org' || host === 'dx.doi.org') return { doi: normaliseDoi(path.slice(1)) };
  if (host === 'arxiv.org' || host === 'export.arxiv.org') {
    const id = /^\/(?:abs|pdf)\/(.+?)(?:\.pdf)?$/i.exec(path)?.[1];
    return { arxivId: id ? normaliseArxivId(id) : null };
  }
  if (host === 'pubmed.ncbi.nlm.nih.gov') return { pmid: /^\/(\d{1,9})$/.exec(path)?.[1] ?? null };
  if (host === 'ncbi.nlm.nih.gov') return { pmid: /^\/pubmed\/(\d{1,9})$/.exec(path)?.[1] ?? null };
  return {};
}

/** `host/path?sorted-query` with scheme, `www.`, fragment, trailing slash and tracking parameters dropped. */
export function normaliseUrl(input: string): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const port = url.port && url.port !== '80' && url.port !== '443' ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  const params = [...url.searchParams.entries()]
    .filter(([name]) => !TRACKING_PARAM.test(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  return `${host}${port}${path}${query}`;
}

/** Identifiers carried by a search id (`arxiv:2101.00001v2`, `pubmed:123`, `crossref:10.x/y`) or a bare one. */
function identifiersInResourceId(
  resourceId: string,
): Pick<WorkIdentifiers, 'doi' | 'arxivId' | 'pmid'> {
  const [prefix, ...rest] = resourceId.split(':');
  const native = rest.join(':');
  switch (prefix?.toLowerCase()) {
    case 'arxiv':
      return { arxivId: normaliseArxivId(native) };
    case 'pubmed':
    case 'pmid':
      return { pmid: normalisePmid(native) };
    case 'crossref':
    case 'doi':
      return { doi: normaliseDoi(native) };
  }
  return { doi: normaliseDoi(resourceId), arxivId: normaliseArxivId(resourceId) };
}

export function workKeyOf(ids: WorkIdentifiers): string | null {
  let parsedUrl: URL | null;
  try {
    parsedUrl = ids.url ? new URL(ids.url) : null;
  } catch {
    parsedUrl = null;
  }
  const fromUrl = parsedUrl ? identifiersInUrl(parsedUrl) : {};
  const fromId = ids.resourceId ? identifiersInResourceId(ids.resourceId) : {};

  const doi = [ids.doi, fromUrl.doi, fromId.doi]
    .map((value) => (value ? normaliseDoi(value) : null))
    .find(Boolean);
  // arXiv's own DOIs (10.48550/arXiv.<id>) name the preprint: key them as the arXiv id.
  const arxivFromDoi = doi ? ARXIV_DOI.exec(doi)?.[1] : undefined;
  if (doi && !arxivFromDoi) return `doi:${doi}`;
  const arxivId = [ids.arxivId, arxivFromDoi, fromUrl.arxivId, fromId.arxivId]
    .map((value) => (value ? normaliseArxivId(value) : null))
    .find(Boolean);
  if (arxivId) return `arxiv:${arxivId}`;
  const pmid = [ids.pmid, fromUrl.pmid, fromId.pmid]
    .map((value) => (value ? normalisePmid(value) : null))
    .find(Boolean);
  if (pmid) return `pmid:${pmid}`;
  const url = ids.url ? normaliseUrl(ids.url) : null;
  if (url) return `url:${url}`;
  const resourceId = ids.resourceId?.trim();
  return resourceId ? `id:${resourceId.toLowerCase()}` : null;
}
