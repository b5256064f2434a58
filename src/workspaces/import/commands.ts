/**
 * Importing a citation file into a workspace: every entry read, each one judged new, duplicate (of a
 * resource in the workspace or of an earlier entry of the file: same work key as adding decides, or
 * alike by title as the duplicates finder judges, duplicates/likeness.ts), unreadable, or past the
 * workspace's room; the new ones written
 * in batches of IMPORT_BATCH_SIZE, one transaction each, so that a failure leaves no part of a batch.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../platform/db/client.js';
import {
  workerModule,
  WorkerPoolBusy,
  WorkerTaskFailed,
  type WorkerPool,
} from '../../platform/worker-pool.js';
import { ApiError, notFound, validationError } from '../../platform/errors.js';
import { LIMITS } from '../schemas.js';
import type { NewResourceRow } from '../resources/store.js';
import type { ImportFormat, ParsedEntry } from './formats.js';
import { IMPORT_LIMITS } from './limits.js';
import type { ParseInput, ParseOutcome } from './parse-worker.js';
import { countEntriesAtLeast, detectFormat } from './scan.js';
import { knownResources, writeImportBatch, type KnownResource } from './store.js';
import { resourceOf } from './to-resource.js';
import { firstFreeKey } from '../../records/index.js';
import { wantedKeyOf } from '../citation-keys/keys.js';
import { alikeByTitle, likenessKey, traitsOf, type WorkTraits } from '../duplicates/likeness.js';

/** Reads the file's text as a format: in a worker (parseInWorkers) for requests, in this thread (parseInProcess) for tests and the benchmark. */
export type FileParser = (input: ParseInput) => Promise<ParseOutcome>;

/** The parsers (citation-js) are loaded at the first import read in this thread, not at start. */
const parseInProcess: FileParser = async (input) =>
  (await import('./parse-worker.js')).default(input);

/** The worker module that reads imported files (loaded in every worker of the pool). */
export const PARSE_WORKER = workerModule(import.meta.url, 'parse-worker');

/**
 * Reads the file in a worker of `pool` within `timeoutMs`. A worker past its time or its heap is
 * stopped and the file refused with a 422 (nothing is written); a full queue is a 503.
 */
export function parseInWorkers(pool: WorkerPool, timeoutMs: number): FileParser {
  return async (input) => {
    try {
      return await pool.run<ParseOutcome>(PARSE_WORKER, input, timeoutMs);
    } catch (error) {
      if (error instanceof WorkerTaskFailed)
        throw new ApiError(
          'UNPROCESSABLE',
          error.reason === 'timeout'
            ? `Reading the file took longer than ${Math.round(timeoutMs / 1000)} s, so nothing was imported: split it into smaller files`
            : 'Reading the file needed more memory than an import may use, so nothing was imported: split it into smaller files',
          {
            field: 'file',
            reason: error.reason === 'timeout' ? 'too_slow_to_read' : 'too_large_to_read',
          },
        );
      if (error instanceof WorkerPoolBusy) throw busy();
      throw error;
    }
  };
}

/** 503 with Retry-After: every worker is busy and the queue full. */
const busy = () =>
  new ApiError(
    'SERVICE_UNAVAILABLE',
    'The server is busy reading other files; try again in a few seconds',
    undefined,
    { 'retry-after': '5' },
  );

const noun = (format: ImportFormat) =>
  format === 'csljson' ? 'CSL-JSON item' : format === 'ris' ? 'RIS record' : 'BibTeX entry';

const tooManyEntries = (count: number, atLeast: boolean) =>
  validationError(
    'file',
    'too_many_entries',
    `The file holds ${atLeast ? 'at least ' : ''}${count.toLocaleString('en-US')} ` +
      `entries; import at ` +
      `most ${IMPORT_LIMITS.entries.toLocaleString('en-US')} at a time (split the file)`,
  );

export interface ImportedSummary {
  id: string | null;
  title: string;
  authors: string[];
  year: string | null;
  type: string | null;
  url: string | null;
  tags: string[];
  /** The key it was (or would be) imported under; null for an entry not written. */
  citationKey: string | null;
}

/** An entry's own key that the resource could not keep as it was, and why. */
export interface KeyChange {
  from: string;
  to: string;
  /** `taken`: another resource of the workspace (or an earlier entry) holds it; `invalid`: BibTeX or biber could not read it. */
  reason: 'taken' | 'invalid';
}

interface Position {
  index: number;
  line: number | null;
  key: string | null;
}

export type EntryOutcome = Position &
  (
    | { outcome: 'imported' | 'would_import'; resource: ImportedSummary; keyChanged?: KeyChange }
    | {
        outcome: 'duplicate';
        resource: ImportedSummary;
        duplicateOf: { resourceId: string | null; entryIndex: number | null; title: string };
      }
    | { outcome: 'unreadable'; reason: string }
    | { outcome: 'no_room'; resource: ImportedSummary; reason: string }
  );

