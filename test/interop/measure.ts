/**
 * How faithfully records survive import → store → export and cite, measured through the HTTP API only
 * (app.inject), so that it measures whatever the code does now. docs/testing.md ("Interop figures")
 * says what each figure means; scripts/interop.ts prints them, test/interop/interop.test.ts holds floors.
 *
 * Every set of records goes into a workspace of its own (CSL items in groups no two of which the
 * import would take as duplicates), and is read back by the CSL-JSON export: the workspace's resources
 * (GET …/resources, newest first) and the export list the same resources in the same order, and the
 * import's answer names each entry's resource, so each record is paired with what came out of it.
 */
import type { FastifyInstance } from 'fastify';
import { buildUser } from '../support/factories.js';
import {
  findCitationStyle,
  isBuiltInStyle,
  packedStyleXml,
  templateOf,
} from '../../src/workspaces/cite/styles.js';
import { cslPlainText } from '../../src/records/index.js';
import { normaliseUrl } from '../../src/workspaces/resources/work-key.js';
import { differences, normaliseNames, normaliseText, normaliseValue } from './compare.js';
import { documentedCslDifference, documentedRisNames } from './documented.js';
import type { CslCase, FileCase, InteropFixtures } from './fixtures.js';
import { zoteroToCsl, type CslItem } from './zotero-csl.js';

/** The six styles the issue names (ids as GET /api/citation-styles gives them). */
const INTEROP_STYLES = [
  'apa',
  'ieee',
  'chicago-author-date',
  'modern-language-association',
  'vancouver',
  'nature',
] as const;

type ExportFormat = 'csljson' | 'bibtex' | 'ris';
const CONTENT_TYPES: Record<ExportFormat, string> = {
  csljson: 'application/vnd.citationstyles.csl+json',
  bibtex: 'application/x-bibtex',
  ris: 'application/x-research-info-systems',
};

/** A share: how many of how many. */
export interface Share {
  right: number;
  total: number;
  percent: number;
}
const share = (right: number, total: number): Share => ({
  right,
  total,
  percent: total ? Math.round((1000 * right) / total) / 10 : 100,
});

export interface InteropFigures {
  styles: string[];
  /** (a) References equal to citeproc-js on the original item, in the six styles (real-shaped items). */
  cite: {
    references: Share;
    itemsRightInAllStyles: Share;
    perStyle: Record<string, Share>;
    /** citeproc-js on our own CSL-JSON export gives …/cite's text: differences are then in the data. */
    citeEqualsOwnExport: Share;
  };
  /** (b) CSL-JSON in → CSL-JSON out, every CSL variable the same (normalised). */
  cslRoundTrip: {
    itemsUnchanged: Share;
    variablesKept: Share;
    /** Items that changed only in ways documented as right (documented.ts), not among the unchanged. */
    itemsChangedAsDocumented: number;
  };
  /** (c) RIS and BibTeX against the Zotero items expected from them. */
  zotero: Record<FileCase['set'], { fields: Share; itemsFullyRight: Share }>;
  /** (d) Author lists changed when each export is imported again (and read back as CSL-JSON). */
  reimport: Record<
    ExportFormat,
    {
      items: number;
      authorListsChanged: number;
      notReimported: number;
      /** Of the changed, those documented as right (documented.ts): the format cannot carry them. */
      authorListsChangedAsDocumented: number;
    }
  >;
  /** Entries an import did not make a resource of, by outcome. */
  notImported: Record<string, number>;
  /** The differences seen, largest first, each with one example. */
  causes: Array<{ cause: string; count: number; example: string }>;
}

interface ImportEntry {
  index: number;
  outcome: string;
  reason?: string;
  resource?: { id: string | null; title: string };
}

/** Counts causes of differences, keeping the first example of each. */
class Causes {
  private readonly seen = new Map<string, { count: number; example: string }>();
  add(cause: string, example: string): void {
    const found = this.seen.get(cause);
    if (found) found.count++;
    else this.seen.set(cause, { count: 1, example });
  }
  list(): InteropFigures['causes'] {
    return [...this.seen]
      .map(([cause, { count, example }]) => ({ cause, count, example }))
      .sort((a, b) => b.count - a.count || a.cause.localeCompare(b.cause));
  }
}

const clip = (text: string, length = 90) =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;

