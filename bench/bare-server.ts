/**
 * The reference every service route is measured against: a bare `node:http` server, no framework,
 * that answers the same JSON for the same route and does only what that answer cannot do without.
 *
 * - `GET /api/health`: the same document (a fresh timestamp, the service's backend states).
 * - DB-backed routes: the *same SQL* the service runs, on its own copy of the same store with the same
 *   data, through the same driver (`openDatabase` from the service, so PGlite or the pg pool are set up
 *   identically), rows shaped by the service's own presenters, then `JSON.stringify`. The SQL text is
 *   not retyped here: at start the service's store functions are run once against a Drizzle instance
 *   whose logger records every statement, inside a transaction that is rolled back, and those exact
 *   statements are then executed raw (`rowMode: 'array'`) with the parameters checked to line up.
 *   So the ratio is the service's overhead (routing, auth, rate limits, validation, ORM, serialisation)
 *   over the database, not the database.
 * - `GET /api/search`: the same upstream requests to the same fixture server (PubMed and YouTube in two
 *   steps, as the service asks them), then the answer the service gave for a query: the floor set by
 *   the providers' delay.
 * - `POST /api/summarize` (quick): the service's own pure `summarize()` (from dist/) behind a Map keyed by the
 *   request, so "cached" is a Map hit and "cold" is one summarisation.
 *
 * Nothing here authenticates: a bearer token is looked up in the table of the benchmark's users.
 * Configuration: a JSON file named by the first argument (`BareConfig`). Prints `listening <port>`.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { PGlite } from '@electric-sql/pglite';
import { getTableColumns, type Table } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import type * as DbClientModule from '../src/platform/db/client.js';
import type { Db } from '../src/platform/db/client.js';
import type * as SchemaModule from '../src/platform/db/schema.js';
import type * as ProfileStoreModule from '../src/profiles/store.js';
import type * as CommandsModule from '../src/workspaces/commands.js';
import type * as PresentersModule from '../src/workspaces/presenters.js';
import type * as WorkspaceStoreModule from '../src/workspaces/store.js';
import type * as ResourceStoreModule from '../src/workspaces/resources/store.js';
import type { WorkspaceWithCounts } from '../src/workspaces/store.js';
import type { ResourceRow } from '../src/workspaces/resources/store.js';
import type * as AnnotationStoreModule from '../src/workspaces/annotations/store.js';
import type { AnnotationRow } from '../src/workspaces/annotations/store.js';
import type * as WorkKeyModule from '../src/workspaces/resources/work-key.js';

/**
 * The service's code as the service runs it: the production build in dist/ (what `node dist/main.js`
 * loads), not the sources, which may have moved on since the build. Types come from the sources.
 */
async function fromDist<T>(path: string): Promise<T> {
  return (await import(new URL(`../dist/${path}`, import.meta.url).href)) as T;
}

const { openDatabase, pgliteDirFor } =
  await fromDist<typeof DbClientModule>('platform/db/client.js');
const schema = await fromDist<typeof SchemaModule>('platform/db/schema.js');
const { findProfile } = await fromDist<typeof ProfileStoreModule>('profiles/store.js');
const { describeNewResource } = await fromDist<typeof CommandsModule>('workspaces/commands.js');
const { presentResource, presentWorkspace } = await fromDist<typeof PresentersModule>(
  'workspaces/presenters.js',
);
const { findWorkspace, listWorkspaces } =
  await fromDist<typeof WorkspaceStoreModule>('workspaces/store.js');
const { listResources } = await fromDist<typeof ResourceStoreModule>(
  'workspaces/resources/store.js',
);
const { annotationsByResource } = await fromDist<typeof AnnotationStoreModule>(
  'workspaces/annotations/store.js',
);
const { workKeyOf } = await fromDist<typeof WorkKeyModule>('workspaces/resources/work-key.js');

export interface BareUser {
  id: string;
  email: string;
  name: string;
  /** The access token's `exp`. */
  expiresAt: number;
}

export interface BareConfig {
  port: number;
  store: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
  /** Bearer token → user. */
  users: Record<string, BareUser>;
  health: { version: string; services: Record<string, string> };
  /** The provider fixture server's origin and the service's answer to a search (sent as is). */
  search?: { fixtureOrigin: string; answer: string };
  /** The service's summary cache description (`cache` in Variant A answers). */
  summaryCacheDescription?: string;
}

type Row = unknown[];

