/**
 * Every background job of the service, wired in one place on the one job queue (platform/jobs.ts,
 * pg-boss in the service's database):
 * - PDF text extraction (`pdfs.extract`, workspaces/pdfs/extraction.ts), worked in every process;
 * - the sweep of PDF files no row names (`pdfs.sweep`, every 6 hours across the processes);
 * - the pruning of workspaces' change logs (`events.prune`, workspaces/events/pruning.ts, every 10
 *   minutes across the processes);
 * - alerts (alerts/jobs.ts): the schedule's tick, runs, digests and the history's pruning, worked
 *   where ALERTS_ENABLED (every process may still enqueue a run asked for by hand).
 * `app.ts` creates it, starts it once the app is ready and stops it when the app closes.
 */
import type { FastifyBaseLogger } from 'fastify';
import { registerAlertJobs } from './alerts/jobs.js';
import { ALERT_QUEUE_DEFINITIONS } from './alerts/queues.js';
import type { Config } from './config.js';
import type { ResourceResolver } from './context.js';
import type { Platform } from './platform/index.js';
import { createJobQueue, type JobQueue, type QueueDefinition } from './platform/jobs.js';
import { mailerFor } from './platform/mail/index.js';
import type { SearchProviders } from './search/index.js';
import { createPdfExtraction, type PdfExtraction } from './workspaces/pdfs/extraction.js';
import { PDF_QUEUE_DEFINITIONS } from './workspaces/pdfs/queues.js';
import { registerEventPruning } from './workspaces/events/pruning.js';
import { EVENT_QUEUE_DEFINITIONS } from './workspaces/events/queues.js';
import { registerPdfSweep } from './workspaces/pdfs/sweeper.js';
import { closePdfExtractors } from './summaries/pdf/extract.js';

/** Every queue of the service (test/support/pglite-template.ts makes the same ones in its copy). */
const BACKGROUND_QUEUES: readonly QueueDefinition[] = [
  ...ALERT_QUEUE_DEFINITIONS,
  ...PDF_QUEUE_DEFINITIONS,
  ...EVENT_QUEUE_DEFINITIONS,
];

/** How often an idle worker looks for jobs (a job sent wakes its workers at once; this is the fallback). */
const POLL_SECONDS = 2;

export interface BackgroundDeps {
  config: Config;
  platform: Platform;
  log: FastifyBaseLogger;
  providers: SearchProviders;
  resolveResource: ResourceResolver;
}

export interface Background {
  queue: JobQueue;
  pdfExtraction: PdfExtraction;
  /** Starts the workers (after the app is ready). */
  start(): Promise<void>;
  /** Stops the workers: PDF extraction first (its work aborted, retried later), then the queue. */
  stop(): Promise<void>;
}

export function createBackground(deps: BackgroundDeps): Background {
  const { config, platform, log } = deps;
  const db = platform.database.db;
  const queue = createJobQueue({
    store: platform.database.connection,
    queues: BACKGROUND_QUEUES,
    working: true,
    heartbeatSeconds: config.jobs.heartbeatSeconds,
    pollSeconds: Math.min(POLL_SECONDS, config.alerts.tickSeconds),
    log,
  });
  platform.metrics.gauge({
    name: 'job_queue_depth',
    help: 'Background jobs waiting or running, by queue (shared by every process on the database)',
    labelNames: ['queue'] as const,
    async collect() {
      this.reset();
      const depths: Record<string, number> = await queue.depth().catch(() => ({}));
      for (const { name } of BACKGROUND_QUEUES) this.set({ queue: name }, depths[name] ?? 0);
    },
  });

  const pdfExtraction = createPdfExtraction({
    db,
    blobs: platform.blobs,
    queue,
    log,
    resolveResource: deps.resolveResource,
  });
  pdfExtraction.register();
  registerPdfSweep({ db, blobs: platform.blobs, queue, extraction: pdfExtraction, log });
  registerEventPruning({ db, queue, retentionDays: config.events.activityRetentionDays, log });

  if (config.alerts.enabled)
    registerAlertJobs({
      config,
      db,
      queue,
      mailer: mailerFor(platform.mailTransport, log),
      metrics: platform.metrics,
      providers: deps.providers,
      cache: platform.cache,
      secret: platform.signingSecret,
      log,
    });

  return {
    queue,
    pdfExtraction,
    start: () => queue.start(),
    async stop() {
      await pdfExtraction.stop();
      await queue.stop();
      await closePdfExtractors();
    },
  };
}
