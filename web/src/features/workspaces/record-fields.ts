/**
 * What the item pane knows about a resource's record (docs/api.md, Records): the CSL types in words,
 * which fields each type shows (Zotero's item pane is the model), every other field "More fields"
 * offers, how a field's value is shown and sent, and the creators editor's steps (add, move, switch
 * between two fields and one). Pure functions: the components only draw them.
 */
import type { components } from '../../api/schema';

type Resource = components['schemas']['Resource'];
export type ItemType = Resource['type'];
export type Creator = components['schemas']['Creator'];
export type CreatorRole = Creator['role'];
export type RecordDate = components['schemas']['RecordDate'];
export type ResourceChanges = components['schemas']['ResourceUpdateInput'];

/** The record's optional text fields (every CSL text and number variable the API keeps). */
type TextKey = {
  [K in keyof Resource]-?: undefined extends Resource[K]
    ? NonNullable<Resource[K]> extends string
      ? K
      : never
    : never;
}[keyof Resource];
/**
 * The record's dates (a date is an object of optional parts: only objects that are dates). Not
 * `markup` (the rich text a CSL-JSON import kept, which an edit of its field drops) nor
 * `otherVariables` (CSL-JSON variables with no field here): the service keeps and exports them, the
 * pane does not edit them.
 */
type DateKey = Exclude<
  {
    [K in keyof Resource]-?: undefined extends Resource[K]
      ? NonNullable<Resource[K]> extends RecordDate
        ? RecordDate extends NonNullable<Resource[K]>
          ? K
          : never
        : never
      : never;
  }[keyof Resource],
  'markup' | 'otherVariables'
>;
/** A field the pane edits one at a time: a text, a date, or the resource's address. */
export type FieldKey = TextKey | DateKey | 'url';

/** Every CSL type, in words (`satisfies` makes a type the API adds a compile error here). */
export const TYPE_LABELS = {
  'article-journal': 'Journal article',
  'article-magazine': 'Magazine article',
  'article-newspaper': 'Newspaper article',
  bill: 'Bill',
  book: 'Book',
  broadcast: 'Broadcast',
  chapter: 'Book chapter',
  classic: 'Classic work',
  collection: 'Collection',
  dataset: 'Dataset',
  document: 'Document',
  entry: 'Entry',
  'entry-dictionary': 'Dictionary entry',
  'entry-encyclopedia': 'Encyclopedia entry',
  event: 'Event',
  figure: 'Figure',
  graphic: 'Image or graphic',
  hearing: 'Hearing',
  interview: 'Interview',
  legal_case: 'Legal case',
  legislation: 'Legislation',
  manuscript: 'Manuscript',
  map: 'Map',
  motion_picture: 'Film or video',
  musical_score: 'Musical score',
  pamphlet: 'Pamphlet',
  'paper-conference': 'Conference paper',
  patent: 'Patent',
  performance: 'Performance',
  periodical: 'Periodical',
  personal_communication: 'Letter or e-mail',
  post: 'Forum post',
  'post-weblog': 'Blog post',
  preprint: 'Preprint',
  regulation: 'Regulation',
  report: 'Report',
  review: 'Review',
  'review-book': 'Book review',
  software: 'Software',
  song: 'Song or recording',
  speech: 'Speech or presentation',
  standard: 'Standard',
  thesis: 'Thesis',
  treaty: 'Treaty',
  webpage: 'Web page',
} satisfies Record<ItemType, string>;

/** The types for a select, A to Z by their words. */
export const ITEM_TYPES = (Object.keys(TYPE_LABELS) as ItemType[]).sort((a, b) =>
  TYPE_LABELS[a].localeCompare(TYPE_LABELS[b], 'en'),
);

export function typeLabel(type: string): string {
  return (TYPE_LABELS as Record<string, string>)[type] ?? type;
}

