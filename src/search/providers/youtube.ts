/**
 * YouTube (educational video) through the Data API v3: `/search` for video ids in relevance order, then
 * `/videos` for full descriptions. Enabled only with an API key. Titles keep HTML entities in
 * `search.list`; `id` is an object there (`videoId`, or `channelId` for channels) and a string in `videos.list`.
 */
import type { OutboundResponse } from '../../platform/outbound.js';
import type { SearchFilters } from '../filters.js';
import { ProviderError } from '../provider-error.js';
import { collapseWhitespace, decodeHtmlEntities, isoDateFromString, yearOf } from '../text.js';
import type { ProviderSearchAnswer, SearchRecord } from '../types.js';
import { defineProvider } from './define-provider.js';
import { compactDetails, languageTag } from './details.js';
import type { ProviderApi } from './define-provider.js';
import { readJson } from './upstream.js';
import { asArray, asNumber, asRecord, asString } from './values.js';

/**
 * The Data API is metered by a daily quota (10,000 units by default; a search costs 100) rather than a
 * published request rate; 5 requests per second keeps bursts modest.
 */
const YOUTUBE_REQUESTS_PER_SECOND = 5;
const MAX_RESULTS = 50;
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

export interface VideoSnippet {
  title: string;
  description: string;
  channelTitle?: string;
  publishedAt?: string;
  /** The language of the video's speech, else of its title and description (`en`, `en-US`). */
  language?: string;
}

function readSnippet(item: Record<string, unknown>): VideoSnippet {
  const snippet = asRecord(item.snippet) ?? {};
  return {
    title: collapseWhitespace(decodeHtmlEntities(asString(snippet.title) ?? '')),
    description: decodeHtmlEntities(asString(snippet.description) ?? '').trim(),
    channelTitle: asString(snippet.channelTitle),
    publishedAt: asString(snippet.publishedAt) ?? asString(snippet.publishTime),
    language: asString(snippet.defaultAudioLanguage) ?? asString(snippet.defaultLanguage),
  };
}

/**
 * A video as CSL's `motion_picture` ("a film or video"), the type Zotero gives a video recording:
 * CSL's `broadcast` is an episode of a programme that was broadcast, which an upload is not. The
 * channel is the author (an organisation's name or a person's, unsplit: a `literal`), and YouTube
 * its publisher, as APA cites a video ("… [Video]. YouTube.").
 */
function youtubeDetails(snippet: VideoSnippet) {
  const channel = snippet.channelTitle
    ? collapseWhitespace(decodeHtmlEntities(snippet.channelTitle))
    : '';
  return compactDetails({
    creators: channel ? [{ role: 'author', literal: channel }] : [],
    type: 'motion_picture',
    publisher: 'YouTube',
    language: languageTag(snippet.language),
  });
}

export function youtubeVideoToRecord(videoId: string, snippet: VideoSnippet): SearchRecord {
  const publishedDate = isoDateFromString(snippet.publishedAt);
  const details = youtubeDetails(snippet);
  return {
    id: `youtube:${videoId}`,
    provider: 'youtube',
    nativeId: videoId,
    title: snippet.title,
    authors: snippet.channelTitle
      ? [collapseWhitespace(decodeHtmlEntities(snippet.channelTitle))]
      : [],
    abstract: snippet.description,
    url: `https://www.youtube.com/watch?v=${videoId}`,
    publishedDate,
    year: yearOf(publishedDate),
    citations: 0,
    citationsKnown: false,
    score: 0,
    sources: ['youtube'],
    ...(snippet.channelTitle
      ? { venue: `YouTube: ${collapseWhitespace(snippet.channelTitle)}` }
      : {}),
    type: 'video',
    ...(details ? { details } : {}),
  };
}

function preferDetail(fromSearch: VideoSnippet, fromVideos: VideoSnippet): VideoSnippet {
  return {
    title: fromVideos.title || fromSearch.title,
    description: fromVideos.description || fromSearch.description,
    channelTitle: fromVideos.channelTitle ?? fromSearch.channelTitle,
    publishedAt: fromVideos.publishedAt ?? fromSearch.publishedAt,
    language: fromVideos.language ?? fromSearch.language,
  };
}

/** Video ids and snippets of a `search.list` reply; channel and playlist hits are skipped. */
export function parseYoutubeSearch(body: unknown): {
  hits: Array<{ videoId: string; snippet: VideoSnippet }>;
  total?: number;
} {
  const json = asRecord(body);
  const hits: Array<{ videoId: string; snippet: VideoSnippet }> = [];
  for (const itemNode of asArray(json?.items)) {
    const item = asRecord(itemNode);
    const videoId = asString(asRecord(item?.id)?.videoId);
    if (!item || !videoId) continue;
    hits.push({ videoId, snippet: readSnippet(item) });
  }
  return { hits, total: asNumber(asRecord(json?.pageInfo)?.totalResults) };
}