/** The parts of citeproc-js (no bundled types) the reference formatter uses. */
interface CiteprocEngine {
  opt: { development_extensions: { wrap_url_and_doi: boolean } };
  setOutputFormat(format: 'text'): void;
  updateItems(ids: string[]): void;
  makeBibliography(): [{ bibstart: string; bibend: string }, string[]] | false;
}
type CiteprocEngineClass = new (
  sys: { retrieveLocale: (lang: string) => unknown; retrieveItem: (id: string) => object },
  style: string,
  lang: string,
  forceLang: boolean,
) => CiteprocEngine;
interface CslPlugin {
  styles: { get(id: string): string };
  locales: { has(id: string): boolean; get(id: string): unknown };
}

/**
 * What citeproc-js prints for an item in a style, set up as the cite route sets it up (the same style
 * XML and locales, en-US, URLs and DOIs as text); `note`, `abstract` and `keyword` are left out as the
 * cite route leaves them out (a resource's note is its user's own text).
 */
async function referenceFormatter(
  styles: readonly string[],
): Promise<(item: CslItem, style: string) => string> {
  const [citeproc, core] = await Promise.all([
    import('citeproc'),
    import('@citation-js/core'),
    import('@citation-js/plugin-csl'),
  ]);
  const Engine = ((citeproc as { default?: unknown }).default ?? citeproc) as {
    Engine: CiteprocEngineClass;
  };
  const csl = core.plugins.config.get('@csl') as CslPlugin;
  let current: Record<string, unknown> = {};
  const engines = new Map<string, CiteprocEngine>();
  for (const id of styles) {
    const style = await findCitationStyle(id);
    if (!style) throw new Error(`The service knows no style ${id}`);
    const template = templateOf(style);
    const xml = isBuiltInStyle(template)
      ? csl.styles.get(template)
      : await packedStyleXml(template);
    const engine = new Engine.Engine(
      {
        retrieveLocale: (lang) =>
          csl.locales.has(lang) ? csl.locales.get(lang) : csl.locales.get('en-US'),
        retrieveItem: () => structuredClone(current),
      },
      xml,
      'en-US',
      true,
    );
    engine.opt.development_extensions.wrap_url_and_doi = false;
    engine.setOutputFormat('text');
    engines.set(id, engine);
  }
  return (item, style) => {
    const { note: _note, abstract: _abstract, keyword: _keyword, ...cited } = item;
    current = cited;
    const engine = engines.get(style)!;
    engine.updateItems([item.id]);
    const made = engine.makeBibliography();
    engine.updateItems([]);
    return made ? (made[0].bibstart + made[1].join('') + made[0].bibend).trim() : '';
  };
}

/** The HTTP API as one signed-up user uses it. */
class ApiUser {
  constructor(
    private readonly app: FastifyInstance,
    private readonly auth: { authorization: string },
  ) {}

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    body?: string | object,
    type?: string,
  ) {
    const res = await this.app.inject({
      method,
      url,
      headers: { ...this.auth, ...(type ? { 'content-type': type } : {}) },
      ...(body !== undefined ? { payload: body } : {}),
    });
    if (res.statusCode >= 300)
      throw new Error(`${method} ${url}: ${res.statusCode} ${clip(res.body, 300)}`);
    return res;
  }

  async createWorkspace(name: string): Promise<string> {
    const res = await this.call('POST', '/api/workspaces', { name });
    return res.json<{ workspace: { id: string } }>().workspace.id;
  }

  async deleteWorkspace(id: string): Promise<void> {
    await this.call('DELETE', `/api/workspaces/${id}`);
  }

  async importFile(
    workspaceId: string,
    text: string,
    format: ExportFormat,
  ): Promise<ImportEntry[]> {
    const res = await this.call(
      'POST',
      `/api/workspaces/${workspaceId}/import`,
      text,
      CONTENT_TYPES[format],
    );
    return res.json<{ entries: ImportEntry[] }>().entries;
  }

  async exportAs(workspaceId: string, format: ExportFormat): Promise<string> {
    return (await this.call('GET', `/api/workspaces/${workspaceId}/export?format=${format}`)).body;
  }

  /** The workspace's CSL items by resource id (the export and the list share their order). */
  async cslByResource(workspaceId: string): Promise<Map<string, CslItem>> {
    const list = await this.call(
      'GET',
      `/api/workspaces/${workspaceId}/resources?sort=added&limit=100`,
    );
    const ids = list.json<Array<{ id: string }>>().map((resource) => resource.id);
    const items = JSON.parse(await this.exportAs(workspaceId, 'csljson')) as CslItem[];
    if (items.length !== ids.length)
      throw new Error(`export has ${items.length} items, the workspace ${ids.length} resources`);
    return new Map(ids.map((id, n) => [id, items[n]!]));
  }

  async cite(workspaceId: string, resourceId: string, style: string): Promise<string> {
    const res = await this.call(
      'GET',
      `/api/workspaces/${workspaceId}/cite?resourceIds=${resourceId}&style=${style}&format=text`,
    );
    return res.json<{ bibliography: string }>().bibliography;
  }
}

