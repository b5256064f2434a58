/**
 * The summary of one search result or kept resource, streamed from GET /api/summarize through an EventSource.
 * Events: meta {fromCache, modeUsed…}, progress {stage} (deep), tldr, bullets, tags, done, and on
 * failure one `error` {message, code, retryAfter?} (the rate limit's refusal too: stream-error.ts).
 * The stream is closed on `done`, on `error`, and when the caller stops listening (closing the
 * dialog): the server sees the connection go and stops the work. A connection that fails before any
 * event is tried once more after refreshing the session (an expired access cookie answers 401, which
 * an EventSource cannot show), then reported.
 */
import { useEffect, useState } from 'react';
import { refreshSession } from '../../../api/client';
import type { SearchResult } from '../../../api/types';
import { eventData } from '../../../lib/event-data';
import { streamErrorMessage } from '../stream-error';

export type SummaryMode = 'quick' | 'deep' | 'auto';
export type ProgressStage = 'fetching' | 'extracting' | 'summarizing';

export interface SummaryState {
  /** The mode this stream was asked for: for a render or two after a change, the state is still the last mode's. */
  mode: SummaryMode | null;
  status: 'streaming' | 'done' | 'failed';
  fromCache: false | 'kv' | 'memory' | null;
  modeUsed: 'quick' | 'deep' | null;
  stages: ProgressStage[];
  tldr: string | null;
  bullets: string[] | null;
  tags: string[] | null;
  /** Why the stream failed: the server's `error` event, or a connection that could not be opened. */
  error: { message: string; fromServer: boolean } | null;
}

const INITIAL: SummaryState = {
  mode: null,
  status: 'streaming',
  fromCache: null,
  modeUsed: null,
  stages: [],
  tldr: null,
  bullets: null,
  tags: null,
  error: null,
};

/**
 * A resource kept in a workspace: summarised from what the service stores (its PDF's text for deep,
 * read from the database: no download), named by workspace and resource.
 */
export interface StoredResource {
  kind: 'stored';
  workspaceId: string;
  workspaceName: string;
  resourceId: string;
  title: string;
  /** Whether the reader may write its notes (owner or editor): `Save to notes` is offered then. */
  notesWritable: boolean;
}

/** What a summary is of: a search result, or a resource kept in a workspace. */
export type SummarySubject = SearchResult | StoredResource;

export const isStored = (subject: SummarySubject): subject is StoredResource =>
  'kind' in subject && subject.kind === 'stored';

function summaryUrl(subject: SummarySubject, mode: SummaryMode): string {
  if (isStored(subject)) {
    const params = new URLSearchParams({
      workspaceId: subject.workspaceId,
      resourceId: subject.resourceId,
      title: subject.title.slice(0, 1000),
      mode,
    });
    return `/api/summarize?${params.toString()}`;
  }
  const result = subject;
  const params = new URLSearchParams({
    id: result.id,
    source: result.provider,
    title: result.title,
    mode,
  });
  // The abstract travels in the URL: bounded so the request line stays well under server limits.
  if (result.abstract) params.set('abstract', result.abstract.slice(0, 4000));
  if (result.url) params.set('url', result.url);
  // A deep summary needs the PDF: what the result knows of it beyond its page, for the service to pick the best address.
  if (mode !== 'quick') {
    if (result.arxivId) params.set('arxivId', result.arxivId);
    if (result.pdfUrl) params.set('pdfUrl', result.pdfUrl);
    if (result.doi) params.set('doi', result.doi);
  }
  return `/api/summarize?${params.toString()}`;
}

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Streams the summary while `result` is set; `attempt` changes restart it (Try again). */
export function useSummaryStream(
  result: SummarySubject | null,
  mode: SummaryMode,
  attempt: number,
): SummaryState | null {
  const [state, setState] = useState<SummaryState | null>(null);
  useEffect(() => {
    if (!result) {
      setState(null);
      return;
    }
    let source: EventSource | null = null;
    let stopped = false;
    let retried = false;
    let received = false;
    const update = (change: Partial<SummaryState>) => {
      if (!stopped) setState((current) => ({ ...(current ?? INITIAL), ...change }));
    };
    const stop = () => {
      source?.close();
      source = null;
    };
    const open = () => {
      const stream = new EventSource(summaryUrl(result, mode), { withCredentials: true });
      source = stream;
      const on = (name: string, handle: (data: unknown) => void) =>
        stream.addEventListener(name, (event) => {
          received = true;
          handle(eventData(event));
        });
      on('meta', (data) => {
        const meta = (data ?? {}) as { fromCache?: unknown; modeUsed?: unknown };
        update({
          fromCache:
            meta.fromCache === 'kv' || meta.fromCache === 'memory' ? meta.fromCache : false,
          modeUsed: meta.modeUsed === 'deep' || meta.modeUsed === 'quick' ? meta.modeUsed : null,
        });
      });
      on('progress', (data) => {
        const stage = (data as { stage?: unknown } | null)?.stage;
        if (stage === 'fetching' || stage === 'extracting' || stage === 'summarizing') {
          setState((current) =>
            current && !current.stages.includes(stage)
              ? { ...current, stages: [...current.stages, stage] }
              : current,
          );
        }
      });
      on('tldr', (data) => update({ tldr: typeof data === 'string' ? data : '' }));
      on('bullets', (data) => update({ bullets: stringsOf(data) }));
      on('tags', (data) => update({ tags: stringsOf(data) }));
      on('done', () => {
        stop();
        update({ status: 'done' });
      });
      stream.addEventListener('error', (event) => {
        // The server's `error` event carries data; a failed connection is a plain Event.
        if (event instanceof MessageEvent && typeof event.data === 'string') {
          stop();
          update({
            status: 'failed',
            error: { message: streamErrorMessage(eventData(event)), fromServer: true },
          });
          return;
        }
        stop();
        if (stopped) return;
        if (!received && !retried) {
          retried = true;
          void refreshSession().then((renewed) => {
            if (stopped) return;
            if (renewed) open();
            else
              update({
                status: 'failed',
                error: {
                  message: 'Your session has ended. Sign in again to summarise.',
                  fromServer: false,
                },
              });
          });
          return;
        }
        update({
          status: 'failed',
          error: {
            message:
              'The summary stream could not be opened or was cut off. Try again in a moment.',
            fromServer: false,
          },
        });
      });
    };
    setState({ ...INITIAL, mode });
    open();
    return () => {
      stopped = true;
      stop();
    };
  }, [result, mode, attempt]);
  return state;
}
