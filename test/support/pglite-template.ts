/**
 * One migrated embedded database for the whole test run: migrating a new PGlite takes seconds on a
 * loaded machine, starting one from a copy of a migrated one a fraction of that. The copy (PGlite's
 * `dumpDataDir`, a tar of its data directory) is kept under node_modules/.cache/, named by a hash of
 * the migrations, the PGlite and pg-boss versions and the job queues, so a changed migration makes a new one; the global setup
 * makes it before any test file starts, and each test process reads it once. Tests that open a
 * database themselves (`openDatabase({ pgliteDir: 'memory://' })`) still migrate from empty.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { ALERT_QUEUE_DEFINITIONS } from '../../src/alerts/queues.js';
import { PDF_QUEUE_DEFINITIONS } from '../../src/workspaces/pdfs/queues.js';
import { EVENT_QUEUE_DEFINITIONS } from '../../src/workspaces/events/queues.js';
import { migrateEmbedded, PGLITE_EXTENSIONS } from '../../src/platform/db/client.js';
import { createJobQueue } from '../../src/platform/jobs.js';
import { ROOT } from './build-once.js';

const MIGRATIONS_DIR = join(ROOT, 'drizzle');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
    )
    .sort();
}

/** Where the copy for the present migrations and PGlite version is kept. */
function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json')));
  hash.update(readFileSync(join(ROOT, 'node_modules', 'pg-boss', 'package.json')));
  hash.update(readFileSync(join(ROOT, 'src', 'alerts', 'queues.ts')));
  hash.update(readFileSync(join(ROOT, 'src', 'workspaces', 'pdfs', 'queues.ts')));
  hash.update(readFileSync(join(ROOT, 'src', 'workspaces', 'events', 'queues.ts')));
  hash.update(readFileSync(join(ROOT, 'src', 'platform', 'jobs.ts')));
  for (const file of filesUnder(MIGRATIONS_DIR))
    hash.update(relative(MIGRATIONS_DIR, file)).update(readFileSync(file));
  return join(
    ROOT,
    'node_modules',
    '.cache',
    'research-workspace-tests',
    `pglite-${hash.digest('hex').slice(0, 16)}.tar`,
  );
}

async function makeTemplate(path: string): Promise<void> {
  const client = new PGlite('memory://', { extensions: PGLITE_EXTENSIONS });
  try {
    await migrateEmbedded(client);
    // The job queue's tables and queues too, as a process makes them at its first start (pg-boss
    // installing its schema costs the embedded database about a second).
    const queue = createJobQueue({
      store: { kind: 'pglite', client },
      queues: [...ALERT_QUEUE_DEFINITIONS, ...PDF_QUEUE_DEFINITIONS, ...EVENT_QUEUE_DEFINITIONS],
      working: false,
      heartbeatSeconds: 30,
      pollSeconds: 2,
      log: console,
    });
    await queue.ready();
    await queue.stop();
    const dump = await client.dumpDataDir('none');
    mkdirSync(join(path, '..'), { recursive: true });
    // Written beside it and renamed: a test process never reads half a file.
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  } finally {
    await client.close();
  }
}

/** Makes the copy unless it exists (the global setup calls this before the test files start). */
export async function ensurePgliteTemplate(): Promise<string> {
  const path = pgliteTemplatePath();
  if (!existsSync(path)) await makeTemplate(path);
  return path;
}

let template: Promise<Blob> | undefined;

/** The migrated database to start an embedded test database from, read once per test process. */
export function migratedPgliteTemplate(): Promise<Blob> {
  template ??= ensurePgliteTemplate().then((path) => new Blob([readFileSync(path)]));
  return template;
}
