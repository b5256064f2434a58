/**
 * An entry read from a citation file as the resource it becomes: the inverse of export.ts, so that a
 * workspace exported and imported again holds the same resources. Values are kept as the add route
 * keeps them (plain text, HTML stripped, the same limits: longer text is shortened, not refused), and
 * the work key is the one adding computes (work-key.ts).
 */
import { stripHtml } from '../../platform/sanitize.js';
import { httpUrlOf, LIMITS } from '../schemas.js';
import type { NewResourceRow } from '../resources/store.js';
import { normaliseArxivId, normaliseDoi, workKeyOf } from '../resources/work-key.js';
import type { CslLike } from './formats.js';
import { cslPlainText, isArxivCategory } from '../../records/index.js';
import {
  markupToKeep,
  otherVariablesOf,
  RECORD_TEXT_MAX,
  wholeTitleToKeep,
  recordFromCsl,
  recordTypeOf,
  TEXT_VARIABLES,
  untitledTitle,
  type BibRecord,
  type MarkupField,
} from '../../records/index.js';
import { recordColumns } from '../resources/resource-record.js';

const ARXIV_IN_TEXT =
  /\barxiv[:\s/]+(?:abs\/)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z-]*(?:\.[a-z]{2})?\/\d{7}(?:v\d+)?)/i;
const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>{}]+)/;

const SCRIPT_TAG = /<\/?(?:script|style)\b[^<>]*>/i;

/**
 * Text without `<script>` and `<style>` tags, their text kept (and tags that removing one made:
 * `<scr<script>ipt>`); past 10 rounds the sanitiser has the rest, and drops it.
 */
function unwrapScripts(text: string): string {
  let unwrapped = text;
  for (let round = 0; round < 10 && SCRIPT_TAG.test(unwrapped); round++)
    unwrapped = unwrapped.replace(new RegExp(SCRIPT_TAG.source, 'gi'), '');
  return unwrapped;
}

/** Plain text on one line (or with its paragraphs, for notes), HTML stripped, at most `max` characters. */
function clean(
  value: unknown,
  max: number,
  options: { multiline?: boolean } = {},
): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  // NFC: the BibTeX parser writes accents as combining marks (`E` + U+0301), a typed title has `É`.
  // `\,` and its kin (TeX's small spaces) are left by the BibTeX reader as written.
  // CSL's own markup goes; other HTML only when it is whole tags (`n<m holds` is a title, not a tag).
  // A `<script>` or `<style>` element in citation data is text another tool marked (Better BibTeX
  // wraps TeX it did not read, `journal = {\aap}`, as `<script>\aap</script>`): its tags go and its
  // text stays, where an HTML sanitiser would drop the text with them.
  const raw = cslPlainText(unwrapScripts(value.replace(/\0/g, '').replace(/\\[,;:!]/g, ' ')));
  let text = (/<[a-z/!][^<>]*>/i.test(raw) ? stripHtml(raw) : raw).normalize('NFC');
  text = options.multiline
    ? text
        .replace(/\r\n?/g, '\n')
        .replace(/[^\S\n]+/g, ' ')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : text.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, max) : undefined;
}

/** Tags from `keywords` (a list, or one string split on `,` and `;`), cleaned as the add route's tags are. */
function tagsOf(keyword: CslLike['keyword']): string[] {
  const raw = Array.isArray(keyword)
    ? keyword
    : typeof keyword === 'string'
      ? keyword.split(/[,;]/)
      : [];
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const value of raw) {
    const tag = clean(value, LIMITS.tag);
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
    if (tags.length === LIMITS.tags) break;
  }
  return tags;
}

