import type { z } from 'zod';
import type { ApiError } from '../platform/errors.js';
import type { ProviderStatus } from './federate.js';
import type { SearchResultSchema } from './schemas.js';
import type { SearchRecord } from './types.js';

/** The public fields of a record; internal ones (ranks, nativeId, …) never leave. */
export function presentSearchResult(record: SearchRecord): z.infer<typeof SearchResultSchema> {
  return {
    id: record.id,
    title: record.title,
    authors: record.authors,
    abstract: record.abstract,
    url: record.url,
    provider: record.provider,
    publishedDate: record.publishedDate,
    citations: record.citationsKnown ? record.citations : null,
    score: Math.round(record.score * 10_000) / 10_000,
    sources: record.sources,
    ...(record.doi ? { doi: record.doi } : {}),
    ...(record.arxivId ? { arxivId: record.arxivId } : {}),
    ...(record.pmid ? { pmid: record.pmid } : {}),
    ...(record.pdfUrl ? { pdfUrl: record.pdfUrl } : {}),
    ...(record.venue ? { venue: record.venue } : {}),
    ...(record.type ? { type: record.type } : {}),
  };
}

export function presentProviderStatus(status: ProviderStatus) {
  return {
    id: status.id,
    status: status.status,
    count: status.count,
    took: status.took,
    ...(status.reason && { reason: status.reason }),
  };
}

/** The search stream's `error` event: the API error code, and for the rate limit the seconds to wait (an EventSource cannot read headers). */
export function presentStreamError(error: ApiError): {
  message: string;
  code: string;
  retryAfter?: number;
} {
  const seconds = Number(error.headers?.['retry-after']);
  return {
    message: error.message,
    code: error.code,
    ...(Number.isSafeInteger(seconds) && seconds > 0 ? { retryAfter: seconds } : {}),
  };
}
