/**
 * A text read into sentence records: each sentence with its section (front matter, abstract,
 * introduction, related work, body, conclusion, back matter), its significant terms and whether it
 * can be a summary sentence at all (headings, captions, reference entries cannot).
 */
import {
  collapseWhitespace,
  isCaselessText,
  splitBlock,
  splitParagraphs,
  splitSingleSpacedBlock,
} from './sentences.js';
import {
  readSentenceWords,
  TermTable,
  unreadWords,
  WordStore,
  type SentenceWords,
} from './term-table.js';
import type { SummaryMode } from './summarize.js';

/** Past this many words an abstract section without a following heading is taken to be the body. */
const ABSTRACT_MAX_WORDS = 400;

export type SectionKind =
  'front' | 'abstract' | 'introduction' | 'related' | 'body' | 'conclusion' | 'back';

export interface SentenceRecord {
  text: string;
  index: number;
  section: SectionKind;
  /** Distinct significant term ids. */
  terms: number[];
  /** Index of the first word in the document's WordStore (offsets in `text`, term ids). */
  firstWord: number;
  /** Significant words counted with repeats (for length normalisation). */
  significantCount: number;
  wordCount: number;
  candidate: boolean;
  /**
   * Positional and cue multipliers. Until `priorExact`, an upper bound: the cue patterns are only
   * run on sentences that come near being chosen (see selectSentences in select-sentences.ts).
   */
  prior: number;
  priorExact: boolean;
  /** Section, position and title multipliers (no pattern needed). */
  basePrior: number;
  /** Whether the sentence states a contribution or finding ("we propose", "results show"); set with the exact prior. */
  contribution: boolean;
}

const SECTION_PATTERNS: ReadonlyArray<readonly [RegExp, SectionKind]> = [
  [/^(?:abstract|summary)$/i, 'abstract'],
  [/^(?:introduction|background|motivation)$/i, 'introduction'],
  [/^(?:related work|previous work|prior work|literature review|related literature)$/i, 'related'],
  [
    /^(?:conclusions?|concluding remarks|conclusions? and future work|summary and conclusions?|discussion and conclusions?)$/i,
    'conclusion',
  ],
  [/^(?:acknowledge?ments?|references|bibliography|funding|appendix.*|supplementary.*)$/i, 'back'],
];
/** The letters the names above start with: a name starting otherwise needs none of the patterns. */
const SECTION_INITIALS = 'abcdfilmprs';

function mayNameSection(name: string): boolean {
  const initial = name.charCodeAt(0) | 32;
  return initial >= 97 && initial <= 122 && SECTION_INITIALS.includes(String.fromCharCode(initial));
}

/** Whether a text ends with . ! ? ; or , (as a sentence or a clause does, and a heading does not). */
function endsLikeSentence(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 46 || last === 33 || last === 63 || last === 59 || last === 44;
}

const HEADING_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,4}\.)\s+/;

/** A short block without sentence punctuation that names a section. */
export function headingKind(block: string): SectionKind | undefined {
  if (block.length > 80 || endsLikeSentence(block)) return undefined;
  const number = HEADING_NUMBER.exec(block);
  let name = number ? block.slice(number[0].length) : block;
  const last = name.charCodeAt(name.length - 1);
  if (last === 58 /* : */ || last === 46 /* . */) name = name.slice(0, -1);
  name = name.trim();
  const numbered = number !== null;
  if (mayNameSection(name))
    for (const [pattern, kind] of SECTION_PATTERNS) if (pattern.test(name)) return kind;
  if (numbered && name.split(/\s+/).length <= 8 && /^\p{Lu}/u.test(name)) return 'body';
  return undefined;
}

const CAPTION_START = /^(?:fig(?:ure)?|table|tab)\.?\s*[\dIVX]+\s*[.:]/i;

/** CAPTION_START.test(text), the pattern run only on texts that begin with its f or t. */
function startsLikeCaption(text: string): boolean {
  const first = text.charCodeAt(0) | 32;
  return (first === 102 /* f */ || first === 116) /* t */ && CAPTION_START.test(text);
}
const REFERENCE_ENTRY =
  /(?:19|20)\d{2}[a-z]?\.\s.*\b(?:Proceedings|pages|pp\.|Journal|In:|Vol\.|Press)\b/;

