/**
 * Cost of folding and ranking one federated answer: 7 providers × 100 records through mergeRecords,
 * scoreRecords and sortRecords. The records are parsed from the recorded provider bodies in
 * test/fixtures/providers and stretched to 100 per provider; about a third of each provider's records
 * are works another provider also returned (same DOI, arXiv id or title and year), as in real answers.
 *
 * Run alone: `tsx bench/search-merge.ts`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mergeRecords } from '../src/search/merge.js';
import { parseArxivFeed } from '../src/search/providers/arxiv.js';
import { crossrefWorkToRecord } from '../src/search/providers/crossref.js';
import { openalexWorkToRecord } from '../src/search/providers/openalex.js';
import { parseEfetch } from '../src/search/providers/pubmed.js';
import { semanticScholarPaperToRecord } from '../src/search/providers/semanticscholar.js';
import { parseYoutubeSearch, youtubeVideoToRecord } from '../src/search/providers/youtube.js';
import { zenodoRecordToRecord } from '../src/search/providers/zenodo.js';
import { scoreRecords, sortRecords } from '../src/search/rank.js';
import type { ProviderId, SearchRecord } from '../src/search/types.js';

const FIXTURES = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'test',
  'fixtures',
  'providers',
);
const PER_PROVIDER = 100;
const SHARED_SHARE = 0.35;
const QUERY = 'turing machine neural computation';

interface BenchResult {
  name: string;
  opsPerSec: number;
  msPerOp: number;
}

function fixture(path: string): string {
  return readFileSync(join(FIXTURES, path), 'utf8');
}

function json<T>(path: string): T {
  return JSON.parse(fixture(path)) as T;
}

function defined<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/** Each provider's own recorded records. */
function recordedRecords(): Record<ProviderId, SearchRecord[]> {
  const crossref = json<{ message: { items: Array<Record<string, unknown>> } }>(
    'crossref/works_query-ecology_query.author-carl-boettiger.json',
  ).message.items;
  const openalex = [
    ...json<{ results: Array<Record<string, unknown>> }>(
      'openalex/works_filter-fulltext.search_toast-AND-biodiversity_cursor_per-page200_TRIMMED-first10.json',
    ).results,
    ...json<{ results: Array<Record<string, unknown>> }>(
      'openalex/works_filter-title.search_augmenting-llm-chemistry-tools.json',
    ).results,
  ];
  const zenodo = [
    ...json<{ hits: { hits: Array<Record<string, unknown>> } }>(
      'zenodo/records_search_type-dataset_bounds_size4.json',
    ).hits.hits,
    ...json<{ hits: { hits: Array<Record<string, unknown>> } }>(
      'zenodo/records_search_q-title_size2_page1.json',
    ).hits.hits,
  ];
  const youtube = parseYoutubeSearch(
    json<unknown>('youtube/search_list_q-surfing_page1.json'),
  ).hits.map((hit) => youtubeVideoToRecord(hit.videoId, hit.snippet));
  return {
    arxiv: [
      ...parseArxivFeed(fixture('arxiv/query_all-testing_start0_max10.xml')).records,
      ...parseArxivFeed(fixture('arxiv/legacy2016_query_au-del_maestro.xml')).records,
    ],
    pubmed: [
      ...parseEfetch(fixture('pubmed/efetch_pubmed_two_articles_abstracts.xml')),
      ...parseEfetch(fixture('pubmed/efetch_pubmed_structured_abstract_labels.xml')),
      ...parseEfetch(fixture('pubmed/efetch_pubmed_structured_abstract_nlmcategory.xml')),
      ...parseEfetch(fixture('pubmed/efetch_pubmed_two_articles_structured_publisher-status.xml')),
    ],
    crossref: crossref.map(crossrefWorkToRecord).filter(defined),
    openalex: openalex.map(openalexWorkToRecord).filter(defined),
    semanticscholar: json<{ data: Array<Record<string, unknown>> }>(
      'semanticscholar/paper_search_turing_all-fields_limit100.json',
    )
      .data.map(semanticScholarPaperToRecord)
      .filter(defined),
    zenodo: zenodo.map(zenodoRecordToRecord).filter(defined),
    youtube,
  };
}

