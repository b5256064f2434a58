/**
 * Analytics: the user's searches in a period (top queries, topics) and saved resources (categories,
 * reading time). Every number is on the page as text (tables and figures); the charts (plain SVG)
 * draw the same data.
 */
import * as Tabs from '@radix-ui/react-tabs';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { queries } from '../../api/client';
import { useReaderLocale } from '../../lib/profile';
import type { components } from '../../api/schema';
import { Page } from '../../components/Page';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { formatDateTime } from '../../lib/dates';
import { BarChart } from './BarChart';

type SearchAnalytics = components['schemas']['SearchAnalytics'];
type ResourceAnalytics = components['schemas']['ResourceAnalytics'];
export type Period = SearchAnalytics['period'];
const PERIODS: Array<{ value: Period; label: string; span: string }> = [
  { value: 'day', label: 'Day', span: 'the last 24 hours' },
  { value: 'week', label: 'Week', span: 'the last 7 days' },
  { value: 'month', label: 'Month', span: 'the last 30 days' },
  { value: 'year', label: 'Year', span: 'the last 365 days' },
];
const SEARCHES = { one: 'search', other: 'searches' };
const isPeriod = (value: string | null): value is Period =>
  PERIODS.some((period) => period.value === value);

function formatMinutes(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${minutes % 60} min`;
}

function SearchSection({ period }: { period: Period }) {
  const span = PERIODS.find((entry) => entry.value === period)?.span ?? '';
  const query = queries.useQuery('get', '/api/analytics/search', { params: { query: { period } } });
  const language = useReaderLocale();
  const topQueries = useMemo(
    () =>
      (query.data?.searches ?? [])
        .slice(0, 10)
        .map((search) => ({ label: search.query, value: search.count })),
    [query.data],
  );
  // Counted by the server, from the queries with their stopwords removed, as it found the topics.
  const topics = useMemo(
    () =>
      (query.data?.topicCounts ?? []).map((entry) => ({ label: entry.topic, value: entry.count })),
    [query.data],
  );
  if (query.isPending) return <LoadingState label="Loading your searches…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data;
  return (
    <section aria-labelledby="analytics-searches" className="card analytics-section">
      <h2 id="analytics-searches">Searches</h2>
      <p className="figure">
        <strong data-testid="total-searches">{data.totalSearches}</strong>{' '}
        {data.totalSearches === 1 ? 'search' : 'searches'} in {span}
      </p>
      {data.searches.length === 0 ? (
        <EmptyState title="No searches in this period">
          Search from the Search page; your queries are counted here.
        </EmptyState>
      ) : (
        <div className="analytics-grid">
          <div>
            <h3>Top queries</h3>
            <table className="table">
              <caption className="visually-hidden">Top queries in {span}</caption>
              <thead>
                <tr>
                  <th scope="col">Query</th>
                  <th scope="col" className="number">
                    Searches
                  </th>
                  <th scope="col">Last searched</th>
                </tr>
              </thead>
              <tbody>
                {data.searches.slice(0, 10).map((search) => (
                  <tr key={search.query}>
                    <td>{search.query}</td>
                    <td className="number">{search.count}</td>
                    <td>
                      <time dateTime={search.lastSearched}>
                        {formatDateTime(search.lastSearched, language)}
                      </time>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <BarChart title="Top queries" bars={topQueries} unit={SEARCHES} />
          </div>
          <div>
            <h3 id={`topics-${period}`}>Popular topics</h3>
            {topics.length === 0 ? (
              <p>No recurring topics yet.</p>
            ) : (
              <>
                <ol className="topic-list" aria-labelledby={`topics-${period}`}>
                  {topics.map((topic) => (
                    <li key={topic.label}>
                      {topic.label}{' '}
                      <span className="muted">
                        ({topic.value} {topic.value === 1 ? 'search' : 'searches'})
                      </span>
                    </li>
                  ))}
                </ol>
                <BarChart title="Popular topics" bars={topics} unit={SEARCHES} />
              </>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function ResourceSection() {
  const query = queries.useQuery('get', '/api/analytics/resources');
  if (query.isPending) return <LoadingState label="Loading your saved resources…" />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const data: ResourceAnalytics = query.data;
  const categories = data.topCategories.map((entry) => ({
    label: entry.category,
    value: entry.count,
  }));
  return (
    <section aria-labelledby="analytics-resources" className="card analytics-section">
      <h2 id="analytics-resources">Saved resources</h2>
      <dl className="stats">
        <div>
          <dt>Saved</dt>
          <dd data-testid="saved-resources">{data.savedResources}</dd>
        </div>
        <div>
          <dt>Shared</dt>
          <dd data-testid="shared-resources">{data.sharedResources}</dd>
        </div>
        <div>
          <dt>Reading time</dt>
          <dd data-testid="reading-time">{formatMinutes(data.readingTime)}</dd>
        </div>
      </dl>
      <h3>Categories</h3>
      {categories.length === 0 ? (
        <p>Nothing saved yet: save results from the Search page into a workspace.</p>
      ) : (
        <>
          <table className="table">
            <caption className="visually-hidden">Saved resources by category</caption>
            <thead>
              <tr>
                <th scope="col">Category</th>
                <th scope="col" className="number">
                  Resources
                </th>
              </tr>
            </thead>
            <tbody>
              {categories.map((category) => (
                <tr key={category.label}>
                  <td>{category.label}</td>
                  <td className="number">{category.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <BarChart
            title="Saved resources by category"
            bars={categories}
            unit={{ one: 'resource', other: 'resources' }}
          />
        </>
      )}
    </section>
  );
}

export function AnalyticsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('period');
  const period: Period = isPeriod(requested) ? requested : 'month';
  return (
    <Page title="Analytics">
      <Tabs.Root
        value={period}
        onValueChange={(value) =>
          setParams(value === 'month' ? {} : { period: value }, { replace: true })
        }
        activationMode="manual"
      >
        <Tabs.List className="tabs-list" aria-label="Period">
          {PERIODS.map((entry) => (
            <Tabs.Trigger key={entry.value} value={entry.value} className="tabs-trigger">
              {entry.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {PERIODS.map((entry) => (
          <Tabs.Content key={entry.value} value={entry.value} className="tabs-content">
            <SearchSection period={entry.value} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
      <ResourceSection />
    </Page>
  );
}