/** Every field's name in words (`satisfies` again: a field the API adds needs its words here). */
const FIELD_LABELS = {
  url: 'URL',
  arxivId: 'arXiv ID',
  arxivPrimaryClass: 'arXiv category',
  abstract: 'Abstract',
  annote: 'Annotation (CSL)',
  archive: 'Archive',
  archiveCollection: 'Archive collection',
  archiveLocation: 'Location in archive',
  archivePlace: 'Archive place',
  authority: 'Authority',
  callNumber: 'Call number',
  collectionTitle: 'Series',
  containerTitle: 'Container title',
  containerTitleShort: 'Journal abbreviation',
  dimensions: 'Dimensions',
  division: 'Division',
  doi: 'DOI',
  eventTitle: 'Event',
  eventPlace: 'Event place',
  genre: 'Genre',
  isbn: 'ISBN',
  issn: 'ISSN',
  jurisdiction: 'Jurisdiction',
  language: 'Language',
  license: 'Rights',
  medium: 'Medium',
  originalPublisher: 'Original publisher',
  originalPublisherPlace: 'Original publisher place',
  originalTitle: 'Original title',
  partTitle: 'Part title',
  pmcid: 'PMCID',
  pmid: 'PMID',
  publisher: 'Publisher',
  publisherPlace: 'Place',
  references: 'References',
  reviewedGenre: 'Reviewed genre',
  reviewedTitle: 'Reviewed title',
  scale: 'Scale',
  source: 'Library catalogue',
  status: 'Status',
  titleShort: 'Short title',
  volumeTitle: 'Volume title',
  chapterNumber: 'Chapter number',
  collectionNumber: 'Series number',
  edition: 'Edition',
  issue: 'Issue',
  number: 'Number',
  numberOfPages: 'Number of pages',
  numberOfVolumes: 'Number of volumes',
  pages: 'Pages',
  pageFirst: 'First page',
  partNumber: 'Part number',
  printingNumber: 'Printing',
  section: 'Section',
  supplementNumber: 'Supplement',
  versionNumber: 'Version',
  volume: 'Volume',
  issued: 'Date',
  accessed: 'Accessed',
  availableDate: 'Available from',
  eventDate: 'Event date',
  originalDate: 'Original date',
  submitted: 'Submitted',
} satisfies Record<FieldKey, string>;

/** Every field the pane can edit, in the order "More fields" lists them (by their words). */
const ALL_FIELDS = (Object.keys(FIELD_LABELS) as FieldKey[]).sort((a, b) =>
  FIELD_LABELS[a].localeCompare(FIELD_LABELS[b], 'en'),
);

const DATE_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([
  'issued',
  'accessed',
  'availableDate',
  'eventDate',
  'originalDate',
  'submitted',
]);

export function isDateField(field: FieldKey): field is DateKey {
  return DATE_FIELDS.has(field);
}

/** Fields whose text runs long: edited in a text area (Enter still saves; Shift+Enter is a new line). */
export function isLongField(field: FieldKey): boolean {
  return field === 'abstract' || field === 'annote' || field === 'references';
}

/** A field's words for a type, where the type names it otherwise (a chapter's container is its book). */
const TYPE_FIELD_LABELS: Partial<Record<ItemType, Partial<Record<FieldKey, string>>>> = {
  'article-journal': { containerTitle: 'Journal' },
  'article-magazine': { containerTitle: 'Magazine' },
  'article-newspaper': { containerTitle: 'Newspaper' },
  chapter: { containerTitle: 'Book title' },
  'entry-encyclopedia': { containerTitle: 'Encyclopedia' },
  'entry-dictionary': { containerTitle: 'Dictionary' },
  'paper-conference': { containerTitle: 'Proceedings title', eventTitle: 'Conference' },
  thesis: { publisher: 'University', genre: 'Thesis type' },
  report: { publisher: 'Institution', number: 'Report number', genre: 'Report type' },
  webpage: { containerTitle: 'Website' },
  'post-weblog': { containerTitle: 'Blog' },
  preprint: { publisher: 'Repository', number: 'Preprint number' },
  patent: { number: 'Patent number', authority: 'Issuing authority' },
  software: { publisher: 'Company', versionNumber: 'Version' },
};

export function fieldLabel(field: FieldKey, type: string): string {
  return TYPE_FIELD_LABELS[type as ItemType]?.[field] ?? FIELD_LABELS[field];
}