/** The first DOI and arXiv id found in the entry: its own fields first, then its URL, note and the rest. */
function identifiersOf(item: CslLike): { doi?: string; arxivId?: string; pmid?: string } {
  const texts = [item.URL, item.note, item.number, ...(item.extra ?? [])].filter(
    (value): value is string => typeof value === 'string',
  );
  // Kept as written (DOIs ignore case, readers do not), without its `doi:` or resolver prefix.
  const doi = [
    item.DOI,
    ...texts.map((text) => DOI_IN_TEXT.exec(text)?.[1]?.replace(/[.,;)\]]+$/, '')),
  ]
    .map((value) =>
      typeof value === 'string' && normaliseDoi(value)
        ? value
            .trim()
            .replace(/^doi:\s*/i, '')
            .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
        : null,
    )
    .find(Boolean);
  const arxivId = [
    item.arxivId,
    ...texts.map((text) => ARXIV_IN_TEXT.exec(text)?.[1]),
    ...texts.map(
      (text) => /arxiv\.org\/(?:abs|pdf)\/([^\s?#]+?)(?:\.pdf)?(?:[?#\s]|$)/i.exec(text)?.[1],
    ),
  ]
    .map((value) => (typeof value === 'string' ? normaliseArxivId(value) : null))
    .find(Boolean);
  const pmid =
    typeof item.PMID === 'string' || typeof item.PMID === 'number' ? String(item.PMID).trim() : '';
  return {
    ...(doi ? { doi } : {}),
    ...(arxivId ? { arxivId } : {}),
    ...(/^\d{1,9}$/.test(pmid) ? { pmid } : {}),
  };
}

/** The CSL rich text of the item's title and text variables, where the record keeps them plain. */
function markupOf(item: CslLike, record: BibRecord, title: string | undefined) {
  const markup: Partial<Record<MarkupField, string>> = {};
  const rich = wholeTitleToKeep(item.title, clean(item.title, RECORD_TEXT_MAX), title);
  if (rich) markup.title = rich;
  for (const [field, variable] of Object.entries(TEXT_VARIABLES)) {
    const kept = markupToKeep(item[variable], record[field as keyof typeof TEXT_VARIABLES]);
    if (kept) markup[field as keyof typeof TEXT_VARIABLES] = kept;
  }
  return Object.keys(markup).length > 0 ? markup : undefined;
}

/**
 * The resource an entry becomes, or why it cannot become one. A CSL-JSON item (`cslJson`) is kept
 * as it came: its variables the record has no field for too, and a DOI found in its URL or note only
 * tells which work it is (the work key), as the item did not say it (an arXiv id, which CSL has no
 * variable for, is the record's wherever it is found); a BibTeX or RIS entry's item holds this
 * service's own reading of the file beside its CSL variables, and an identifier found in it is the
 * record's.
 */
export function resourceOf(
  workspaceId: string,
  item: CslLike,
  options: { cslJson?: boolean } = {},
): { values: NewResourceRow; untitled: boolean } | { reason: string } {
  const record = recordFromCsl(item, clean);
  // A work without a title (a legal case, a letter) is kept as one (record.ts, `untitled`), when
  // the entry says anything else that it could be cited by (a CSL-JSON item its type, at least, and
  // a RIS record its `TY`, as the RIS export of such a CSL item writes it).
  const given = clean(item.title, LIMITS.title);
  const saysSomething =
    Object.keys(record).length > 0 ||
    typeof item.URL === 'string' ||
    (options.cslJson === true && recordTypeOf(item.type) !== undefined) ||
    item.ris !== undefined;
  if (!given && !saysSomething)
    return { reason: 'The entry has no title, and nothing else to cite it by' };
  if (!given) record.untitled = true;
  const markup = markupOf(item, record, given);
  if (markup) record.markup = markup;
  const other = options.cslJson ? otherVariablesOf(item) : undefined;
  if (other) record.otherVariables = other;
  const ids = identifiersOf(item);
  const own = options.cslJson
    ? { ...identifiersOf({ DOI: item.DOI, PMID: item.PMID }), arxivId: ids.arxivId }
    : ids;
  if (own.doi) record.doi = own.doi;
  else delete record.doi;
  if (own.arxivId) record.arxivId = own.arxivId;
  // The category BibTeX gave with the entry's own e-print (not with an id found elsewhere).
  const primaryClass = clean(item.arxivPrimaryClass, 50);
  if (
    own.arxivId &&
    primaryClass &&
    isArxivCategory(primaryClass) &&
    normaliseArxivId(String(item.arxivId ?? '')) === own.arxivId
  )
    record.arxivPrimaryClass = primaryClass;
  if (own.pmid) record.pmid = own.pmid;
  else delete record.pmid;
  const url = httpUrlOf(typeof item.URL === 'string' ? item.URL.trim() : undefined) ?? null;
  const columns = recordColumns(record, recordTypeOf(item.type), url);
  const title = given ?? untitledTitle(columns.type);
  const values: NewResourceRow = {
    workspaceId,
    resourceId: null,
    workKey: workKeyOf({ doi: ids.doi, arxivId: ids.arxivId, pmid: ids.pmid, url }),
    title,
    url,
    ...columns,
    tags: tagsOf(item.keyword),
    notes: clean(item.note, LIMITS.notes, { multiline: true }) ?? '',
    data: {},
  };
  return { values, untitled: !given };
}
