/** What every capability's routes receive: the platform plus the shared auth machinery. */
import type { AccessTokenIssuer, PasswordHashCost, SessionDeps } from './auth/index.js';
import type { Config } from './config.js';
import type { Db, Tx } from './platform/db/client.js';
import type { Drain } from './platform/drain.js';
import type { Platform } from './platform/index.js';
import type { BibliographicDetails } from './search/index.js';
import type { WorkerPool } from './platform/worker-pool.js';

/** One normalised record for an identifier (a search result id, DOI, arXiv id, PMID, OpenAlex id). */
export interface ResolvedResource {
  id: string;
  title: string;
  authors: string[];
  abstract: string;
  url: string;
  provider: string;
  publishedDate?: string;
  doi?: string;
  arxivId?: string;
  pmid?: string;
  pdfUrl?: string;
  /** The journal, proceedings or repository as the provider names it ("PLoS ONE", "arXiv cs.IT"). */
  venue?: string;
  /** The provider's own type (`journal-article`, `preprint`, `video`, …). */
  type?: string;
  /**
   * The bibliographic record the provider gave: structured names with roles, CSL type, container,
   * volume, issue, pages, publisher, ISSN, ISBN, language (search/types.ts, BibliographicDetails).
   */
  details?: BibliographicDetails;
}

export type ResourceResolver = (
  identifier: string,
  signal?: AbortSignal,
) => Promise<ResolvedResource | null>;

export interface PdfExtractionJobs {
  ready(): Promise<void>;
  enqueue(
    tx: Tx,
    row: { resourceId: string; blobKey: string; uploadedBy: string | null },
  ): Promise<void>;
}

export interface AppContext {
  config: Config;
  platform: Platform;
  db: Db;
  tokens: AccessTokenIssuer;
  sessions: SessionDeps;
  /** What a new password's argon2id hash costs: OWASP's baseline, or a cheap one a test app asks for (BuildOptions). */
  passwordHashCost: PasswordHashCost;
  /** Search's lookup by identifier; workspaces use it to add a resource by `resourceId` (Variant B). */
  resolveResource: ResourceResolver;
  /** Whether the process is draining before it stops (readiness answers 503). */
  drain: Drain;
  /** Worker threads for work whose cost a user's input decides: reading imports, formatting citations. */
  workers: WorkerPool;
  /**
   * Enqueues a stored PDF's text extraction (workspaces/pdfs/extraction.ts) in the transaction that
   * records it; `ready()` is awaited before that transaction opens.
   */
  pdfExtraction: PdfExtractionJobs;
}