function isCandidate(text: string, words: SentenceWords, mode: SummaryMode): boolean {
  const minWords = mode === 'quick' ? 4 : 7;
  if (words.wordCount < minWords || words.wordCount > 80) return false;
  if (words.significantCount < 2) return false;
  // The counts first, the patterns last: they only run on sentences that pass everything else.
  const { letters, digits, upper } = words;
  if (letters < text.length * 0.55 || digits > letters * 0.25) return false;
  // A sentence in capitals is a heading or a running title.
  if (upper >= letters * 0.5) return false;
  if (text.includes('@')) return false;
  return !startsLikeCaption(text) && !(digits > 0 && REFERENCE_ENTRY.test(text));
}

export interface ParsedText {
  records: SentenceRecord[];
  table: TermTable;
  store: WordStore;
}

export function parseRecords(
  text: string,
  mode: SummaryMode,
  table: TermTable = new TermTable(),
): ParsedText {
  const store = new WordStore(text.length);
  const caseless = isCaselessText(text);
  const records: SentenceRecord[] = [];
  let section: SectionKind = 'body';
  let sawHeading = false;
  /** seen[id] = stamp of the last sentence read that counted term id (for distinct terms). */
  const seen: number[] = [];
  let stamp = 0;
  const sentences: string[] = [];
  let abstractWords = 0;
  /** Reads a sentence into a record; false (and no record) when `singleSpaced` was assumed wrongly. */
  const addSentence = (sentence: string, singleSpaced: boolean): boolean => {
    const index = records.length;
    const words = readSentenceWords(sentence, ++stamp, table, store, seen);
    if (singleSpaced && words.irregularSpacing) return false;
    const candidate = isCandidate(sentence, words, mode);
    if (section === 'abstract') abstractWords += words.wordCount;
    records.push({
      text: sentence,
      index,
      section,
      terms: words.terms,
      firstWord: words.firstWord,
      significantCount: words.significantCount,
      wordCount: words.wordCount,
      candidate,
      prior: 1,
      priorExact: false,
      basePrior: 1,
      contribution: false,
    });
    return true;
  };
  for (const block of splitParagraphs(text)) {
    const kind = block.length <= 160 ? headingKind(collapseWhitespace(block).trim()) : undefined;
    if (kind !== undefined) {
      // Only the opening of a paper; a heading deep into a plain text says nothing about its start.
      if (!sawHeading && records.length <= 40) markOpeningMatter(records, kind);
      sawHeading = true;
      section = kind;
      continue;
    }
    // An abstract is a few hundred words; an abstract "section" running on past that (no heading
    // after it was recognised), or into a figure caption, has become the body.
    if (
      section === 'abstract' &&
      (abstractWords >= ABSTRACT_MAX_WORDS || CAPTION_START.test(block.trimStart()))
    ) {
      section = 'body';
    }
    // Most paragraphs are single-spaced (cleaned text has one line per paragraph), and are split as
    // such without being checked first (two passes over the text spared): the word scan of each
    // sentence sees all of its whitespace and tells otherwise, and then the paragraph is read again,
    // flattened. Between sentences the splitter passes over plain spaces only, and decides the same
    // whether there is one or more; any other whitespace or bullet mark, or spaces that would make it
    // decide otherwise, end up inside a sentence.
    const firstRecord = records.length;
    const firstWord = store.length;
    const abstractWordsBefore = abstractWords;
    sentences.length = 0;
    splitSingleSpacedBlock(block, caseless, sentences);
    let singleSpaced = true;
    for (const sentence of sentences) {
      singleSpaced = addSentence(sentence, true);
      if (!singleSpaced) break;
    }
    if (singleSpaced) continue;
    records.length = firstRecord;
    unreadWords(table, store, firstWord);
    abstractWords = abstractWordsBefore;
    sentences.length = 0;
    splitBlock(block, caseless, sentences);
    for (const sentence of sentences) addSentence(sentence, false);
  }
  return { records, table, store };
}

/**
 * What stands before a paper's first heading: title and authors (front matter), and, when that
 * heading already opens the body ("1 Introduction"), the abstract printed without a heading of its own.
 */
function markOpeningMatter(records: SentenceRecord[], firstHeading: SectionKind): void {
  for (const record of records) {
    const unheadedAbstract = firstHeading !== 'abstract' && record.candidate;
    record.section = unheadedAbstract ? 'abstract' : 'front';
  }
}

export function chooseCandidates(records: SentenceRecord[]): SentenceRecord[] {
  const candidates = records.filter((record) => record.candidate && record.section !== 'back');
  return candidates.length > 0 ? candidates : records.filter((record) => record.wordCount > 0);
}