/** The fields each type shows (Zotero's choice, in its order), before the ones every type has. */
const TYPE_FIELDS: Partial<Record<ItemType, FieldKey[]>> = {
  'article-journal': ['containerTitle', 'volume', 'issue', 'pages', 'issued', 'doi', 'issn'],
  'article-magazine': ['containerTitle', 'volume', 'issue', 'pages', 'issued', 'issn'],
  'article-newspaper': ['containerTitle', 'publisherPlace', 'section', 'pages', 'issued', 'issn'],
  book: ['publisher', 'publisherPlace', 'edition', 'issued', 'isbn', 'numberOfPages'],
  chapter: ['containerTitle', 'publisher', 'publisherPlace', 'pages', 'issued', 'isbn'],
  'paper-conference': ['containerTitle', 'eventTitle', 'publisher', 'pages', 'issued', 'doi'],
  thesis: ['genre', 'publisher', 'publisherPlace', 'issued'],
  report: ['number', 'publisher', 'publisherPlace', 'issued'],
  webpage: ['containerTitle', 'issued', 'accessed'],
  'post-weblog': ['containerTitle', 'issued', 'accessed'],
  preprint: ['arxivId', 'number', 'publisher', 'issued', 'doi'],
  dataset: ['publisher', 'versionNumber', 'issued', 'doi'],
  software: ['publisher', 'versionNumber', 'issued'],
  patent: ['number', 'authority', 'issued'],
};
/** Any other type's fields. */
const GENERIC_FIELDS: FieldKey[] = [
  'containerTitle',
  'publisher',
  'publisherPlace',
  'issued',
  'doi',
];
/** Every type's, after its own. */
const COMMON_FIELDS: FieldKey[] = ['issued', 'url', 'language'];

/** A word on a type's creators, shown above them. */
export const TYPE_NOTES: Partial<Record<ItemType, string>> = {
  chapter: 'A chapter’s editors are the book’s: add them as creators with the role Editor.',
};

/**
 * Fields the resource's panel shows and edits in a section of their own (the abstract, where text is
 * selected to highlight it): never among the pane's fields.
 */
const OWN_SECTION: ReadonlySet<FieldKey> = new Set<FieldKey>(['abstract']);

/** Every field "More fields" may offer. */
export const PANE_FIELDS = ALL_FIELDS.filter((field) => !OWN_SECTION.has(field));

/**
 * The fields the pane shows for a record: its type's, then every type's, then any other field the
 * record holds (an import or a provider may have brought any), then the ones the user added to fill.
 */
export function fieldsFor(
  type: string,
  record: Partial<Record<FieldKey, unknown>>,
  added: FieldKey[] = [],
): FieldKey[] {
  const own = TYPE_FIELDS[type as ItemType] ?? GENERIC_FIELDS;
  const held = PANE_FIELDS.filter((field) => hasValue(record[field]));
  return [...new Set([...own, ...COMMON_FIELDS, ...held, ...added])];
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/**
 * A date as the pane shows and edits it: `2017-06-12`, `2017-06`, `2017`, a range `2001/2003` (an
 * open one `1987/..`, as ISO 8601-2 writes it), or its literal text.
 */
export function dateText(date: RecordDate | undefined | null): string {
  if (!date) return '';
  if (date.year === undefined) return date.literal ?? '';
  const parts = [date.year, date.month, date.month && date.day].filter(
    (part): part is number => typeof part === 'number' && part > 0,
  );
  const start = parts.map((part, index) => String(part).padStart(index === 0 ? 4 : 2, '0'));
  const end = date.end ? `/${dateText(date.end)}` : date.openEnd ? '/..' : '';
  return `${date.circa ? 'ca. ' : ''}${start.join('-')}${end}`;
}

/** A field's value as text, for showing and as the edit's starting point. */
export function fieldText(record: Partial<Record<FieldKey, unknown>>, field: FieldKey): string {
  const value = record[field];
  if (isDateField(field)) return dateText(value as RecordDate | undefined);
  return typeof value === 'string' ? value : '';
}

/**
 * The PATCH body that sets one field to what was typed: trimmed, an empty text clears it (`null`); a
 * date goes as typed (the API reads `YYYY`, `YYYY-MM`, `YYYY-MM-DD` and says at the field when not).
 */
export function fieldChange(field: FieldKey, typed: string): ResourceChanges {
  const text = typed.trim();
  return { [field]: text === '' ? null : text };
}

/** Any field of a resource the app names in words: the pane's, and the title, type and creators. */
export type RecordField = FieldKey | 'title' | 'type' | 'creators';

/** Every field a merge of duplicates shows, in the pane's order (the abstract after the others). */
export const MERGE_FIELDS: RecordField[] = [
  'title',
  'type',
  'creators',
  ...PANE_FIELDS.filter((field) => field !== 'url'),
  'abstract',
  'url',
];

export function recordFieldLabel(field: RecordField, type: string): string {
  if (field === 'title') return 'Title';
  if (field === 'type') return 'Item type';
  if (field === 'creators') return 'Creators';
  return fieldLabel(field, type);
}

/** A field's value in a line of text: a date as the pane writes it, creators one after another. */
export function valueText(field: RecordField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field === 'type' && typeof value === 'string') return typeLabel(value);
  if (field === 'creators' && Array.isArray(value))
    return (value as Creator[]).map(creatorLine).join('; ');
  if (field !== 'creators' && field !== 'title' && field !== 'type' && isDateField(field))
    return dateText(value);
  return typeof value === 'string' ? value : '';
}