interface RawStore {
  query(sql: string, params: unknown[]): Promise<Row[]>;
  /** Runs `work` in a transaction (BEGIN … COMMIT, or ROLLBACK when it throws) on one connection. */
  transaction<T>(work: (tx: Pick<RawStore, 'query'>) => Promise<T>): Promise<T>;
}

interface Statement {
  sql: string;
  params: unknown[];
}

const config = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareConfig;

// ---- the store: opened exactly as the service opens it ----

const database = await openDatabase(
  config.store.kind === 'pglite'
    ? { pgliteDir: pgliteDirFor(config.store.dataDir) }
    : { databaseUrl: config.store.url },
);
const client = (database.db as unknown as { $client: PGlite | pg.Pool }).$client;

function rawStoreOf(target: PGlite | pg.Pool): RawStore {
  if (config.store.kind === 'pglite') {
    const lite = target as PGlite;
    return {
      query: async (sql, params) => (await lite.query<Row>(sql, params, { rowMode: 'array' })).rows,
      transaction: (work) =>
        lite.transaction((tx) =>
          work({
            query: async (sql, params) =>
              (await tx.query<Row>(sql, params, { rowMode: 'array' })).rows,
          }),
        ),
    };
  }
  // Named statements: PostgreSQL parses and plans each once per connection (the service's hot reads do the same).
  const pool = target as pg.Pool;
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (!name)
      names.set(sql, (name = `bare_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`));
    return name;
  };
  return {
    query: async (sql, params) =>
      (await pool.query<Row>({ name: nameOf(sql), text: sql, values: params, rowMode: 'array' }))
        .rows,
    transaction: async (work) => {
      const connection = await pool.connect();
      try {
        await connection.query('begin');
        const result = await work({
          query: async (sql, params) =>
            (
              await connection.query<Row>({
                name: nameOf(sql),
                text: sql,
                values: params,
                rowMode: 'array',
              })
            ).rows,
        });
        await connection.query('commit');
        return result;
      } catch (error) {
        await connection.query('rollback');
        throw error;
      } finally {
        connection.release();
      }
    },
  };
}
const store = rawStoreOf(client);

// ---- the service's SQL, recorded from its own store functions ----

class Rollback extends Error {}