/** Snippets of a `videos.list` reply by video id. */
function parseYoutubeVideos(body: unknown): Map<string, VideoSnippet> {
  const videos = new Map<string, VideoSnippet>();
  for (const itemNode of asArray(asRecord(body)?.items)) {
    const item = asRecord(itemNode);
    const id = asString(item?.id);
    if (item && id) videos.set(id, readSnippet(item));
  }
  return videos;
}

/**
 * YouTube reports errors as `{ error: { code, message, errors: [{ reason }] } }`; an exhausted quota or
 * a rate limit is a 403 with reason `quotaExceeded`/`rateLimitExceeded`, which counts as rate limiting.
 */
function failForYoutubeError(response: OutboundResponse): never {
  let message = `HTTP ${response.status}`;
  let reasons: string[] = [];
  try {
    const error = asRecord(asRecord(response.json())?.error);
    message = `HTTP ${response.status}: ${asString(error?.message) ?? 'error'}`;
    reasons = asArray(error?.errors)
      .map((item) => asString(asRecord(item)?.reason))
      .filter((reason): reason is string => !!reason);
  } catch {
    // not JSON
  }
  const limited =
    response.status === 429 ||
    reasons.some((reason) =>
      [
        'quotaExceeded',
        'rateLimitExceeded',
        'userRateLimitExceeded',
        'dailyLimitExceeded',
      ].includes(reason),
    );
  if (reasons.length > 0) message += ` (${reasons.join(', ')})`;
  throw new ProviderError(
    'youtube',
    limited ? 'rate_limited' : 'upstream',
    message,
    response.status,
  );
}

/** `publishedAfter` / `publishedBefore` (RFC 3339) for a year range. */
function youtubeDateParams(filters: SearchFilters = {}): {
  publishedAfter?: string;
  publishedBefore?: string;
} {
  return {
    ...(filters.yearFrom !== undefined
      ? { publishedAfter: `${String(filters.yearFrom).padStart(4, '0')}-01-01T00:00:00Z` }
      : {}),
    ...(filters.yearTo !== undefined
      ? { publishedBefore: `${String(filters.yearTo + 1).padStart(4, '0')}-01-01T00:00:00Z` }
      : {}),
  };
}

function requireKey(api: ProviderApi): string {
  if (!api.apiKey) throw new ProviderError('youtube', 'upstream', 'No YouTube API key configured');
  return api.apiKey;
}

async function fetchVideos(
  api: ProviderApi,
  ids: string[],
  signal?: AbortSignal,
  deadlineAt?: number,
): Promise<Map<string, VideoSnippet>> {
  const url = api.url('/videos', { part: 'snippet', id: ids.join(','), key: requireKey(api) });
  const response = await api.upstream.get(url, { signal, deadlineAt });
  if (response.status !== 200) failForYoutubeError(response);
  return parseYoutubeVideos(readJson<unknown>('youtube', response));
}

export const createYoutubeProvider = defineProvider({
  id: 'youtube',
  name: 'YouTube',
  description: 'Educational videos: lectures, talks and tutorials (needs a YouTube Data API key).',
  rate: { requestsPerSecond: YOUTUBE_REQUESTS_PER_SECOND, maxConcurrency: 2 },
  accept: 'application/json',
  requestsPerSearch: 2,
  isEnabled: ({ apiKey }) => !!apiKey,

  async search(api, query, { limit, signal, deadlineAt, filters }): Promise<ProviderSearchAnswer> {
    // Videos have no PDF and are of one type: such filters need no request.
    if (filters?.hasPdf || (filters?.type && filters.type !== 'video'))
      return { records: [], total: 0 };
    const url = api.url('/search', {
      part: 'snippet',
      type: 'video',
      q: query,
      maxResults: Math.min(Math.max(1, limit), MAX_RESULTS),
      safeSearch: 'moderate',
      ...youtubeDateParams(filters),
      key: requireKey(api),
    });
    const response = await api.upstream.get(url, { signal, deadlineAt, leadsToFollowUp: true });
    if (response.status !== 200) failForYoutubeError(response);
    const { hits, total } = parseYoutubeSearch(readJson<unknown>('youtube', response));
    if (hits.length === 0) return { records: [], total };
    // search.list truncates descriptions; videos.list has them whole. Without it the snippets still serve.
    let details = new Map<string, VideoSnippet>();
    try {
      details = await fetchVideos(
        api,
        hits.map((hit) => hit.videoId),
        signal,
        deadlineAt,
      );
    } catch (error) {
      if (error instanceof ProviderError && (error.kind === 'aborted' || error.kind === 'timeout'))
        throw error;
    }
    const records = hits.map((hit) => {
      const detail = details.get(hit.videoId);
      return youtubeVideoToRecord(
        hit.videoId,
        detail ? preferDetail(hit.snippet, detail) : hit.snippet,
      );
    });
    return { records, total };
  },

  async lookup(api, nativeId, { signal, deadlineAt }) {
    const videoId = nativeId.trim();
    if (!VIDEO_ID.test(videoId) || !api.apiKey) return null;
    const videos = await fetchVideos(api, [videoId], signal, deadlineAt);
    const snippet = videos.get(videoId);
    return snippet ? youtubeVideoToRecord(videoId, snippet) : null;
  },
});
