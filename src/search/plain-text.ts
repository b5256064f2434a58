/**
 * The last step of every provider answer (search and lookup): its text fields are plain text, as
 * users' text is (platform/sanitize). A provider's markup is already turned into text by its parser,
 * but entities decoded there can spell markup (`&lt;script&gt;` in an abstract, `&amp;lt;i&amp;gt;`
 * in a Crossref title); what an HTML parser would read as markup is stripped. The bibliographic
 * details' texts (names, venue, publisher, …) are cleaned the same way.
 */
import type { Creator } from '../records/index.js';
import { containsMarkup, stripHtml } from '../platform/sanitize.js';
import { DETAIL_TEXT_FIELDS, type BibliographicDetails, type SearchRecord } from './types.js';

const plain = (text: string): string => (containsMarkup(text) ? stripHtml(text) : text);

const NAME_PARTS = [
  'family',
  'given',
  'droppingParticle',
  'nonDroppingParticle',
  'suffix',
  'literal',
] as const;

function detailTexts(details: BibliographicDetails | undefined): string[] {
  if (!details) return [];
  const names = (details.creators ?? []).flatMap((creator) =>
    NAME_PARTS.map((part) => creator[part] ?? ''),
  );
  return [...names, ...DETAIL_TEXT_FIELDS.map((field) => details[field] ?? '')];
}

function plainCreator(creator: Creator): Creator | null {
  const cleaned: Creator = { role: creator.role };
  for (const part of NAME_PARTS) {
    const text = creator[part] === undefined ? undefined : plain(creator[part]);
    if (text) cleaned[part] = text;
  }
  return cleaned.literal || cleaned.family || cleaned.given ? cleaned : null;
}

function plainDetails(details: BibliographicDetails): BibliographicDetails {
  const cleaned: BibliographicDetails = { ...details };
  if (details.creators) {
    cleaned.creators = details.creators
      .map(plainCreator)
      .filter((creator): creator is Creator => !!creator);
  }
  for (const field of DETAIL_TEXT_FIELDS) {
    const text = details[field] === undefined ? undefined : plain(details[field]);
    if (text) cleaned[field] = text;
    else delete cleaned[field];
  }
  return cleaned;
}

export function plainTextRecord(record: SearchRecord): SearchRecord {
  const fields = [
    record.title,
    record.abstract,
    record.venue ?? '',
    ...record.authors,
    ...detailTexts(record.details),
  ];
  if (!fields.some(containsMarkup)) return record;
  return {
    ...record,
    title: plain(record.title),
    abstract: plain(record.abstract),
    authors: record.authors.map(plain).filter(Boolean),
    ...(record.venue === undefined ? {} : { venue: plain(record.venue) }),
    ...(record.details === undefined ? {} : { details: plainDetails(record.details) }),
  };
}
