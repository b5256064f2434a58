/**
 * Turns text extracted from a PDF (pages separated by form feeds, hard-wrapped lines) into clean
 * paragraphs for summarising: ligatures spelled out, line-break hyphenation undone, running headers,
 * footers and page numbers dropped, the references/bibliography and acknowledgement-like back matter
 * cut, small-caps splits ("S PECTER") joined, and section headings put on paragraphs of their own.
 *
 * The result has one paragraph per block separated by blank lines, each paragraph on one line.
 */

const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

/**
 * Character-level normalisation safe for any text: ligatures U+FB00–FB06 to letters, soft hyphens
 * and zero-width characters removed, exotic spaces to plain spaces, Windows line ends to "\n".
 */
export function normalizeCharacters(text: string): string {
  // One scan for all of them; the replacer runs only on the (rare) matches.
  return text.replace(CHARACTERS_TO_NORMALIZE, (character) => {
    const ligature = LIGATURES[character];
    if (ligature !== undefined) return ligature;
    if (character === '\r') return '\n';
    if (character === '\r\n') return '\n';
    return SPACE_LIKE.test(character) ? ' ' : '';
  });
}

const CHARACTERS_TO_NORMALIZE =
  /\r\n?|[\uFB00-\uFB06\u00AD\u200B-\u200D\u2060\uFEFF\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const SPACE_LIKE = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/;

/** A heading that starts the back matter after which nothing belongs in a summary. */
const REFERENCES_HEADING =
  /^(?:(?:\d{1,2}|[IVX]{1,4}|[A-Z])\.?\s+)?(?:references?|bibliography|literature cited|works cited|cited literature|references and notes)\s*:?$/i;

/** Headings of short back-matter sections that are left out while the text around them stays. */
const BACK_MATTER_HEADING = new RegExp(
  String.raw`^(?:(?:\d{1,2}|[IVX]{1,4})\.?\s+)?(?:acknowledge?ments?|funding(?: information|` +
    String.raw` sources)?|conflicts? of interests?|competing (?:interests?|financial interests?)|` +
    String.raw`declaration of competing interests?|authors?['’]? contributions?|` +
    String.raw`contributions of authors|abbreviations|availability of (?:data|` +
    String.raw`supporting data)(?: and materials)?|data availability(?: statement)?|` +
    String.raw`ethics approval(?: and consent to participate)?|consent for publication|` +
    String.raw`additional files?|disclosure statement|financial disclosure)\s*[:.]?$`,
  'i',
);

/** The same sections introduced inline: "Acknowledgements. We thank …". */
const BACK_MATTER_RUN_IN =
  /^(?:acknowledge?ments?|funding|conflicts? of interests?|competing interests?|authors?['’]? contributions?)\s*[:.—–]\s+/i;

/** Section names that stand alone on a line as headings. */
const KNOWN_SECTION_HEADING = new RegExp(
  String.raw`^(?:(?:\d{1,2}(?:\.\d{1,2})*|[IVX]{1,4})\.?\s+)?(?:abstract|summary|` +
    String.raw`introduction|background|related work|previous work|prior work|` +
    String.raw`motivation|methods?|materials and methods|methodology|approach|` +
    String.raw`model|experiments?|experimental setup|evaluation|results?|results and discussion|` +
    String.raw`discussion|analysis|conclusions?|conclusions and future work|` +
    String.raw`concluding remarks|future work|limitations|keywords?|index terms)\s*[:.]?$`,
  'i',
);

/** A numbered heading: "2 Related Work", "3.1. Data", "IV. EXPERIMENTS". */
const NUMBERED_HEADING =
  /^(?:\d{1,2}(?:\.\d{1,2}){0,3}\.?|[IVX]{1,4}\.)\s+\p{Lu}[\p{L}\p{N} ,:&()'’/-]{1,70}$/u;

const CAPTION_START = /^(?:fig(?:ure)?|table|tab)\.?\s*[\dIVX]+[.:]/i;
const ABSTRACT_RUN_IN = /^(abstract|summary)\s*[.:—–-]\s*(?=\S)/i;
/**
 * "12", "- 12 -", "Page 3 of 10", "iv". No two runs of spaces sit side by side in it (each `\s*` is
 * followed by something it cannot match), so a line of one long run of spaces is one linear scan:
 * `\s*[-–—]?(?:\s*…)` would try every split of such a run (a 50,000-space line: 10 s).
 */
const PAGE_NUMBER_LINE =
  /^(?:page\s+)?(?:[-–—]\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*[-–—])?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;
/** Longer lines are never page numbers ("Page 1234 of 1234" is 17 characters). */
const PAGE_NUMBER_MAX_LENGTH = 24;

export interface CleanPdfTextOptions {
  /** Keep the sections after a References heading (default false: cut them). */
  keepReferences?: boolean;
}

function lineKey(line: string): string {
  return line.trim().toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

/** Lines repeated at the top or bottom of many pages: running headers and footers. */
function findRunningLines(pages: string[][]): Set<string> {
  const running = new Set<string>();
  if (pages.length < 2) return running;
  const counts = new Map<string, number>();
  const edge = 3;
  for (const lines of pages) {
    const nonEmpty = lines.filter((line) => line.trim().length > 0);
    const edgeLines = new Set<string>();
    for (const line of nonEmpty.slice(0, edge)) edgeLines.add(lineKey(line));
    for (const line of nonEmpty.slice(-edge)) edgeLines.add(lineKey(line));
    for (const key of edgeLines) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(2, Math.ceil(pages.length * 0.4));
  for (const [key, count] of counts) {
    if (count >= threshold && key.length > 0 && key.length <= 150) running.add(key);
  }
  return running;
}

/**
 * A word broken at a line end ("repre-\nsentation"). The look-behind makes a match start only where a
 * run of letters starts: without it a long run of letters is tried from each of its letters, every try
 * running to the run's end (quadratic: 50,000 letters take seconds, and PDF text comes from anyone).
 */
const BROKEN_AT_LINE_END = /(?<!\p{L})\p{L}+[-‐]\n\s*\p{Ll}+/gu;

/** Word counts of a text, leaving out the pieces of words broken at line ends (they are what is being decided). */
function buildVocabulary(text: string): Map<string, number> {
  const vocabulary = new Map<string, number>();
  const unbroken = text.replace(BROKEN_AT_LINE_END, ' ');
  for (const match of unbroken.matchAll(/\p{L}+(?:-\p{L}+)*/gu)) {
    const word = match[0].toLowerCase();
    vocabulary.set(word, (vocabulary.get(word) ?? 0) + 1);
  }
  return vocabulary;
}

/**
 * Joins a word broken at a line end: "repre-" + "sentation" → "representation", but keeps the
 * hyphen of a compound ("task-" + "specific" → "task-specific") when the document itself writes
 * it with a hyphen, or when both halves are words the document uses on their own.
 */
function joinHyphenated(head: string, tail: string, vocabulary: Map<string, number>): string {
  const lowerHead = head.toLowerCase();
  const lowerTail = tail.toLowerCase();
  const closed = vocabulary.get(lowerHead + lowerTail) ?? 0;
  const hyphenated = vocabulary.get(`${lowerHead}-${lowerTail}`) ?? 0;
  if (hyphenated > closed) return `${head}-${tail}`;
  if (closed > 0) return head + tail;
  const headIsWord = (vocabulary.get(lowerHead) ?? 0) > 0 && lowerHead.length > 2;
  const tailIsWord = (vocabulary.get(lowerTail) ?? 0) > 0 && lowerTail.length > 3;
  return headIsWord && tailIsWord ? `${head}-${tail}` : head + tail;
}

/**
 * Joins small-caps splits: a capital rendered full size followed by the rest of the word in small
 * capitals comes out as "S PECTER", "S CI D OCS". Only a single capital (not the words "A" or "I")
 * directly followed by an all-capitals run is joined, chained while the pattern repeats.
 */
export function joinSmallCapsSplits(text: string): string {
  return text.replace(/\b[B-HJ-Z] [A-Z]{2,}(?: [A-Z] [A-Z]{2,})*(?![\p{Ll}])/gu, (match) =>
    match.replace(/ /g, ''),
  );
}

function isRunningOrPageNumber(line: string, running: Set<string>): boolean {
  const trimmed = line.trim();
  if (!trimmed) return false;
  if (trimmed.length <= PAGE_NUMBER_MAX_LENGTH && PAGE_NUMBER_LINE.test(trimmed)) return true;
  return running.has(lineKey(trimmed));
}

function looksLikeHeading(line: string): boolean {
  if (line.length > 80) return false;
  if (KNOWN_SECTION_HEADING.test(line)) return true;
  if (!NUMBERED_HEADING.test(line)) return false;
  if (/[.,;]$/.test(line)) return false;
  // "2 Related Work" has at most ~8 words; a wrapped sentence starting with a number has more.
  return line.split(/\s+/).length <= 9;
}

/** Cleans text extracted from a PDF (pages separated by "\f"). Pure; safe on any text. */
export function cleanPdfText(raw: string, options: CleanPdfTextOptions = {}): string {
  const text = normalizeCharacters(raw);
  const pages = text.split('\f').map((page) => page.split('\n'));
  const running = findRunningLines(pages);

  // Pages are joined without a break: text flows on from one page to the next ("cita-" / "tion").
  const lines: string[] = [];
  for (const page of pages) {
    for (const line of page) {
      if (isRunningOrPageNumber(line, running)) continue;
      // trimEnd, not /\s+$/: the pattern retries from every space of a run that does not end the line.
      lines.push(line.trimEnd());
    }
  }

  const cut = options.keepReferences ? lines.length : findReferencesStart(lines);
  const body = lines.slice(0, cut);
  const vocabulary = buildVocabulary(body.join('\n'));

  const paragraphs: string[] = [];
  const current = new ParagraphBuilder();
  let skippingBackMatter = false;
  let skippedLines = 0;
  const flush = (): void => {
    const paragraph = current.take().replace(/\s+/g, ' ').trim();
    if (paragraph) paragraphs.push(paragraph);
  };

  // A blank line ends a paragraph unless the text plainly runs on across it (a column or page break
  // inside a word or sentence): decided when the next line is seen.
  let pendingBreak = false;
  for (const rawLine of body) {
    const line = rawLine.trim();
    if (!line) {
      pendingBreak = !current.isEmpty;
      // A blank line ends a skipped back-matter paragraph, but not one right after its heading.
      if (skippedLines > 0) skippingBackMatter = false;
      continue;
    }
    if (pendingBreak) {
      pendingBreak = false;
      const end = current.tail(3);
      const runsOn = /\p{L}[-‐]$/u.test(end) || (/[\p{Ll},]$/u.test(end) && /^\p{Ll}/u.test(line));
      if (!runsOn) flush();
    }
    if (skippingBackMatter) {
      if (!looksLikeHeading(line)) {
        skippedLines++;
        continue;
      }
      skippingBackMatter = false;
    }
    if (BACK_MATTER_HEADING.test(line) || BACK_MATTER_RUN_IN.test(line)) {
      flush();
      skippingBackMatter = true;
      skippedLines = BACK_MATTER_RUN_IN.test(line) ? 1 : 0;
      continue;
    }
    const abstractRunIn = ABSTRACT_RUN_IN.exec(line);
    if (abstractRunIn && !KNOWN_SECTION_HEADING.test(line)) {
      flush();
      paragraphs.push('Abstract');
      current.append(line.slice(abstractRunIn[0].length));
      continue;
    }
    // Lines are trimmed, so the paragraph ends with its last character that is not a space.
    const endsSentence = current.isEmpty || /[.!?:;]["'”’)\]]?$/.test(current.tail(2));
    if ((endsSentence || KNOWN_SECTION_HEADING.test(line)) && looksLikeHeading(line)) {
      flush();
      paragraphs.push(line);
      continue;
    }
    if (CAPTION_START.test(line)) flush();
    appendLine(current, line, vocabulary);
  }
  flush();
  const kept = dropReferenceEntries(paragraphs);
  return joinSmallCapsSplits(kept.join('\n\n'));
}

const YEAR = /\b(?:19|20)\d{2}[a-z]?\b/g;
const REFERENCE_CUE = new RegExp(
  String.raw`\b(?:Proceedings|Proc\.|pages|pp\.|Journal|J\.|[Vv]ol\.|In:|arXiv|` +
    String.raw`doi|Press|Conference|Workshop|Transactions|Springer|Elsevier|` +
    String.raw`Association for|Lecture Notes|Retrieved|Available at)\b`,
  'g',
);

/**
 * True for a paragraph made of bibliography entries ("A. Author. 2010. Title. In Proceedings of …,
 * pages 1–10."), found by the density of years and publication words rather than by a heading:
 * extraction sometimes puts reference entries before the References heading.
 */
export function looksLikeReferenceEntries(paragraph: string): boolean {
  const years = paragraph.match(YEAR)?.length ?? 0;
  if (years === 0) return false;
  const cues = paragraph.match(REFERENCE_CUE)?.length ?? 0;
  if (cues === 0 || (paragraph.length > 400 && cues < 2)) return false;
  return (years + 2 * cues) * 100 >= paragraph.length;
}

/** Drops bibliography-like paragraphs from the second half of a document. */
function dropReferenceEntries(paragraphs: string[]): string[] {
  const total = paragraphs.reduce((sum, paragraph) => sum + paragraph.length, 0);
  const kept: string[] = [];
  let seen = 0;
  for (const paragraph of paragraphs) {
    seen += paragraph.length;
    if (seen > total * 0.5 && looksLikeReferenceEntries(paragraph)) continue;
    kept.push(paragraph);
  }
  return kept;
}

/**
 * Longest word-piece that a line-end hyphen is undone for by looking words up. A longer run of letters
 * is no word of any language: its hyphen is dropped without a look-up, so the work per line stays bounded.
 */
const MAX_BROKEN_WORD = 64;
const BROKEN_HEAD = /(\p{L}+)[-‐]$/u;
const CONTINUED_TAIL = /^\p{Ll}+/u;

function appendLine(
  current: ParagraphBuilder,
  line: string,
  vocabulary: Map<string, number>,
): void {
  if (current.isEmpty) {
    current.append(line);
    return;
  }
  // Only the paragraph's last characters are looked at, never the whole of it (which grows line by line).
  const broken = BROKEN_HEAD.exec(current.tail(MAX_BROKEN_WORD + 2));
  const continued = broken ? CONTINUED_TAIL.exec(line) : null;
  if (broken && continued) {
    const head = broken[1] as string;
    const tail = continued[0];
    current.dropEnd(head.length + 1);
    const tooLong = head.length > MAX_BROKEN_WORD || tail.length > MAX_BROKEN_WORD;
    current.append(tooLong ? head + tail : joinHyphenated(head, tail, vocabulary));
    current.append(line.slice(tail.length));
    return;
  }
  current.append(' ');
  current.append(line);
}

/**
 * A paragraph being built line by line, kept as pieces (joined once, when it is taken) so that adding a
 * line and reading the paragraph's end cost the same however long the paragraph has grown.
 */
class ParagraphBuilder {
  private pieces: string[] = [];
  private length = 0;

  /** Every piece appended is a trimmed line, a part of one or a single space: empty is also blank. */
  get isEmpty(): boolean {
    return this.length === 0;
  }

  append(piece: string): void {
    if (!piece) return;
    this.pieces.push(piece);
    this.length += piece.length;
  }

  /** The last `count` characters (fewer when the paragraph is shorter). */
  tail(count: number): string {
    let text = '';
    for (let i = this.pieces.length - 1; i >= 0 && text.length < count; i--) {
      const piece = this.pieces[i] as string;
      const need = count - text.length;
      text = (piece.length > need ? piece.slice(piece.length - need) : piece) + text;
    }
    return text;
  }

  /** Removes the last `count` characters. */
  dropEnd(count: number): void {
    let left = Math.min(count, this.length);
    this.length -= left;
    while (left > 0) {
      const last = this.pieces.pop() as string;
      if (last.length > left) {
        this.pieces.push(last.slice(0, last.length - left));
        left = 0;
      } else {
        left -= last.length;
      }
    }
  }

  /** The paragraph's text; the builder is empty again. */
  take(): string {
    const text = this.pieces.join('');
    this.pieces = [];
    this.length = 0;
    return text;
  }
}

/** Index of the line where the references section starts (its heading), or the number of lines. */
function findReferencesStart(lines: string[]): number {
  const earliest = Math.floor(lines.length * 0.3);
  for (let i = earliest; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.length <= 40 && REFERENCES_HEADING.test(line)) return i;
  }
  return lines.length;
}