/** The API names a creator's part as `creators.2.family`: the field (`creators`) and the place. */
export function fieldOfError(field: string | undefined): { field: string; index?: number } | null {
  if (!field) return null;
  const [name = '', place] = field.split('.');
  const index = place !== undefined && /^\d+$/.test(place) ? Number(place) : undefined;
  return index === undefined ? { field: name } : { field: name, index };
}

/** Creator roles in words, the usual ones first. */
export const ROLE_LABELS = {
  author: 'Author',
  editor: 'Editor',
  translator: 'Translator',
  contributor: 'Contributor',
  'collection-editor': 'Series editor',
  'container-author': 'Book author',
  'editor-translator': 'Editor and translator',
  'reviewed-author': 'Reviewed author',
  'original-author': 'Original author',
  chair: 'Chair',
  compiler: 'Compiler',
  composer: 'Composer',
  curator: 'Curator',
  director: 'Director',
  'editorial-director': 'Editorial director',
  'executive-producer': 'Executive producer',
  guest: 'Guest',
  host: 'Host',
  illustrator: 'Illustrator',
  interviewer: 'Interviewer',
  narrator: 'Narrator',
  organizer: 'Organizer',
  performer: 'Performer',
  producer: 'Producer',
  recipient: 'Recipient',
  'script-writer': 'Script writer',
  'series-creator': 'Series creator',
} satisfies Record<CreatorRole, string>;

export const ROLES = Object.keys(ROLE_LABELS) as CreatorRole[];

/** The name parts a two-field name may have besides family and given (CSL's), in the order the editor shows them. */
export const NAME_PARTS = ['nonDroppingParticle', 'droppingParticle', 'suffix'] as const;
export type NamePart = (typeof NAME_PARTS)[number];

/** A creator being edited: the name's parts as typed, and a key that stays when it moves. */
export interface CreatorDraft {
  key: number;
  role: CreatorRole;
  /** One field (an organisation, or a name kept whole) rather than family and given. */
  single: boolean;
  family: string;
  given: string;
  literal: string;
  /** "van" of "Vincent van Gogh": part of the family name. */
  nonDroppingParticle: string;
  /** "van" of "Ludwig van Beethoven": after the given name when the name is inverted. */
  droppingParticle: string;
  /** "Jr.", "III". */
  suffix: string;
  /** Whether the particles and suffix are shown (at first, when the name has any). */
  partsOpen: boolean;
}

let nextKey = 1;

