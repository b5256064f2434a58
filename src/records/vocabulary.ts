/**
 * The words of a bibliographic record: CSL 1.0.2's item types, name roles and variables
 * (https://docs.citationstyles.org/en/stable/specification.html#appendix-iv-variables), each with
 * the name it has in this service's JSON (camelCase; identifiers lower-case: `doi`, `isbn`, `url`).
 */

/**
 * Item types: CSL 1.0.2's, with its generic `article` called `preprint` here (what Zotero and CSL
 * 1.0.2 writers mean by it; CSL-JSON reads and writes `article`). `article` in a request is the
 * older name of `article-journal` (LEGACY_TYPES).
 */
export const RECORD_TYPES = [
  'article-journal',
  'article-magazine',
  'article-newspaper',
  'bill',
  'book',
  'broadcast',
  'chapter',
  'classic',
  'collection',
  'dataset',
  'document',
  'entry',
  'entry-dictionary',
  'entry-encyclopedia',
  'event',
  'figure',
  'graphic',
  'hearing',
  'interview',
  'legal_case',
  'legislation',
  'manuscript',
  'map',
  'motion_picture',
  'musical_score',
  'pamphlet',
  'paper-conference',
  'patent',
  'performance',
  'periodical',
  'personal_communication',
  'post',
  'post-weblog',
  'preprint',
  'regulation',
  'report',
  'review',
  'review-book',
  'software',
  'song',
  'speech',
  'standard',
  'thesis',
  'treaty',
  'webpage',
] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Names the service used before records were CSL-typed, and what they are now. */
export const LEGACY_TYPES: Readonly<Record<string, RecordType>> = {
  article: 'article-journal',
  'journal-article': 'article-journal',
  paper: 'article-journal',
  conference: 'paper-conference',
  'conference-paper': 'paper-conference',
  proceedings: 'paper-conference',
  'book-chapter': 'chapter',
  dissertation: 'thesis',
  video: 'motion_picture',
  website: 'webpage',
  blog: 'post-weblog',
};

/** Name roles: CSL 1.0.2's name variables. */
export const CREATOR_ROLES = [
  'author',
  'chair',
  'collection-editor',
  'compiler',
  'composer',
  'container-author',
  'contributor',
  'curator',
  'director',
  'editor',
  'editorial-director',
  'editor-translator',
  'executive-producer',
  'guest',
  'host',
  'illustrator',
  'interviewer',
  'narrator',
  'organizer',
  'original-author',
  'performer',
  'producer',
  'recipient',
  'reviewed-author',
  'script-writer',
  'series-creator',
  'translator',
] as const;
export type CreatorRole = (typeof CREATOR_ROLES)[number];

/**
 * Text variables by their name here, with their CSL name. `title` and `URL` are not here: a
 * resource keeps them in its own `title` and `url`; `keyword` is its tags and `note` its notes.
 */
export const TEXT_VARIABLES = {
  abstract: 'abstract',
  annote: 'annote',
  archive: 'archive',
  archiveCollection: 'archive_collection',
  archiveLocation: 'archive_location',
  archivePlace: 'archive-place',
  authority: 'authority',
  callNumber: 'call-number',
  citationKey: 'citation-key',
  collectionTitle: 'collection-title',
  containerTitle: 'container-title',
  containerTitleShort: 'container-title-short',
  dimensions: 'dimensions',
  division: 'division',
  doi: 'DOI',
  eventTitle: 'event-title',
  eventPlace: 'event-place',
  genre: 'genre',
  isbn: 'ISBN',
  issn: 'ISSN',
  jurisdiction: 'jurisdiction',
  language: 'language',
  license: 'license',
  medium: 'medium',
  originalPublisher: 'original-publisher',
  originalPublisherPlace: 'original-publisher-place',
  originalTitle: 'original-title',
  partTitle: 'part-title',
  pmcid: 'PMCID',
  pmid: 'PMID',
  publisher: 'publisher',
  publisherPlace: 'publisher-place',
  references: 'references',
  reviewedGenre: 'reviewed-genre',
  reviewedTitle: 'reviewed-title',
  scale: 'scale',
  source: 'source',
  status: 'status',
  titleShort: 'title-short',
  volumeTitle: 'volume-title',
  // Number variables: kept as the text they were given ("12", "3-4", "2nd").
  chapterNumber: 'chapter-number',
  collectionNumber: 'collection-number',
  edition: 'edition',
  issue: 'issue',
  number: 'number',
  numberOfPages: 'number-of-pages',
  numberOfVolumes: 'number-of-volumes',
  pages: 'page',
  pageFirst: 'page-first',
  partNumber: 'part-number',
  printingNumber: 'printing-number',
  section: 'section',
  supplementNumber: 'supplement-number',
  /** CSL `version` (a resource's own `version` counts its changes): Zotero's name for it. */
  versionNumber: 'version',
  volume: 'volume',
} as const;
export type TextField = keyof typeof TEXT_VARIABLES;

/** Date variables by their name here, with their CSL name. */
export const DATE_VARIABLES = {
  issued: 'issued',
  accessed: 'accessed',
  availableDate: 'available-date',
  eventDate: 'event-date',
  originalDate: 'original-date',
  submitted: 'submitted',
} as const;
export type DateField = keyof typeof DATE_VARIABLES;

/** The CSL 1.0.2 `event` variable (deprecated in favour of `event-title`) is read as `eventTitle`. */
export const CSL_ALIASES: Readonly<Record<string, string>> = { event: 'event-title' };
