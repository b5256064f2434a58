/**
 * An alert and its runs in words (pure, so that they are tested without a browser): which sources and
 * filters it follows, what a run found, whether its e-mail went out, which source let a run down, and
 * how often the page asks about a run under way.
 */
import { describeFilters, isProviderId, PROVIDER_NAMES } from '../../lib/search-words';
import { plural } from '../../lib/plural';
import { searchFiltersOf, type Alert, type AlertFrequency, type AlertRun } from './api/alerts';

export const FREQUENCY_LABELS: Record<AlertFrequency, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
};
/** For a sentence: "e-mails you daily". */
export const FREQUENCY_ADVERBS: Record<AlertFrequency, string> = {
  daily: 'daily',
  weekly: 'weekly',
};

function providerName(id: string): string {
  return isProviderId(id) ? PROVIDER_NAMES[id] : id;
}

/** "All sources", or the chosen ones by name ("arXiv and PubMed"). */
export function describeSources(providers: Alert['providers']): string {
  if (!providers || providers.length === 0) return 'All sources';
  const names = providers.map(providerName);
  if (names.length === 1) return names[0]!;
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
}

/** The alert's filters as one phrase ("Published in or after 2023, Article"); "No filters" without any. */
export function describeAlertFilters(filters: Alert['filters']): string {
  const phrases = describeFilters(searchFiltersOf(filters));
  return phrases.length > 0 ? phrases.join(', ') : 'No filters';
}

/** Whether a run has still to finish (the page keeps asking about it). */
function isRunActive(run: Pick<AlertRun, 'status'>): boolean {
  return run.status === 'queued' || run.status === 'running';
}

/** The sources that gave a run nothing (failed, timed out, rate limited), by name. */
export function failedSources(run: Pick<AlertRun, 'providers'>): string[] {
  return run.providers
    .filter((provider) => provider.status !== 'ok' && provider.status !== 'disabled')
    .map((provider) => providerName(provider.id));
}

/** What a run did, as a sentence: "Waiting to start.", "Searching…", "3 new of 12 found.", "Partly: Semantic Scholar failed; 1 new of 4 found." */
export function describeRun(
  run: Pick<AlertRun, 'status' | 'found' | 'newCount' | 'providers'>,
): string {
  switch (run.status) {
    case 'queued':
      return 'Waiting to start…';
    case 'running':
      return 'Searching the sources…';
    case 'failed': {
      const failed = failedSources(run);
      return failed.length > 0
        ? `Failed: ${failed.join(', ')} did not answer. The next run tries again.`
        : 'Failed. The next run tries again.';
    }
    case 'partial':
      return `Partly done: ${failedSources(run).join(', ') || 'a source'} did not answer (the next run catches up). ${describeFound(run)}`;
    case 'done':
      return describeFound(run);
  }
}

function describeFound(run: Pick<AlertRun, 'found' | 'newCount'>): string {
  if (run.newCount === 0)
    return `Nothing new (${plural(run.found, 'result')} found, all seen before).`;
  return `${plural(run.newCount, 'new result')} of ${run.found} found.`;
}

const MAIL_WORDS: Record<AlertRun['mail'], string> = {
  none: 'No e-mail',
  pending: 'E-mail being sent…',
  sent: 'E-mail sent',
  failed: 'The e-mail could not be sent',
};

/** Whether the run's digest went out: "E-mail sent", "No e-mail (nothing new)", … */
export function describeMail(run: Pick<AlertRun, 'mail' | 'newCount' | 'status'>): string {
  if (run.mail === 'none')
    return isRunActive(run)
      ? 'No e-mail yet'
      : run.newCount === 0
        ? 'No e-mail (nothing new)'
        : MAIL_WORDS.none;
  return MAIL_WORDS[run.mail];
}

export const RUN_REASON_LABELS: Record<AlertRun['reason'], string> = {
  schedule: 'Scheduled',
  manual: 'Run now',
};

/** While a run is under way the page asks about it this often; its e-mail, for a minute after it finished. */
const ACTIVE_POLL_MS = 1000;
const MAIL_POLL_MS = 2000;
const MAIL_WAIT_MS = 60_000;

/**
 * How long until the page asks about a run again (TanStack Query's refetchInterval), or false to stop:
 * a run queued or running is asked about every second; a finished one whose e-mail is still going out,
 * every two for a minute (a send that fails is retried later, with backoff, and the page stops asking).
 */
export function runPollInterval(
  run: Pick<AlertRun, 'status' | 'mail' | 'finishedAt'> | undefined,
  now = Date.now(),
): number | false {
  if (!run) return false;
  if (isRunActive(run)) return ACTIVE_POLL_MS;
  if (run.mail !== 'pending' || !run.finishedAt) return false;
  return now - Date.parse(run.finishedAt) < MAIL_WAIT_MS ? MAIL_POLL_MS : false;
}
