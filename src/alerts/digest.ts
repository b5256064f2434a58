/**
 * The digest of one alert run: the new works it found (title, authors, venue, year, a link, and "Save"
 * and "Summarize" links into the app), in a text and an HTML part, every value escaped, with RFC 8058
 * one-click unsubscribe headers. Pure: the digest job hands it to the mailer.
 */
import { escapeHtml } from '../platform/sanitize.js';
import type { MailMessage } from '../platform/mail.js';
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
  unsubscribeToken: string;
  appOrigin: string;
  publicUrl: string;
}

const MAX_AUTHORS = 6;

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

/** Only http(s) links go into the HTML part; anything else a provider sent is left as text. */
const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

export function composeDigest(input: DigestInput): MailMessage {
  const { appOrigin, works } = input;
  const quoted = `"${input.query}"`;
  const subject = `${input.newCount} new ${input.newCount === 1 ? 'result' : 'results'} for ${quoted}`;
  const unsubscribePage = `${appOrigin}/alerts/unsubscribe/${input.unsubscribeToken}`;
  const oneClick = `${input.publicUrl}/api/alerts/unsubscribe/${input.unsubscribeToken}`;
  const alertsPage = `${appOrigin}/alerts`;
  const more = input.newCount - works.length;
  const searchPage = `${appOrigin}/dashboard?${new URLSearchParams({ q: input.query }).toString()}`;

  const textItems = works.map((work, index) =>
    [
      `${index + 1}. ${work.title}`,
      byline(work) ? `   ${byline(work)}` : null,
      `   Open: ${work.url}`,
      `   Save: ${appLink(appOrigin, work, 'save')}`,
      `   Summarize: ${appLink(appOrigin, work, 'summarize')}`,
    ]
      .filter((line) => line !== null)
      .join('\n'),
  );
  const text = [
    `New since the last ${input.frequency === 'daily' ? 'daily' : 'weekly'} run of your alert ${quoted}:`,
    '',
    textItems.join('\n\n'),
    more > 0 ? `\n…and ${more} more: ${searchPage}` : null,
    '',
    `Your alerts: ${alertsPage}`,
    `Unsubscribe from this alert: ${unsubscribePage}`,
  ]
    .filter((line) => line !== null)
    .join('\n');

  const htmlItems = works.map((work) => {
    const href = safeHref(work.url);
    const title = href
      ? `<a href="${escapeHtml(href)}">${escapeHtml(work.title)}</a>`
      : escapeHtml(work.title);
    const line = byline(work);
    return (
      `<li><p><strong>${title}</strong>${line ? `<br>${escapeHtml(line)}` : ''}<br>` +
      `<a href="${escapeHtml(appLink(appOrigin, work, 'save'))}">Save</a> · <a href="${escapeHtml(appLink(appOrigin, work, 'summarize'))}">Summarize</a></p></li>`
    );
  });
  const html = [
    `<p>New since the last ${input.frequency} run of your alert <strong>${escapeHtml(quoted)}</strong>:</p>`,
    `<ol>${htmlItems.join('')}</ol>`,
    more > 0 ? `<p><a href="${escapeHtml(searchPage)}">…and ${more} more</a></p>` : '',
    `<p><a href="${escapeHtml(alertsPage)}">Your alerts</a> · <a href="${escapeHtml(unsubscribePage)}">Unsubscribe from this alert</a></p>`,
  ].join('\n');

  return {
    to: input.to,
    subject,
    text,
    html,
    messageId: `<alert-run-${input.runId}@${new URL(input.publicUrl).hostname}>`,
    headers: {
      'List-Unsubscribe': `<${oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
