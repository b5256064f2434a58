import { describe, expect, it } from 'vitest';
import type { AlertRun } from './api/alerts';
import { alertFiltersOf, newAlertOf, searchFiltersOf } from './api/alerts';
import {
  describeAlertFilters,
  describeMail,
  describeRun,
  describeSources,
  failedSources,
  runPollInterval,
} from './alert-words';

const NONE = { yearFrom: null, yearTo: null, hasPdf: false, type: null, venue: '' };
const run = (over: Partial<AlertRun> = {}): AlertRun => ({
  id: 'r1',
  alertId: 'a1',
  status: 'done',
  reason: 'manual',
  createdAt: '2026-11-27T20:59:00Z',
  startedAt: '2026-11-27T20:59:01Z',
  finishedAt: '2026-11-27T20:59:03Z',
  found: 12,
  newCount: 3,
  providers: [{ id: 'arxiv', status: 'ok', count: 12 }],
  mail: 'sent',
  ...over,
});

describe('an alert in words', () => {
  it('says its sources and filters', () => {
    expect(describeSources(null)).toBe('All sources');
    expect(describeSources(['arxiv'])).toBe('arXiv');
    expect(describeSources(['arxiv', 'pubmed', 'semanticscholar'])).toBe(
      'arXiv, PubMed and Semantic Scholar',
    );
    expect(describeAlertFilters(null)).toBe('No filters');
    expect(describeAlertFilters({ yearFrom: 2023, type: 'article', hasPdf: true })).toBe(
      'Published in or after 2023, With a free PDF, Article',
    );
  });

  it('keeps only the filters that are set, and reads them back the same', () => {
    expect(alertFiltersOf(NONE)).toBeNull();
    const filters = {
      yearFrom: 2019,
      yearTo: 2021,
      hasPdf: true,
      type: 'dataset' as const,
      venue: 'Nature',
    };
    expect(alertFiltersOf(filters)).toEqual(filters);
    expect(searchFiltersOf(alertFiltersOf(filters))).toEqual(filters);
    expect(searchFiltersOf(null)).toEqual(NONE);
    expect(newAlertOf({ query: 'graphs', providers: null, filters: NONE }, 'weekly')).toEqual({
      query: 'graphs',
      frequency: 'weekly',
    });
    expect(
      newAlertOf(
        { query: 'graphs', providers: ['arxiv'], filters: { ...NONE, yearFrom: 2020 } },
        'daily',
      ),
    ).toEqual({
      query: 'graphs',
      frequency: 'daily',
      providers: ['arxiv'],
      filters: { yearFrom: 2020 },
    });
  });
});

describe('a run in words', () => {
  it('says what it found, and nothing new as such', () => {
    expect(describeRun(run({ status: 'queued' }))).toBe('Waiting to start…');
    expect(describeRun(run({ status: 'running' }))).toBe('Searching the sources…');
    expect(describeRun(run())).toBe('3 new results of 12 found.');
    expect(describeRun(run({ newCount: 1, found: 1 }))).toBe('1 new result of 1 found.');
    expect(describeRun(run({ newCount: 0 }))).toBe(
      'Nothing new (12 results found, all seen before).',
    );
  });

  it('names the source that let a partial or failed run down', () => {
    const providers: AlertRun['providers'] = [
      { id: 'arxiv', status: 'ok', count: 12 },
      { id: 'semanticscholar', status: 'timeout', count: 0 },
      { id: 'youtube', status: 'disabled', count: 0 },
    ];
    expect(failedSources({ providers })).toEqual(['Semantic Scholar']);
    expect(describeRun(run({ status: 'partial', providers }))).toBe(
      'Partly done: Semantic Scholar did not answer (the next run catches up). 3 new results of 12 found.',
    );
    expect(describeRun(run({ status: 'failed', providers, newCount: 0, found: 0 }))).toBe(
      'Failed: Semantic Scholar did not answer. The next run tries again.',
    );
  });

  it('says whether its e-mail went out', () => {
    expect(describeMail({ mail: 'sent', newCount: 3, status: 'done' })).toBe('E-mail sent');
    expect(describeMail({ mail: 'none', newCount: 0, status: 'done' })).toBe(
      'No e-mail (nothing new)',
    );
    expect(describeMail({ mail: 'none', newCount: 0, status: 'running' })).toBe('No e-mail yet');
    expect(describeMail({ mail: 'failed', newCount: 2, status: 'done' })).toBe(
      'The e-mail could not be sent',
    );
  });

  it('is asked about while it runs and while its e-mail goes out, for a minute at most', () => {
    const now = Date.parse('2026-11-27T21:00:00Z');
    expect(runPollInterval(undefined, now)).toBe(false);
    expect(runPollInterval({ status: 'queued', mail: 'none', finishedAt: null }, now)).toBe(1000);
    expect(runPollInterval({ status: 'running', mail: 'none', finishedAt: null }, now)).toBe(1000);
    expect(
      runPollInterval({ status: 'done', mail: 'sent', finishedAt: '2026-11-27T20:59:59Z' }, now),
    ).toBe(false);
    expect(
      runPollInterval({ status: 'done', mail: 'pending', finishedAt: '2026-11-27T20:59:30Z' }, now),
    ).toBe(2000);
    expect(
      runPollInterval(
        { status: 'partial', mail: 'pending', finishedAt: '2026-11-27T20:58:00Z' },
        now,
      ),
    ).toBe(false);
  });
});