export interface ImportReport {
  dryRun: boolean;
  format: ImportFormat;
  counts: {
    entries: number;
    imported: number;
    duplicates: number;
    unreadable: number;
    noRoom: number;
    keysChanged: number;
  };
  entries: EntryOutcome[];
}

/** An entry the file holds, as a row to insert with the traits it is judged by. */
interface Candidate extends Position {
  values: NewResourceRow & { id: string };
  traits: WorkTraits;
}

/** An earlier entry of the file (and the resource it became). */
interface SeenEntry extends WorkTraits {
  entryIndex: number;
  resourceId: string | null;
}

/** What earlier entries of the file are known by: work key, and likeness key (a list each). */
interface SeenInFile {
  byWorkKey: Map<string, SeenEntry>;
  byLikeness: Map<string, SeenEntry[]>;
}

/** Adds `item` to the list `map` holds under `key`. */
function listUnder<T>(map: Map<string, T[]>, key: string | null, item: T): void {
  if (!key) return;
  const list = map.get(key);
  if (list) list.push(item);
  else map.set(key, [item]);
}

function summaryOf(
  values: NewResourceRow & { id: string },
  imported: boolean,
  citationKey: string | null = null,
): ImportedSummary {
  const year = values.record.issued?.year;
  return {
    citationKey,
    id: imported ? values.id : null,
    title: values.title,
    authors: values.authors ?? [],
    year: year === undefined ? null : String(year),
    type: values.type ?? null,
    url: values.url ?? null,
    tags: values.tags ?? [],
  };
}

/**
 * Judges candidates in file order against the workspace's resources and the file's earlier entries;
 * the new ones take the room left, in order, and are recorded as seen.
 */
function judge(
  candidates: Candidate[],
  known: KnownResource[],
  seen: SeenInFile,
  capacity: number,
  dryRun: boolean,
): { rows: NewResourceRow[]; outcomes: EntryOutcome[] } {
  const byWorkKey = new Map<string, KnownResource>();
  const byLikeness = new Map<string, KnownResource[]>();
  for (const resource of known) {
    if (resource.workKey) byWorkKey.set(resource.workKey, resource);
    listUnder(byLikeness, likenessKey(resource), resource);
  }
  // Keys are compared without case, as BibTeX compares them (citation-keys/).
  const takenKeys = new Set(
    known.flatMap((resource) => (resource.citationKey ? [resource.citationKey.toLowerCase()] : [])),
  );
  let room = capacity - known.length;
  const rows: NewResourceRow[] = [];
  const outcomes: EntryOutcome[] = [];
  for (const candidate of candidates) {
    const { values, traits, index, line, key } = candidate;
    const workKey = values.workKey ?? null;
    const likeness = likenessKey(traits);
    const position = { index, line, key };
    const resource = summaryOf(values, false);
    const inWorkspace =
      (workKey ? byWorkKey.get(workKey) : undefined) ??
      (likeness ? alikeByTitle(traits, byLikeness.get(likeness) ?? []) : null);
    if (inWorkspace) {
      outcomes.push({
        ...position,
        outcome: 'duplicate',
        resource,
        duplicateOf: { resourceId: inWorkspace.id, entryIndex: null, title: inWorkspace.title },
      });
      continue;
    }
    const inFile =
      (workKey ? seen.byWorkKey.get(workKey) : undefined) ??
      (likeness ? alikeByTitle(traits, seen.byLikeness.get(likeness) ?? []) : null);
    if (inFile) {
      outcomes.push({
        ...position,
        outcome: 'duplicate',
        resource,
        duplicateOf: {
          resourceId: inFile.resourceId,
          entryIndex: inFile.entryIndex,
          title: inFile.title,
        },
      });
      continue;
    }
    if (room <= 0) {
      outcomes.push({
        ...position,
        outcome: 'no_room',
        resource,
        reason: `A workspace holds at most ${LIMITS.resourcesPerWorkspace.toLocaleString('en-US')} resources`,
      });
      continue;
    }
    room--;
    // The entry's own key exactly, suffixed when taken; Better BibTeX's when it has none or an unusable one.
    const { wanted, record, refusedKey } = wantedKeyOf(values);
    const citationKey = firstFreeKey(wanted.key, takenKeys);
    takenKeys.add(citationKey.toLowerCase());
    rows.push({ ...values, record, citationKey });
    const mark = { ...traits, entryIndex: index, resourceId: dryRun ? null : values.id };
    if (workKey) seen.byWorkKey.set(workKey, mark);
    listUnder(seen.byLikeness, likeness, mark);
    const keyChanged: KeyChange | null =
      refusedKey !== null
        ? { from: refusedKey, to: citationKey, reason: 'invalid' }
        : wanted.given && citationKey !== wanted.key
          ? { from: wanted.key, to: citationKey, reason: 'taken' }
          : null;
    outcomes.push({
      ...position,
      outcome: dryRun ? 'would_import' : 'imported',
      resource: summaryOf(values, !dryRun, citationKey),
      ...(keyChanged ? { keyChanged } : {}),
    });
  }
  return { rows, outcomes };
}

