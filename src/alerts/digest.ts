/**
 * The digest of one alert run: the new works it found (title, authors, venue, year, a link, and "Save"
 * and "Summarize" links into the app), with RFC 8058 one-click unsubscribe headers. Its words only:
 * platform/mail renders the text and HTML parts and escapes every value. Pure: the digest job hands
 * it to the mailer.
 */
import { composeMail, type MailLine, type MailMessage } from '../platform/mail/index.js';
import type { AlertFrequency } from '../platform/db/schema.js';

/** A new work as a run keeps it for its digest (fixed when the run ends, so a retried send says the same). */
export interface DigestWork {
  id: string;
  title: string;
  authors: string[];
  venue?: string;
  year: number | null;
  url: string;
  doi?: string;
  arxivId?: string;
}

export interface DigestInput {
  runId: string;
  to: string;
  query: string;
  frequency: AlertFrequency;
  works: DigestWork[];
  /** New works in all; the digest lists at most `works`. */
  newCount: number;
  /** The alert's sources (null: every one) and filters (null: none): "…and N more" searches with them. */
  providers: string[] | null;
  filters: DigestFilters | null;
  unsubscribeToken: string;
  appOrigin: string;
  publicUrl: string;
}

/** An alert's filters as stored (alerts/schemas.ts, AlertFilters). */
export interface DigestFilters {
  yearFrom?: number;
  yearTo?: number;
  hasPdf?: boolean;
  type?: string;
  venue?: string;
}

const MAX_AUTHORS = 6;

/**
 * The app's search page with the alert's query, sources and filters, in the parameters the search page
 * reads (web/src/features/search/search-state.ts: readSearchState), so that it shows what the alert saw.
 */
function alertSearchPage(input: DigestInput): string {
  const params = new URLSearchParams({ q: input.query });
  if (input.providers && input.providers.length > 0)
    params.set('providers', input.providers.join(','));
  const filters = input.filters ?? {};
  if (filters.yearFrom !== undefined) params.set('yearFrom', String(filters.yearFrom));
  if (filters.yearTo !== undefined) params.set('yearTo', String(filters.yearTo));
  if (filters.hasPdf) params.set('hasPdf', 'true');
  if (filters.type) params.set('type', filters.type);
  if (filters.venue) params.set('venue', filters.venue);
  return `${input.appOrigin}/dashboard?${params.toString()}`;
}

/** What the app's search box is given to find this work again: its DOI or arXiv id, else its title. */
const searchTermOf = (work: DigestWork) =>
  work.doi ?? (work.arxivId ? `arXiv:${work.arxivId}` : work.title);

/** The app's search page opened on this work, saying what the reader came to do (`action`). */
const appLink = (appOrigin: string, work: DigestWork, action: 'save' | 'summarize') =>
  `${appOrigin}/dashboard?${new URLSearchParams({ q: searchTermOf(work), action }).toString()}`;

function byline(work: DigestWork): string {
  const authors =
    work.authors.length > MAX_AUTHORS
      ? `${work.authors.slice(0, MAX_AUTHORS).join(', ')} et al.`
      : work.authors.join(', ');
  return [authors, work.venue, work.year === null ? undefined : String(work.year)]
    .filter(Boolean)
    .join(' · ');
}

export function composeDigest(input: DigestInput): MailMessage {
  const { appOrigin, works } = input;
  const quoted = `"${input.query}"`;
  const subject = `${input.newCount} new ${input.newCount === 1 ? 'result' : 'results'} for ${quoted}`;
  const unsubscribePage = `${appOrigin}/alerts/unsubscribe/${input.unsubscribeToken}`;
  const oneClick = `${input.publicUrl}/api/alerts/unsubscribe/${input.unsubscribeToken}`;
  const more = input.newCount - works.length;
  const searchPage = alertSearchPage(input);

  // Each work: its title (a link to it where the provider gave an http(s) address), its byline, and
  // the app's Save and Summarize links.
  const items = works.map((work): MailLine[] => {
    const lines: Array<MailLine | null> = [
      [{ text: work.title, href: work.url, strong: true }],
      byline(work) || null,
      [
        { text: 'Save', href: appLink(appOrigin, work, 'save') },
        ' · ',
        { text: 'Summarize', href: appLink(appOrigin, work, 'summarize') },
      ],
    ];
    return lines.filter((line): line is MailLine => line !== null);
  });

  return composeMail({
    purpose: 'alert-digest',
    to: input.to,
    subject,
    blocks: [
      ['New since the last ', input.frequency, ' run of your alert ', { strong: quoted }, ':'],
      { list: items, ordered: true },
      ...(more > 0 ? [[{ text: `…and ${more} more`, href: searchPage }]] : []),
      [
        { text: 'Your alerts', href: `${appOrigin}/alerts` },
        ' · ',
        { text: 'Unsubscribe from this alert', href: unsubscribePage },
      ],
    ],
    messageId: `<alert-run-${input.runId}@${new URL(input.publicUrl).hostname}>`,
    headers: {
      'List-Unsubscribe': `<${oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}