export function draftOf(creator: Creator): CreatorDraft {
  const { role, family, given, literal } = creator;
  const parts = Object.fromEntries(NAME_PARTS.map((part) => [part, creator[part] ?? ''])) as Record<
    NamePart,
    string
  >;
  return {
    key: nextKey++,
    role,
    single: literal !== undefined && family === undefined,
    family: family ?? '',
    given: given ?? '',
    literal: literal ?? '',
    ...parts,
    partsOpen: NAME_PARTS.some((part) => parts[part] !== ''),
  };
}

export function newDraft(role: CreatorRole = 'author'): CreatorDraft {
  return draftOf({ role, family: '', given: '' });
}

/**
 * Switches a name between two fields and one: "Ada Lovelace" ↔ family "Lovelace", given "Ada" (the
 * last word is the family name; particles and suffix go into the one field and stay there).
 */
export function switchFields(draft: CreatorDraft): CreatorDraft {
  if (draft.single) {
    const words = draft.literal.trim().split(/\s+/).filter(Boolean);
    const family = words.pop() ?? '';
    return { ...draft, single: false, family, given: words.join(' '), literal: '' };
  }
  const { droppingParticle, nonDroppingParticle, suffix } = draft;
  const literal = [draft.given, droppingParticle, nonDroppingParticle, draft.family, suffix]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  return {
    ...draft,
    single: true,
    literal,
    family: '',
    given: '',
    nonDroppingParticle: '',
    droppingParticle: '',
    suffix: '',
    partsOpen: false,
  };
}

/** The list with the creator at `from` moved to `to` (both within the list). */
export function moveCreator<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return list;
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** The `creators` to send: each draft as the API's name (parts trimmed, empty ones left out), rows left blank dropped. */
export function creatorsOf(drafts: CreatorDraft[]): Creator[] {
  return drafts.flatMap((draft): Creator[] => {
    if (draft.single) {
      const literal = draft.literal.trim();
      return literal ? [{ role: draft.role, literal }] : [];
    }
    const family = draft.family.trim();
    const given = draft.given.trim();
    if (!family && !given) return [];
    const parts = NAME_PARTS.flatMap((part) => {
      const text = draft[part].trim();
      return text ? [[part, text] as const] : [];
    });
    return [
      {
        role: draft.role,
        ...(family ? { family } : {}),
        ...(given ? { given } : {}),
        ...Object.fromEntries(parts),
      },
    ];
  });
}

/**
 * A creator in a line, inverted as a bibliography sorts it: "Lovelace, Ada", "van Gogh, Vincent",
 * "Beethoven, Ludwig van", "King, Martin Luther, Jr.", or the organisation's name.
 */
export function creatorName(creator: Creator): string {
  if (creator.literal) return creator.literal;
  const family = [creator.nonDroppingParticle, creator.family].filter(Boolean).join(' ');
  const given = [creator.given, creator.droppingParticle].filter(Boolean).join(' ');
  return [family, given, creator.suffix].filter(Boolean).join(', ');
}

/** "Menabrea, Luigi (editor)": the name, and the role when it is not an author. */
export function creatorLine(creator: Creator): string {
  const name = creatorName(creator);
  return creator.role === 'author' ? name : `${name} (${ROLE_LABELS[creator.role].toLowerCase()})`;
}

/** A creator's short name, as a list shows it: the family name with its particle, or the organisation. */
function shortName(creator: Creator): string {
  if (creator.literal) return creator.literal;
  const family = [creator.nonDroppingParticle, creator.family].filter(Boolean).join(' ');
  return family || creator.given || '';
}

/**
 * The list's "First author", as Zotero's Creator column: "Graves", "Graves and Wayne", "Graves et al."
 * (the authors, else the editors; a resource without creators shows its first `authors` string).
 */
export function firstAuthor(creators: Creator[], authors: string[] = []): string {
  const named = creators.filter((creator) => creator.role === 'author');
  const shown = named.length > 0 ? named : creators.filter((creator) => creator.role === 'editor');
  const [first, second] = shown;
  if (!first) return authors[0] ? `${authors[0]}${authors.length > 1 ? ' et al.' : ''}` : '';
  if (!second) return shortName(first);
  if (shown.length === 2) return `${shortName(first)} and ${shortName(second)}`;
  return `${shortName(first)} et al.`;
}