/**
 * The entries of the file, read as `format` (or as the format its text holds, when null) by `parse`.
 * Its entry heads are counted first, in one scan, and a file past the limit refused before it is read.
 */
export async function readImportFile(
  text: string,
  format: ImportFormat | null,
  parse: FileParser = parseInProcess,
): Promise<{ format: ImportFormat; entries: ParsedEntry[] }> {
  const chosen = format ?? detectFormat(text);
  if (!chosen) {
    throw validationError(
      'file',
      'unknown_format',
      'The file is not BibTeX, RIS or CSL-JSON: no @entry{, TY  - line or JSON array found',
    );
  }
  const heads = countEntriesAtLeast(text, chosen);
  if (heads !== null && heads > IMPORT_LIMITS.entries) throw tooManyEntries(heads, true);
  const outcome = await parse({ text, format: chosen });
  if (!outcome.ok) {
    if (outcome.reason === 'macro_too_large')
      throw new ApiError('VALIDATION_ERROR', outcome.message, {
        field: 'file',
        reason: 'macro_too_large',
      });
    throw validationError('file', 'unreadable', outcome.message);
  }
  const { entries } = outcome;
  if (entries.length === 0)
    throw validationError('file', 'no_entries', `The file holds no ${noun(chosen)}`);
  if (entries.length > IMPORT_LIMITS.entries) throw tooManyEntries(entries.length, false);
  return { format: chosen, entries };
}

export async function importCitations(
  db: Db,
  workspaceId: string,
  /** Who imports: each resource says they added it. */
  addedBy: string | null,
  file: { format: ImportFormat; entries: ParsedEntry[] },
  options: { dryRun: boolean; batchSize?: number },
): Promise<ImportReport> {
  const outcomes: EntryOutcome[] = [];
  const candidates: Candidate[] = [];
  for (const entry of file.entries) {
    const position = { index: entry.index, line: entry.line, key: entry.key };
    if (!entry.ok) {
      outcomes.push({ ...position, outcome: 'unreadable', reason: entry.reason });
      continue;
    }
    const made = resourceOf(workspaceId, entry.item, {
      cslJson: file.format === 'csljson',
    });
    if ('reason' in made) {
      outcomes.push({ ...position, outcome: 'unreadable', reason: made.reason });
      continue;
    }
    // The entry's key: BibTeX's, CSL-JSON's `citation-key` (the record has them), else RIS's ID or CSL-JSON's id.
    const ownKey = made.values.record.citationKey ?? entry.key;
    candidates.push({
      ...position,
      values: {
        ...made.values,
        record: ownKey ? { ...made.values.record, citationKey: ownKey } : made.values.record,
        addedBy,
        id: randomUUID(),
      },
      // A display title ("Untitled legal case") says nothing of which work it is.
      traits: traitsOf(made.untitled ? { ...made.values, title: '' } : made.values),
    });
  }

  const seen: SeenInFile = { byWorkKey: new Map(), byLikeness: new Map() };
  if (options.dryRun) {
    outcomes.push(
      ...judge(
        candidates,
        await knownResources(db, workspaceId),
        seen,
        LIMITS.resourcesPerWorkspace,
        true,
      ).outcomes,
    );
  } else {
    const size = options.batchSize ?? IMPORT_LIMITS.batch;
    for (let start = 0; start < candidates.length; start += size) {
      const batch = candidates.slice(start, start + size);
      const judged = await writeImportBatch(db, workspaceId, (known) => {
        const { rows, outcomes: batchOutcomes } = judge(
          batch,
          known,
          seen,
          LIMITS.resourcesPerWorkspace,
          false,
        );
        return { rows, result: batchOutcomes };
      });
      if (!judged) throw notFound('Workspace');
      outcomes.push(...judged);
    }
  }

  outcomes.sort((a, b) => a.index - b.index);
  const count = (kinds: EntryOutcome['outcome'][]) =>
    outcomes.filter((entry) => kinds.includes(entry.outcome)).length;
  return {
    dryRun: options.dryRun,
    format: file.format,
    counts: {
      entries: outcomes.length,
      imported: count(['imported', 'would_import']),
      duplicates: count(['duplicate']),
      unreadable: count(['unreadable']),
      noRoom: count(['no_room']),
      keysChanged: outcomes.filter((entry) => 'keyChanged' in entry).length,
    },
    entries: outcomes,
  };
}

/** 415 for a body the route cannot read as a citation file. */
export const unsupportedMediaType = (type: string) =>
  new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Cannot import ${type || 'a body without a Content-Type'}: send ` +
      `multipart/form-data (field "file"), application/x-bibtex, ` +
      `application/x-research-info-systems or ` +
      `application/vnd.citationstyles.csl+json`,
    { field: 'content-type', reason: 'unsupported' },
  );
