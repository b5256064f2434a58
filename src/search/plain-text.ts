/**
 * The last step of every provider answer (search and lookup): its text fields are plain text, as
 * users' text is (platform/sanitize). A provider's markup is already turned into text by its parser,
 * but entities decoded there can spell markup (`&lt;script&gt;` in an abstract, `&amp;lt;i&amp;gt;`
 * in a Crossref title); what an HTML parser would read as markup is stripped.
 */
import { containsMarkup, stripHtml } from '../platform/sanitize.js';
import type { SearchRecord } from './types.js';

const plain = (text: string): string => (containsMarkup(text) ? stripHtml(text) : text);

export function plainTextRecord(record: SearchRecord): SearchRecord {
  const fields = [record.title, record.abstract, record.venue ?? '', ...record.authors];
  if (!fields.some(containsMarkup)) return record;
  return {
    ...record,
    title: plain(record.title),
    abstract: plain(record.abstract),
    authors: record.authors.map(plain).filter(Boolean),
    ...(record.venue === undefined ? {} : { venue: plain(record.venue) }),
  };
}
