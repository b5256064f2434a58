/**
 * Formatted citations of workspace resources in any CSL style (styles.ts: the official repository,
 * packed, and the three @citation-js/plugin-csl builds in), through citeproc-js, the CSL processor
 * citation-js wraps. The items are the same CSL items the CSL-JSON export writes (export.ts).
 *
 * citeproc-js builds an engine per style (about half a megabyte, tens of milliseconds): the last
 * ENGINE_CACHE_SIZE are kept, so that asking for one style after another cannot grow the process
 * (citation-js would keep every engine it ever built).
 */
import { LRUCache } from 'lru-cache';
import { toCslItems } from '../export.js';
import type { ResourceRow } from '../resources/store.js';
import {
  COMMON_STYLE_IDS,
  findCitationStyle,
  isBuiltInStyle,
  packedStyleXml,
  templateOf,
  type CitationStyle,
} from './styles.js';

export type CitationFormat = 'text' | 'html';

export interface FormattedCitations {
  style: CitationStyle;
  format: CitationFormat;
  /** The reference list, ordered as the style orders it. */
  bibliography: string;
  /** The in-text citation of all the resources together ("(Graves et al., 2014)", "[1]"). */
  citation: string;
}

/** The parts of citeproc-js (no bundled types) used here. */
interface CiteprocEngine {
  sys: { retrieveItem: (id: string) => object };
  opt: { development_extensions: { wrap_url_and_doi: boolean } };
  setOutputFormat(format: CitationFormat): void;
  updateItems(ids: string[]): void;
  makeBibliography(): [{ bibstart: string; bibend: string }, string[]] | false;
  makeCitationCluster(items: Array<{ id: string }>): string;
}
interface Citeproc {
  Engine: new (
    sys: { retrieveLocale: (lang: string) => unknown; retrieveItem: (id: string) => object },
    style: string,
    lang: string,
    forceLang: boolean,
  ) => CiteprocEngine;
}
interface CslPlugin {
  styles: { get(id: string): string };
  locales: { has(id: string): boolean; get(id: string): unknown };
}

interface Processor {
  citeproc: Citeproc;
  csl: CslPlugin;
}
let loadingProcessor: Promise<Processor> | undefined;
/** citeproc-js, and citation-js' CSL plugin for its built-in styles and locales; loaded at the first citation (large modules). */
function loadProcessor(): Promise<Processor> {
  loadingProcessor ??= Promise.all([
    import('citeproc'),
    import('@citation-js/core'),
    import('@citation-js/plugin-csl'),
  ]).then(
    ([citeproc, core]) => ({
      citeproc: (citeproc.default ?? citeproc) as Citeproc,
      csl: core.plugins.config.get('@csl') as CslPlugin,
    }),
    (error: unknown) => {
      loadingProcessor = undefined;
      throw error;
    },
  );
  return loadingProcessor;
}

/** How many styles' engines are kept (the common ones and whatever was asked for lately). */
const ENGINE_CACHE_SIZE = 24;
const engines = new LRUCache<string, Promise<CiteprocEngine>>({ max: ENGINE_CACHE_SIZE });

/** The engine of a style's XML (its own, or its parent's for a dependent style), built once while kept. */
function engineFor(processor: Processor, template: string): Promise<CiteprocEngine> {
  let engine = engines.get(template);
  if (!engine) {
    engine = (
      isBuiltInStyle(template)
        ? Promise.resolve(processor.csl.styles.get(template))
        : packedStyleXml(template)
    ).then((xml) => {
      const { locales } = processor.csl;
      const retrieveLocale = (lang: string) =>
        locales.has(lang) ? locales.get(lang) : locales.get('en-US');
      const built = new processor.citeproc.Engine(
        { retrieveLocale, retrieveItem: () => ({}) },
        xml,
        'en-US',
        true,
      );
      // As citation-js formats: URLs and DOIs as text, not links.
      built.opt.development_extensions.wrap_url_and_doi = false;
      return built;
    });
    engine.catch(() => engines.delete(template));
    engines.set(template, engine);
  }
  return engine;
}

/** Builds the common styles' engines (a worker does when it starts), so that no request waits for one. */
export async function warmCommonEngines(): Promise<void> {
  const processor = await loadProcessor();
  for (const id of COMMON_STYLE_IDS) {
    const style = await findCitationStyle(id);
    if (style) await engineFor(processor, templateOf(style));
  }
}

/** The bibliography and in-text citation of the resources in a style (styles.ts finds it) and format. */
export async function formatCitations(
  resources: ResourceRow[],
  style: CitationStyle,
  format: CitationFormat,
): Promise<FormattedCitations> {
  const engine = await engineFor(await loadProcessor(), templateOf(style));
  // The note is the user's own text, not part of a reference; CSL styles print `note` when present.
  const items = toCslItems(resources).map(
    ({ note: _note, abstract: _abstract, keyword: _keyword, ...item }) => item,
  );
  const byId = new Map(items.map((item) => [item.id, item]));
  // Synchronous from here on: no other request uses the engine in between.
  engine.sys.retrieveItem = (id) => byId.get(id) ?? {};
  engine.setOutputFormat(format);
  engine.updateItems(items.map((item) => item.id));
  const made = engine.makeBibliography();
  const bibliography = made ? made[0].bibstart + made[1].join('') + made[0].bibend : '';
  const citation = engine.makeCitationCluster(items.map((item) => ({ id: item.id })));
  engine.updateItems([]);
  return { style, format, bibliography: bibliography.trim(), citation: citation.trim() };
}