/** At most this many records in one workspace (one page of GET …/resources). */
const GROUP_SIZE = 40;

/**
 * What the import takes two records to be the same by: identifiers (a DOI anywhere in the item, its
 * note too, and its URL as work-key.ts normalises it), or the title's plain text (CSL's markup gone:
 * "My <i>Amazing</i> Title" is "My Amazing Title"). Keys the import would not use only make more
 * groups; a key it uses and this misses would count an item as not imported.
 */
function duplicateKeys(item: CslItem): string[] {
  const title = cslPlainText(normaliseText(item.title ?? ''))
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
  // An item without a title is not imported (nothing to take it as a duplicate of).
  const keys = title ? [`title:${title}`] : [];
  for (const variable of ['DOI', 'URL', 'PMID']) {
    const value = item[variable];
    if (value) keys.push(`${variable}:${normaliseText(value).toLowerCase()}`);
  }
  const url = typeof item.URL === 'string' ? normaliseUrl(item.URL) : null;
  if (url) keys.push(`url:${url}`);
  for (const [doi] of JSON.stringify(item).matchAll(/10\.\d{4,9}\/[^\s"\\<>{}]+/g))
    keys.push(`doi:${doi.toLowerCase().replace(/[.,;)\]]+$/, '')}`);
  return keys;
}

/** CSL items in groups of at most GROUP_SIZE, none two of which share a duplicate key. */
function groupsOf(cases: CslCase[]): CslCase[][] {
  const groups: Array<{ cases: CslCase[]; keys: Set<string> }> = [];
  for (const c of cases) {
    const keys = duplicateKeys(c.item);
    let group = groups.find(
      (g) => g.cases.length < GROUP_SIZE && keys.every((k) => !g.keys.has(k)),
    );
    if (!group) groups.push((group = { cases: [], keys: new Set() }));
    group.cases.push(c);
    for (const key of keys) group.keys.add(key);
  }
  return groups.map((g) => g.cases);
}

/**
 * Each expected item's import entry: the entry of the same title (letters and digits, any case), else
 * the first entry left in file order (the fixtures do not always list their items in file order).
 */
function pairEntries(expected: CslItem[], entries: ImportEntry[]): Array<ImportEntry | undefined> {
  const unused = [...entries];
  const key = (text: unknown) =>
    normaliseText(text ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '');
  const paired = expected.map((item) => {
    const at = unused.findIndex((entry) => key(entry.resource?.title) === key(item.title));
    return at >= 0 ? unused.splice(at, 1)[0] : undefined;
  });
  return paired.map((entry) => entry ?? unused.shift());
}

/** A RIS file's records, each from its `TY` line. */
function risRecordsOf(text: string): string[] {
  return text.split(/\r?\n(?=TY {2}- )/).filter((record) => record.trim());
}

/** Title-like variables Better BibTeX's expectations give in sentence case (its import recases them). */
/** Text without CSL's `nocase` spans (their words kept). */
const withoutNocase = (text: string): string => {
  let before: string;
  do {
    before = text;
    text = text.replace(/<span class="nocase">((?:(?!<span)[\s\S])*?)<\/span>/g, '$1');
  } while (text !== before);
  return text;
};

const RECASED_BY_BBT = new Set(['title', 'container-title', 'collection-title', 'title-short']);

export async function measureInterop(
  app: FastifyInstance,
  fixtures: InteropFixtures,
  options: {
    styles?: readonly string[];
    /** Cite every CSL item, not only the real-shaped ones (fixtures.ts, CslCase). */
    citeAll?: boolean;
    progress?: (line: string) => void;
  } = {},
): Promise<InteropFigures> {
  const styles = options.styles ?? INTEROP_STYLES;
  const progress = options.progress ?? (() => {});
  const user = await buildUser(app);
  const api = new ApiUser(app, user.bearer);
  const reference = await referenceFormatter(styles);
  const causes = new Causes();
  const notImported: Record<string, number> = {};

  const perStyle = Object.fromEntries(styles.map((style) => [style, { right: 0, total: 0 }]));
  let itemsCited = 0;
  let itemsRightInAll = 0;
  let ownExportEqual = 0;
  let ownExportTotal = 0;
  let unchanged = 0;
  let variablesKept = 0;
  let variablesTotal = 0;
  let changedAsDocumented = 0;
  const tally = () => ({
    items: 0,
    authorListsChanged: 0,
    notReimported: 0,
    authorListsChangedAsDocumented: 0,
  });
  const reimport = { csljson: tally(), bibtex: tally(), ris: tally() };

  /** Imports each export of the workspace again and counts the author lists that changed. */
  async function readBackExports(workspaceId: string, stored: Map<string, CslItem>, label: string) {
    const order = [...stored.values()];
    for (const format of ['csljson', 'bibtex', 'ris'] as const) {
      const exported = await api.exportAs(workspaceId, format);
      const again = await api.createWorkspace(`${label} ${format}`);
      const entries = await api.importFile(again, exported, format);
      const items = await api.cslByResource(again);
      // The export writes the resources in the list's order; the import answers in file order.
      order.forEach((before, n) => {
        reimport[format].items++;
        const resourceId = entries[n]?.resource?.id;
        const after = resourceId ? items.get(resourceId) : undefined;
        if (!after) {
          reimport[format].notReimported++;
          const entry = entries[n];
          const outcome = entry
            ? `${entry.outcome}${entry.reason ? ` (${clip(entry.reason, 80)})` : ''}`
            : 'no entry';
          causes.add(
            `re-import of the ${format} export: entry not imported`,
            `${clip(String(before.title ?? `(untitled ${String(before.type)})`))}: ${outcome}`,
          );
          return;
        }
        const [was, is] = [normaliseNames(before.author), normaliseNames(after.author)];
        if (was !== is) {
          reimport[format].authorListsChanged++;
          const documented = format === 'ris' ? documentedRisNames(before.author) : undefined;
          if (documented) reimport[format].authorListsChangedAsDocumented++;
          causes.add(
            `re-import of the ${format} export: author list changed${documented ? ` (documented: ${documented})` : ''}`,
            `${clip(was, 60)} → ${clip(is, 60)}`,
          );
        }
      });
      await api.deleteWorkspace(again);
    }
  }

  function countNotImported(entry: ImportEntry | undefined, source: string) {
    const outcome = entry
      ? `${entry.outcome}${entry.reason ? ` (${clip(entry.reason, 60)})` : ''}`
      : 'no entry';
    notImported[outcome] = (notImported[outcome] ?? 0) + 1;
    causes.add(`import: ${outcome}`, source);
  }

  // (a) and (b): CSL items.
  const groups = groupsOf(fixtures.cslItems);
  for (const [g, group] of groups.entries()) {
    progress(`CSL items: group ${g + 1} of ${groups.length}`);
    const workspaceId = await api.createWorkspace(`interop csl ${g}`);
    const entries = await api.importFile(
      workspaceId,
      JSON.stringify(group.map((c) => c.item)),
      'csljson',
    );
    const stored = await api.cslByResource(workspaceId);
    for (const [n, { source, item, realShaped }] of group.entries()) {
      const resourceId = entries[n]?.resource?.id;
      const out = resourceId ? stored.get(resourceId) : undefined;
      if (!out) countNotImported(entries[n], source);
      const diffs = differences(item, out);
      const compared = new Set([...Object.keys(item), ...Object.keys(out ?? {})]).size;
      variablesTotal += compared;
      variablesKept += compared - diffs.length;
      if (diffs.length === 0) unchanged++;
      const documented = out ? diffs.map(documentedCslDifference) : [];
      if (diffs.length > 0 && documented.every(Boolean)) changedAsDocumented++;
      // An entry not imported is one cause (above), not each of its variables lost.
      for (const [at, d] of (out ? diffs : []).entries())
        causes.add(
          `CSL-JSON round trip: ${d.variable} ${d.kind}${documented[at] ? ` (documented: ${documented[at]})` : ''}`,
          `${source}: ${clip(d.expected, 50)} → ${clip(d.actual, 50)}`,
        );

      if (!realShaped && !options.citeAll) continue;
      itemsCited++;
      let rightInAll = true;
      for (const style of styles) {
        perStyle[style]!.total++;
        const cited = resourceId ? await api.cite(workspaceId, resourceId, style) : '';
        const wanted = reference(item, style);
        if (normaliseText(cited) === normaliseText(wanted)) perStyle[style]!.right++;
        else rightInAll = false;
        if (out) {
          ownExportTotal++;
          if (normaliseText(reference(out, style)) === normaliseText(cited)) ownExportEqual++;
        }
      }
      if (rightInAll) itemsRightInAll++;
    }
    await readBackExports(workspaceId, stored, `interop csl ${g}`);
    await api.deleteWorkspace(workspaceId);
  }

  // (c): RIS and BibTeX files against Zotero's expectations.
  const zotero = {
    'zotero-ris': { fields: [0, 0], items: [0, 0] },
    'zotero-ris-every-tag': { fields: [0, 0], items: [0, 0] },
    'zotero-bibtex': { fields: [0, 0], items: [0, 0] },
    'better-bibtex': { fields: [0, 0], items: [0, 0] },
  } satisfies Record<FileCase['set'], { fields: number[]; items: number[] }>;
  for (const [f, file] of fixtures.files.entries()) {
    progress(`Files: ${f + 1} of ${fixtures.files.length} (${file.source})`);
    // The every-tag cases give one made-up record per type (the same title, names and DOI in each):
    // one file would be one work and its duplicates, so each record is imported on its own.
    const parts = file.set === 'zotero-ris-every-tag' ? risRecordsOf(file.input) : [file.input];
    const workspaces: Array<{ id: string; stored: Map<string, CslItem> }> = [];
    const entries: ImportEntry[] = [];
    for (const [p, part] of parts.entries()) {
      const workspaceId = await api.createWorkspace(`interop file ${f}.${p}`);
      try {
        entries.push(...(await api.importFile(workspaceId, part, file.format)));
      } catch (error) {
        causes.add(`import: file refused`, `${file.source}: ${clip(String(error), 80)}`);
      }
      workspaces.push({ id: workspaceId, stored: await api.cslByResource(workspaceId) });
    }
    const stored = new Map(workspaces.flatMap((w) => [...w.stored]));
    const expected = file.expected.map((item, n) => zoteroToCsl(item, `expected-${n}`));
    const paired = pairEntries(expected, entries);
    const tally = zotero[file.set];
    for (const [n, wanted] of expected.entries()) {
      const entry = paired[n];
      const out = entry?.resource?.id ? stored.get(entry.resource.id) : undefined;
      if (!out) countNotImported(entry, file.source);
      let allRight = true;
      for (const variable of Object.keys(wanted)) {
        // `note` is Zotero's catch-all Extra field, not one field of the record.
        if (variable === 'id' || variable === 'note') continue;
        let [want, got] = [
          normaliseValue(variable, wanted[variable]),
          normaliseValue(variable, out?.[variable]),
        ];
        if (file.set === 'better-bibtex' && RECASED_BY_BBT.has(variable))
          [want, got] = [want.toLowerCase(), got.toLowerCase()];
        // A BibTeX title's braces come out as CSL `nocase` spans (its case protection, kept for the
        // exports); Zotero's expectations give the words alone (docs/testing.md, Interop figures).
        if (!want.includes('nocase')) got = withoutNocase(got);
        tally.fields[1]!++;
        if (want === got) {
          tally.fields[0]!++;
          continue;
        }
        allRight = false;
        if (out)
          causes.add(
            `${file.set}: ${variable} ${got ? 'wrong' : 'missing'}`,
            `${file.source}: ${clip(want, 50)} → ${clip(got, 50)}`,
          );
      }
      tally.items[1]!++;
      if (allRight) tally.items[0]!++;
    }
    for (const [p, w] of workspaces.entries()) {
      if (w.stored.size) await readBackExports(w.id, w.stored, `interop file ${f}.${p}`);
      await api.deleteWorkspace(w.id);
    }
  }

  return {
    styles: [...styles],
    cite: {
      references: share(
        Object.values(perStyle).reduce((n, s) => n + s.right, 0),
        Object.values(perStyle).reduce((n, s) => n + s.total, 0),
      ),
      itemsRightInAllStyles: share(itemsRightInAll, itemsCited),
      perStyle: Object.fromEntries(
        Object.entries(perStyle).map(([id, s]) => [id, share(s.right, s.total)]),
      ),
      citeEqualsOwnExport: share(ownExportEqual, ownExportTotal),
    },
    cslRoundTrip: {
      itemsUnchanged: share(unchanged, fixtures.cslItems.length),
      variablesKept: share(variablesKept, variablesTotal),
      itemsChangedAsDocumented: changedAsDocumented,
    },
    zotero: Object.fromEntries(
      Object.entries(zotero).map(([set, t]) => [
        set,
        {
          fields: share(t.fields[0]!, t.fields[1]!),
          itemsFullyRight: share(t.items[0]!, t.items[1]!),
        },
      ]),
    ) as InteropFigures['zotero'],
    reimport,
    notImported,
    causes: causes.list(),
  };
}