/** A provider's own record, made distinct for its n-th use. */
function variant(base: SearchRecord, n: number): SearchRecord {
  const nativeId = `${base.nativeId}-${n}`;
  return {
    ...base,
    id: `${base.provider}:${nativeId}`,
    nativeId,
    title: n === 0 ? base.title : `${base.title} (part ${n})`,
    ...(base.doi ? { doi: `${base.doi}.${n}` } : {}),
    ...(base.arxivId ? { arxivId: `${base.arxivId}.${n}` } : {}),
    ...(base.pmid ? { pmid: `${base.pmid}${n}` } : {}),
    sources: [base.provider],
  };
}

/** Another provider's view of a shared work: same identifiers, its own id and field richness. */
function sharedView(work: SearchRecord, provider: ProviderId, index: number): SearchRecord {
  return {
    ...work,
    id: `${provider}:shared-${index}`,
    provider,
    nativeId: `shared-${index}`,
    abstract: index % 3 === 0 ? '' : work.abstract,
    authors: work.authors.slice(0, 1 + (index % Math.max(1, work.authors.length))),
    citations: provider === 'openalex' ? work.citations + 3 : work.citations,
    citationsKnown: provider === 'openalex' || provider === 'crossref',
    // Some views share only title and year, the weakest key.
    ...(index % 4 === 0 ? { doi: undefined, arxivId: undefined } : {}),
    sources: [provider],
  };
}

export function buildSyntheticAnswer(): SearchRecord[] {
  const recorded = recordedRecords();
  const universe = recorded.semanticscholar;
  const all: SearchRecord[] = [];
  for (const [provider, own] of Object.entries(recorded) as Array<[ProviderId, SearchRecord[]]>) {
    const records: SearchRecord[] = [];
    for (let index = 0; index < PER_PROVIDER; index++) {
      const shared =
        provider !== 'semanticscholar' &&
        provider !== 'youtube' &&
        index / PER_PROVIDER < SHARED_SHARE;
      const work = universe[(index * 7) % universe.length];
      const base = own[index % own.length];
      if (shared && work) records.push(sharedView(work, provider, index));
      else if (base)
        records.push(
          provider === 'semanticscholar' ? base : variant(base, Math.floor(index / own.length)),
        );
    }
    all.push(...records.map((record, index) => ({ ...record, ranks: { [provider]: index + 1 } })));
  }
  return all;
}

/**
 * Best of several batches: on a shared machine the fastest batch is the closest to the code's own cost,
 * the slower ones measure the neighbours.
 */
export async function benchSearchMerge(): Promise<BenchResult> {
  const answer = buildSyntheticAnswer();
  const run = (): number =>
    sortRecords(scoreRecords(mergeRecords(answer), QUERY), 'relevance').length;
  for (let i = 0; i < 30; i++) run();
  const batches = 10;
  const perBatch = 20;
  let bestMs = Number.POSITIVE_INFINITY;
  let checksum = 0;
  for (let batch = 0; batch < batches; batch++) {
    const startedAt = process.hrtime.bigint();
    for (let i = 0; i < perBatch; i++) checksum += run();
    bestMs = Math.min(bestMs, Number(process.hrtime.bigint() - startedAt) / 1e6 / perBatch);
  }
  if (checksum === 0) throw new Error('Merging produced nothing');
  return {
    name: `search merge+rank (${answer.length} records from 7 providers)`,
    opsPerSec: Math.round(1000 / bestMs),
    msPerOp: Math.round(bestMs * 1000) / 1000,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const answer = buildSyntheticAnswer();
  const merged = mergeRecords(answer);
  const result = await benchSearchMerge();
  console.log(`${answer.length} records → ${merged.length} after merging`);
  console.log(`${result.name}: ${result.msPerOp} ms/op, ${result.opsPerSec} ops/s`);
}
