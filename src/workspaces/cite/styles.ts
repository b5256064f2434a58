/**
 * The citation styles: every style of the official CSL repository, packed in `csl-styles/` (see its
 * README and scripts/vendor-csl-styles.ts), plus the three `@citation-js/plugin-csl` builds in. The
 * index (ids, titles, which style a dependent one cites as) is read at the first use; a style's XML is
 * read from the pack, one brotli-compressed slice, when it is first formatted with. Nothing is
 * downloaded.
 */
import { open, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { ownValue } from '../../platform/own-key.js';

const decompress = promisify(brotliDecompress);

/** A style the service can format with: its CSL id and the title its file gives. */
export interface CitationStyle {
  id: string;
  title: string;
  /** The short name a researcher looks for ("MLA", "IEEE"). */
  shortTitle: string;
  /** For a dependent style (a journal citing as another style does): the id of the style it cites as. */
  basedOn?: string;
}

/** One entry of the packed index: where an independent style's XML lies, or a dependent one's parent. */
interface IndexEntry {
  id: string;
  title: string;
  shortTitle?: string;
  parent?: string;
  at?: [offset: number, length: number];
}

/** The plugin's built-ins: formatted from the plugin's own XML, not the pack. */
const BUILT_IN: Record<string, { title: string; shortTitle: string }> = {
  apa: { shortTitle: 'APA', title: 'APA Style 7th edition' },
  vancouver: {
    shortTitle: 'Vancouver',
    title: 'NLM/Vancouver: Citing Medicine 2nd edition (citation-sequence)',
  },
  harvard1: { shortTitle: 'Harvard', title: 'Cite Them Right 12th edition (author-date/Harvard)' },
};

/** The styles offered first, with the names researchers use; the first five are the common ones. */
const COMMON: ReadonlyArray<{ id: string; shortTitle: string }> = [
  { id: 'apa', shortTitle: 'APA' },
  { id: 'modern-language-association', shortTitle: 'MLA' },
  { id: 'chicago-author-date', shortTitle: 'Chicago' },
  { id: 'ieee', shortTitle: 'IEEE' },
  { id: 'vancouver', shortTitle: 'Vancouver' },
  { id: 'harvard1', shortTitle: 'Harvard' },
  { id: 'american-medical-association', shortTitle: 'AMA' },
  { id: 'american-chemical-society', shortTitle: 'ACS' },
  { id: 'american-sociological-association', shortTitle: 'ASA' },
  { id: 'nature', shortTitle: 'Nature' },
];

/** The common styles (the first five offered): their engines are built when a worker starts. */
export const COMMON_STYLE_IDS: readonly string[] = COMMON.slice(0, 5).map((style) => style.id);

/** At most this many styles in one answer to a search by name. */
export const STYLE_SEARCH_LIMIT = 50;

const STYLES_FOLDER = new URL('../../../csl-styles/', import.meta.url);

let loadingIndex: Promise<Map<string, IndexEntry>> | undefined;
function styleIndex(): Promise<Map<string, IndexEntry>> {
  loadingIndex ??= readFile(new URL('styles.json.br', STYLES_FOLDER))
    .then((packed) => decompress(packed))
    .then(
      (json) =>
        new Map(
          (JSON.parse(json.toString('utf8')) as IndexEntry[]).map((entry) => [entry.id, entry]),
        ),
    )
    .catch((error: unknown) => {
      loadingIndex = undefined;
      throw error;
    });
  return loadingIndex;
}

function describe(entry: IndexEntry, shortTitle?: string): CitationStyle {
  return {
    id: entry.id,
    title: entry.title,
    shortTitle: shortTitle ?? entry.shortTitle ?? entry.title,
    ...(entry.parent ? { basedOn: entry.parent } : {}),
  };
}

/** The style with this id (built in or packed), or null for an id no style has. */
export async function findCitationStyle(id: string): Promise<CitationStyle | null> {
  const common = COMMON.find((style) => style.id === id);
  const builtIn = ownValue(BUILT_IN, id);
  if (builtIn) return { id, ...builtIn };
  const entry = (await styleIndex()).get(id);
  return entry ? describe(entry, common?.shortTitle) : null;
}

/**
 * The styles whose title, short name or id holds every word of the query: the common ones first, then
 * the rest by title, at most STYLE_SEARCH_LIMIT. Without a query: the common ones.
 */
export async function findCitationStyles(
  query: string | undefined,
): Promise<{ styles: CitationStyle[]; total: number }> {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const common = (await Promise.all(COMMON.map((style) => findCitationStyle(style.id)))).filter(
    (style): style is CitationStyle => style !== null,
  );
  const matches = (style: CitationStyle) => {
    const haystack = `${style.shortTitle} ${style.title} ${style.id}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  if (words.length === 0) return { styles: common, total: common.length };
  const found = common.filter(matches);
  const seen = new Set(found.map((style) => style.id));
  const rest: CitationStyle[] = [];
  for (const entry of (await styleIndex()).values()) {
    if (seen.has(entry.id)) continue;
    const style = describe(entry);
    if (matches(style)) rest.push(style);
  }
  rest.sort((a, b) => a.title.localeCompare(b.title, 'en'));
  const all = [...found, ...rest];
  return { styles: all.slice(0, STYLE_SEARCH_LIMIT), total: all.length };
}

/** The id whose XML formats `style`: its own, or for a dependent style its parent's. */
export function templateOf(style: CitationStyle): string {
  return style.basedOn ?? style.id;
}

/** The XML of a packed independent style (read from the pack each time: the caller keeps what it needs). */
export async function packedStyleXml(id: string): Promise<string> {
  const entry = (await styleIndex()).get(id);
  if (!entry?.at) throw new TypeError(`No packed CSL style ${id}`);
  const [offset, length] = entry.at;
  const pack = await open(new URL('styles.pack', STYLES_FOLDER));
  try {
    const slice = Buffer.alloc(length);
    await pack.read(slice, 0, length, offset);
    return (await decompress(slice)).toString('utf8');
  } finally {
    await pack.close();
  }
}

export function isBuiltInStyle(id: string): boolean {
  return Object.hasOwn(BUILT_IN, id);
}