/** Runs `work` against a Drizzle instance that records every statement, and rolls everything back. */
async function record(work: (db: Db) => Promise<unknown>): Promise<Statement[]> {
  const statements: Statement[] = [];
  // Transaction control (the recorder's own transaction) is not recorded.
  const control = /^\s*(begin|commit|rollback|savepoint|release)\b/i;
  const logger = {
    logQuery: (sql: string, params: unknown[]) =>
      void (control.test(sql) ? undefined : statements.push({ sql, params })),
  };
  const recorder = (config.store.kind === 'pglite'
    ? drizzlePglite(client as PGlite, { schema, logger })
    : drizzlePg(client as pg.Pool, { schema, logger })) as unknown as Db;
  await recorder
    .transaction(async (tx) => {
      await work(tx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return statements;
}

/** The recorded statement, after checking that `params` (what this server will send) lines up with what the service sent. */
function statement(
  recorded: Statement[],
  index: number,
  expected: unknown[],
  what: string,
): string {
  const found = recorded[index];
  if (!found)
    throw new Error(
      `${what}: the service ran ${recorded.length} statements, expected at least ${index + 1}`,
    );
  const same =
    found.params.length === expected.length &&
    found.params.every((value, i) => {
      const mine = expected[i];
      // Timestamps ("now") differ by the time between the two calls.
      return typeof mine === 'string' && /^\d{4}-\d\d-\d\dT/.test(mine)
        ? typeof value === 'string'
        : JSON.stringify(value) === JSON.stringify(mine);
    });
  if (!same)
    throw new Error(
      `${what}: parameters do not line up: service ${JSON.stringify(found.params)}, bare ${JSON.stringify(expected)}`,
    );
  return found.sql;
}

/**
 * Column order of `select` lists: the table's columns in declaration order (checked against the SQL),
 * without a `search` document, which the store's row reads leave out (src/workspaces/store.ts).
 */
function columnsOf(table: Table, sql: string): string[] {
  const columns = Object.entries(getTableColumns(table)).filter(([key]) => key !== 'search');
  const names = columns.map(([, column]) => `"${column.name}"`);
  if (!sql.includes(names.join(', '))) throw new Error(`unexpected select list in: ${sql}`);
  return columns.map(([key]) => key);
}

function rowObject<T>(keys: string[], row: Row, extra: Record<string, unknown> = {}): T {
  const object: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) object[keys[i] as string] = row[i];
  return Object.assign(object, extra) as T;
}

const anyUser = Object.values(config.users)[0];
if (!anyUser) throw new Error('No user configured');
const nowIso = () => new Date().toISOString();

// A workspace of that user (any will do to record the SQL; nothing is changed, everything is rolled back).
const recordedWorkspaceId = await (async () => {
  const { rows } = await listWorkspaces(database.db, anyUser.id, { limit: 1, offset: 0 });
  const id = rows[0]?.id;
  if (!id) throw new Error('The benchmark user has no workspace to record the SQL with');
  return id;
})();

const listSql = await record((db) => listWorkspaces(db, anyUser.id, { limit: 20, offset: 0 }));
// The user's id four times: the role column and the own-or-shared condition each name it twice.
const LIST_ROWS = statement(
  listSql,
  0,
  [nowIso(), anyUser.id, anyUser.id, anyUser.id, anyUser.id, 20, 0],
  'listWorkspaces rows',
);
const LIST_TOTAL = statement(listSql, 1, [anyUser.id, anyUser.id], 'listWorkspaces total');
const WORKSPACE_KEYS = [
  ...columnsOf(schema.workspaces, LIST_ROWS),
  'resourceCount',
  'shareCount',
  'role',
];

const findSql = await record((db) => findWorkspace(db, recordedWorkspaceId));
const FIND_WORKSPACE = statement(findSql, 0, [nowIso(), recordedWorkspaceId], 'findWorkspace');

const resourcesSql = await record((db) => listResources(db, recordedWorkspaceId));
const LIST_RESOURCES = statement(resourcesSql, 0, [recordedWorkspaceId], 'listResources');
const RESOURCE_KEYS = columnsOf(schema.workspaceResources, LIST_RESOURCES);

const annotationsSql = await record((db) =>
  annotationsByResource(db, [recordedWorkspaceId, anyUser.id]),
);
const ANNOTATIONS = statement(
  annotationsSql,
  0,
  [`{${recordedWorkspaceId},${anyUser.id}}`],
  'annotationsByResource',
);
const ANNOTATION_KEYS = columnsOf(schema.annotations, ANNOTATIONS);

const profileSql = await record((db) => findProfile(db, anyUser.id));
const FIND_PROFILE = statement(profileSql, 0, [anyUser.id], 'findProfile');
const AVATAR_INDEX = columnsOf(schema.profiles, FIND_PROFILE).indexOf('avatarUrl');

const RESOURCES_PER_WORKSPACE = 500;
const SAMPLE_BODY = {
  title: 'Recorded',
  url: 'https://bench.example.org/recorded',
  notes: '',
  tags: [] as string[],
  authors: [] as string[],
};
const insertSample = await describeNewResource(async () => null, recordedWorkspaceId, anyUser.id, {
  ...SAMPLE_BODY,
  data: undefined,
  type: undefined,
  resourceId: undefined,
});
const addSql = await record((db) => insertSample(db));
// Adding a resource: findWorkspace is the route's; then a transaction locks the workspace, counts its
// resources, inserts unless the same work is there, and marks the workspace changed.
const LOCK_WORKSPACE = statement(addSql, 0, [recordedWorkspaceId], 'insertResourceIfRoom: lock');
const COUNT_RESOURCES = statement(addSql, 1, [recordedWorkspaceId], 'insertResourceIfRoom: count');
const insertParams = (
  id: string,
  url: string | null,
  body: { title: string; type?: string; authors?: string[]; tags?: string[]; notes?: string },
) => [
  id,
  // resource_id: a request by title and URL names none.
  null,
  workKeyOf({ url }),
  body.title,
  url,
  body.type ?? null,
  JSON.stringify(body.authors ?? []),
  JSON.stringify(body.tags ?? []),
  body.notes ?? '',
  '{}',
];
const INSERT_RESOURCE = statement(
  addSql,
  2,
  insertParams(recordedWorkspaceId, SAMPLE_BODY.url, SAMPLE_BODY),
  'insertResourceIfRoom: insert',
);
const TOUCH_WORKSPACE = statement(addSql, 3, [recordedWorkspaceId], 'insertResourceIfRoom: touch');

// ---- handlers ----

function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

function userOf(req: IncomingMessage): { token: string; user: BareUser } | null {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const token = header.slice(7);
  const user = config.users[token];
  return user ? { token, user } : null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function workspaceOf(row: Row): WorkspaceWithCounts {
  return rowObject<WorkspaceWithCounts>(WORKSPACE_KEYS, row, {
    resourceCount: Number(row[7]),
    shareCount: Number(row[8]),
  });
}

async function listHandler(res: ServerResponse, userId: string): Promise<void> {
  const rows = await store.query(LIST_ROWS, [nowIso(), userId, userId, userId, userId, 20, 0]);
  const [totalRow] = await store.query(LIST_TOTAL, [userId, userId]);
  const total = Number(totalRow?.[0] ?? 0);
  send(
    res,
    200,
    JSON.stringify({
      workspaces: rows.map((row) => presentWorkspace(workspaceOf(row), 'owner')),
      total,
    }),
    { 'x-total-count': String(total) },
  );
}

async function detailHandler(res: ServerResponse, userId: string, id: string): Promise<void> {
  const [row] = await store.query(FIND_WORKSPACE, [nowIso(), id]);
  if (!row || row[1] !== userId) return send(res, 404, '{"error":{"code":"NOT_FOUND"}}');
  const workspace = workspaceOf(row);
  const resources = (await store.query(LIST_RESOURCES, [id])).map((r) =>
    rowObject<ResourceRow>(RESOURCE_KEYS, r),
  );
  const byResource = new Map<string, AnnotationRow[]>();
  if (resources.length > 0) {
    const ids = resources.map((resource) => resource.id);
    for (const r of await store.query(ANNOTATIONS, [`{${ids.join(',')}}`])) {
      const annotation = rowObject<AnnotationRow>(ANNOTATION_KEYS, r);
      const list = byResource.get(annotation.resourceId) ?? [];
      list.push(annotation);
      byResource.set(annotation.resourceId, list);
    }
  }
  send(
    res,
    200,
    JSON.stringify({
      workspace: presentWorkspace(workspace, 'owner'),
      resources: resources.map((resource) =>
        presentResource(resource, byResource.get(resource.id)),
      ),
    }),
  );
}

async function addHandler(
  req: IncomingMessage,
  res: ServerResponse,
  userId: string,
  id: string,
): Promise<void> {
  const body = JSON.parse(await readBody(req)) as {
    title: string;
    url?: string;
    notes?: string;
    tags?: string[];
    authors?: string[];
    type?: string;
  };
  const [row] = await store.query(FIND_WORKSPACE, [nowIso(), id]);
  if (!row || row[1] !== userId) return send(res, 404, '{"error":{"code":"NOT_FOUND"}}');
  const url = body.url ?? null;
  const outcome = await store.transaction(async (tx) => {
    if ((await tx.query(LOCK_WORKSPACE, [id])).length === 0) return 'not_found' as const;
    const [counted] = await tx.query(COUNT_RESOURCES, [id]);
    if (Number(counted?.[0]) >= RESOURCES_PER_WORKSPACE) return 'full' as const;
    const [inserted] = await tx.query(INSERT_RESOURCE, insertParams(id, url, body));
    if (!inserted) return 'duplicate' as const;
    await tx.query(TOUCH_WORKSPACE, [id]);
    return rowObject<ResourceRow>(RESOURCE_KEYS, inserted);
  });
  if (typeof outcome === 'string')
    return send(res, outcome === 'not_found' ? 404 : 409, `{"error":{"code":"${outcome}"}}`);
  send(res, 201, JSON.stringify({ resource: presentResource(outcome) }));
}

async function sessionHandler(res: ServerResponse, token: string, user: BareUser): Promise<void> {
  const [profile] = await store.query(FIND_PROFILE, [user.id]);
  const avatarUrl = (profile?.[AVATAR_INDEX] as string | null | undefined) ?? null;
  send(
    res,
    200,
    JSON.stringify({
      user: { id: user.id, email: user.email, name: user.name, avatarUrl },
      session: { access_token: token, expires_at: user.expiresAt },
    }),
  );
}

// Search: the upstream requests the providers make, answered by the fixture server with its delay.
const upstreamAgent = new Agent({ keepAlive: true, maxSockets: 64 });
function fetchUpstream(path: string): Promise<void> {
  const origin = config.search?.fixtureOrigin ?? '';
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, origin), { agent: upstreamAgent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function searchHandler(res: ServerResponse, query: string): Promise<void> {
  if (!config.search) return send(res, 501, '{"error":"search not configured"}');
  const q = encodeURIComponent(query);
  await Promise.all([
    fetchUpstream(`/arxiv/query?search_query=all:${q}&start=0&max_results=20`),
    fetchUpstream(`/pubmed/esearch.fcgi?db=pubmed&term=${q}`).then(() =>
      fetchUpstream('/pubmed/efetch.fcgi?db=pubmed&id=1'),
    ),
    fetchUpstream(`/crossref/works?query=${q}&rows=20`),
    fetchUpstream(`/openalex/works?search=${q}&per-page=20`),
    fetchUpstream(`/semanticscholar/paper/search?query=${q}&limit=20`),
    fetchUpstream(`/zenodo/records?q=${q}&size=20`),
    fetchUpstream(`/youtube/search?q=${q}&part=snippet`).then(() =>
      fetchUpstream('/youtube/videos?part=snippet&id=x'),
    ),
  ]);
  send(res, 200, config.search.answer);
}

// Summaries: the service's pure summariser, when that module is there.
interface SummaryModule {
  summarize(input: { title?: string; text: string; mode: 'quick' | 'deep' }): unknown;
  toSummaryVariantA(summary: never): Record<string, unknown>;
}
// toSummaryVariantA is in variants.js; a dist built before that file existed exports it from summarize.js, so both are read.
const summaries = await Promise.all([
  fromDist<object>('summaries/summarize.js'),
  fromDist<object>('summaries/variants.js').catch(() => ({})),
])
  .then(([summarizeModule, variantsModule]): SummaryModule | null => {
    const candidate = { ...summarizeModule, ...variantsModule } as Partial<SummaryModule>;
    return typeof candidate.summarize === 'function' &&
      typeof candidate.toSummaryVariantA === 'function'
      ? (candidate as SummaryModule)
      : null;
  })
  .catch(() => null);
/** Each entry: the answer as first computed, then as a cache hit (the service says where it came from). */
const summaryCache = new Map<string, string>();
const SUMMARY_CACHE_ENTRIES = 2000;

async function summarizeHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = JSON.parse(await readBody(req)) as {
    title?: string;
    abstract?: string;
    mode?: string;
  };
  if (!summaries) return send(res, 501, '{"error":"summaries not available"}');
  const key = `${body.title ?? ''}\u0000${body.abstract ?? ''}`;
  const cached = summaryCache.get(key);
  if (cached) return send(res, 200, cached);
  const summary = summaries.toSummaryVariantA(
    summaries.summarize({
      title: body.title,
      text: body.abstract || body.title || '',
      mode: 'quick',
    }) as never,
  );
  const answer = (fromCache: false | 'memory') =>
    JSON.stringify({
      ...summary,
      modeRequested: 'quick',
      modeUsed: 'quick',
      fromCache,
      cache: config.summaryCacheDescription ?? 'memory',
    });
  if (summaryCache.size >= SUMMARY_CACHE_ENTRIES)
    summaryCache.delete(summaryCache.keys().next().value as string);
  summaryCache.set(key, answer('memory'));
  send(res, 200, answer(false));
}

const WORKSPACE_PATH = /^\/api\/workspaces\/([0-9a-f-]{36})$/;
const RESOURCES_PATH = /^\/api\/workspaces\/([0-9a-f-]{36})\/resources$/;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (req.method === 'GET' && path === '/api/health') {
    return send(
      res,
      200,
      JSON.stringify({
        status: 'ok',
        timestamp: nowIso(),
        version: config.health.version,
        services: config.health.services,
      }),
    );
  }
  if (req.method === 'GET' && path === '/api/search') {
    return searchHandler(res, new URLSearchParams(url.slice(queryAt + 1)).get('q') ?? '');
  }
  if (req.method === 'POST' && path === '/api/summarize') return summarizeHandler(req, res);
  const caller = userOf(req);
  if (!caller) return send(res, 401, '{"error":{"code":"AUTHENTICATION_ERROR"}}');
  if (req.method === 'GET' && path === '/api/auth/session')
    return sessionHandler(res, caller.token, caller.user);
  if (req.method === 'GET' && path === '/api/workspaces') return listHandler(res, caller.user.id);
  const detail = req.method === 'GET' ? WORKSPACE_PATH.exec(path) : null;
  if (detail?.[1]) return detailHandler(res, caller.user.id, detail[1]);
  const add = req.method === 'POST' ? RESOURCES_PATH.exec(path) : null;
  if (add?.[1]) return addHandler(req, res, caller.user.id, add[1]);
  send(res, 404, '{"error":{"code":"NOT_FOUND"}}');
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    process.stderr.write(
      `bare server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    if (!res.headersSent) send(res, 500, '{"error":{"code":"INTERNAL_ERROR"}}');
  });
});
server.keepAliveTimeout = 72_000;
server.listen(config.port, '127.0.0.1', () => process.stdout.write(`listening ${config.port}\n`));

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  upstreamAgent.destroy();
  void database.close().then(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
