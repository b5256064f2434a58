/**
 * Formatted citations of workspace resources in a CSL style (APA, MLA, Chicago, IEEE, Vancouver…),
 * through citation-js' CSL plugin (citeproc-js). The items are the same CSL items the CSL-JSON export
 * writes (export.ts). Styles: the plugin's built-ins, and official CSL files vendored in `csl-styles/`
 * (see its README), each read and registered the first time it is asked for. Nothing is downloaded.
 */
import { readFile } from 'node:fs/promises';
import { toCslItems } from '../export.js';
import type { ResourceRow } from '../store.js';

/** A style the service can format with: its CSL id and the title its file gives. */
export interface CitationStyle {
  id: string;
  title: string;
  /** The short name a researcher looks for ("MLA", "IEEE"). */
  shortTitle: string;
}

/** The plugin's built-ins (no file), then the vendored files; the first five are the common ones. */
const BUILT_IN = new Set(['apa', 'vancouver', 'harvard1']);
const CSL_STYLES: readonly CitationStyle[] = [
  { id: 'apa', shortTitle: 'APA', title: 'APA Style 7th edition' },
  { id: 'modern-language-association', shortTitle: 'MLA', title: 'MLA Handbook 9th edition (in-text citations)' },
  { id: 'chicago-author-date', shortTitle: 'Chicago', title: 'Chicago Manual of Style 18th edition (author-date)' },
  { id: 'ieee', shortTitle: 'IEEE', title: 'IEEE Reference Guide version 11.29.2023' },
  { id: 'vancouver', shortTitle: 'Vancouver', title: 'NLM/Vancouver: Citing Medicine 2nd edition (citation-sequence)' },
  { id: 'harvard1', shortTitle: 'Harvard', title: 'Cite Them Right 12th edition (author-date/Harvard)' },
  { id: 'american-medical-association', shortTitle: 'AMA', title: 'AMA Manual of Style 11th edition' },
  { id: 'american-chemical-society', shortTitle: 'ACS', title: 'ACS Guide 2022 revision' },
  { id: 'american-sociological-association', shortTitle: 'ASA', title: 'ASA Style Guide 6th/7th edition' },
  { id: 'nature', shortTitle: 'Nature', title: 'Nature' },
];
export const CSL_STYLE_IDS = CSL_STYLES.map(({ id }) => id) as [string, ...string[]];

/** The styles whose title, short name or id holds every word of the query (all of them for none). */
export function findCitationStyles(query: string | undefined): CitationStyle[] {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return CSL_STYLES.filter((style) => {
    const haystack = `${style.shortTitle} ${style.title} ${style.id}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

interface CslPlugin {
  styles: { has(id: string): boolean; add(id: string, xml: string): void };
}
interface CiteJs {
  Cite: typeof import('@citation-js/core').Cite;
  csl: CslPlugin;
}

let loadingCiteJs: Promise<CiteJs> | undefined;
/** citation-js with its CSL plugin, loaded at the first citation (citeproc-js is a large module). */
function loadCiteJs(): Promise<CiteJs> {
  loadingCiteJs ??= Promise.all([import('@citation-js/core'), import('@citation-js/plugin-csl')]).then(
    ([core]) => ({ Cite: core.Cite, csl: core.plugins.config.get('@csl') as CslPlugin }),
    (error: unknown) => {
      loadingCiteJs = undefined;
      throw error;
    },
  );
  return loadingCiteJs;
}

const STYLES_FOLDER = new URL('../../../csl-styles/', import.meta.url);
const loadingStyles = new Map<string, Promise<void>>();
/** Registers a vendored style with the plugin once; `id` is one of CSL_STYLE_IDS (the route's schema says so). */
function ensureStyle(csl: CslPlugin, id: string): Promise<void> {
  if (BUILT_IN.has(id) || csl.styles.has(id)) return Promise.resolve();
  let loading = loadingStyles.get(id);
  if (!loading) {
    loading = readFile(new URL(`${id}.csl`, STYLES_FOLDER), 'utf8').then(
      (xml) => csl.styles.add(id, xml),
      (error: unknown) => {
        loadingStyles.delete(id);
        throw error;
      },
    );
    loadingStyles.set(id, loading);
  }
  return loading;
}

export type CitationFormat = 'text' | 'html';

export interface FormattedCitations {
  style: CitationStyle;
  format: CitationFormat;
  /** The reference list, ordered as the style orders it. */
  bibliography: string;
  /** The in-text citation of all the resources together ("(Graves et al., 2014)", "[1]"). */
  citation: string;
}

/** The bibliography and in-text citation of the resources in a style and format (text or escaped HTML). */
export async function formatCitations(resources: ResourceRow[], styleId: string, format: CitationFormat): Promise<FormattedCitations> {
  const style = CSL_STYLES.find(({ id }) => id === styleId);
  if (!style) throw new TypeError(`Unknown citation style ${styleId}`);
  const { Cite, csl } = await loadCiteJs();
  await ensureStyle(csl, style.id);
  // The note is the user's own text, not part of a reference; CSL styles print `note` when present.
  const items = (await toCslItems(resources)).map(({ note: _note, abstract: _abstract, keyword: _keyword, ...item }) => item);
  const cite = new Cite(items);
  const options = { template: style.id, lang: 'en-US', format };
  return {
    style,
    format,
    bibliography: cite.format('bibliography', options).trim(),
    citation: cite.format('citation', options).trim(),
  };
}
