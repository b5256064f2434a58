/**
 * Alert runs on built processes sharing one PostgreSQL database and one outbox: (a) with two processes
 * ticking every second, a due alert runs once for its period and mails one digest; (b) the process
 * working a run is killed (SIGKILL) mid-search, and the other one takes the run over once its heartbeat
 * stops (pg-boss's monitor fails the job and it is retried): one digest, not zero or two; (c) a run
 * asked for by hand whose only process is killed mid-search runs after a restart, on PostgreSQL and on
 * the embedded database (the same pg-boss queue); (d) a provider down makes a run partial, and the next
 * run catches up; (e) a digest a real SMTP server refuses (451) is sent once on a retry after a backoff;
 * (f) a digest whose process is killed while a slow SMTP server holds the exchange is sent again when
 * the kill came before the end of its data, and not when it came between the final dot and the reply.
 * Search answers come from the recorded provider fixtures.
 *
 * Most of this file's time is spent waiting (a heartbeat running out, a process starting, a backoff),
 * so its four groups run side by side, each with processes, a database, a data directory (its outbox
 * or an SMTP server) and a fixture server of its own (`concurrent` groups): (a), (b) and (d); (c) on
 * PostgreSQL; (e) and (c) on the embedded database; (f). Within a group the tests run one after the
 * other (`it.sequential`: each goes on from the processes the one before left) and count their
 * assertions with the test's own `expect` (the global one is shared by the tests running at once).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import { createScratchDatabase } from '../support/app.js';
import type { ApiSchema } from '../support/api-types.js';
import {
  everyProviderRoutes,
  providerEnvFor,
  startFixtureServer,
  type FixtureServer,
} from '../support/fixture-server.js';
import { ask, eventually, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import {
  ensureServiceBuilt,
  seedMigratedDatabase,
  startServerProcess,
  type ServerProcess,
} from '../support/server-process.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp-server.js';

const skipReason = process.env.TEST_DATABASE_URL
  ? null
  : 'TEST_DATABASE_URL unset: alert durability needs PostgreSQL';
/**
 * pg-boss's least heartbeat (it refuses less): a killed process's job is retried 0.8–1.2 times this
 * plus 2–6 s (the retry's backoff and a poll) after the kill, as the README says.
 */
const HEARTBEAT_SECONDS = 10;
const TAKEOVER_MAX_MS = (1.2 * HEARTBEAT_SECONDS + 6) * 1000;
/** How often an idle worker polls (background.ts): due runs must start closer together than this. */
const POLL_MS = 2000;

/** When `server` logged that it started `runId`'s attempt `attempt` (pino's `time`), or null. */
function runStartedAt(server: ServerProcess, runId: string, attempt: number): number | null {
  for (const line of server.output().split('\n')) {
    if (!line.includes(`"runId":"${runId}","attempt":${attempt},"msg":"alert run: started"`))
      continue;
    return (JSON.parse(line) as { time: number }).time;
  }
  return null;
}
/** Crossref answers a search whose words include this after this long: the window a process is killed in. */
const SLOW_WORD = 'slowsearch';
const SLOW_MS = 4000;

type Run = ApiSchema<'AlertRun'>;

/** Whether a parsed mail is an alert digest sent to `email`. */
function isDigestFor(mail: ParsedMail, email: string): boolean {
  return (
    !!mail.subject?.includes('new result') &&
    !!mail.to &&
    'text' in mail.to &&
    mail.to.text === email
  );
}

/** The digests in the shared outbox addressed to `email`. */
async function digestsTo(dataDir: string, email: string): Promise<number> {
  let count = 0;
  const outbox = join(dataDir, 'outbox');
  if (!existsSync(outbox)) return 0;
  const names = readdirSync(outbox).filter((name) => name.endsWith('.eml'));
  for (const name of names) {
    const mail = await simpleParser(readFileSync(join(outbox, name)));
    if (isDigestFor(mail, email)) count++;
  }
  return count;
}

async function createAlert(
  server: ServerProcess,
  user: ProcessUser,
  query: string,
  providers = ['crossref'],
): Promise<string> {
  const res = await ask(`${server.url}/api/alerts`, {
    method: 'POST',
    headers: { ...user.bearer, 'content-type': 'application/json' },
    body: JSON.stringify({ query, providers, frequency: 'daily' }),
  });
  expect(res.status, res.body).toBe(201);
  return (JSON.parse(res.body) as { id: string }).id;
}

const runsOf = async (server: ServerProcess, user: ProcessUser, alertId: string) =>
  (
    JSON.parse(
      (await ask(`${server.url}/api/alerts/${alertId}/runs`, { headers: user.bearer })).body,
    ) as ApiSchema<'AlertRunList'>
  ).runs;

/** Waits for the alert's one run to be finished with its digest sent. */
async function sentRun(
  servers: ServerProcess[],
  server: ServerProcess,
  user: ProcessUser,
  alertId: string,
  withinMs: number,
): Promise<Run[]> {
  let runs: Run[] = [];
  const sent = await eventually(
    async () => {
      runs = await runsOf(server, user, alertId);
      return runs.some((run) => run.mail === 'sent');
    },
    withinMs,
    200,
  );
  expect(
    sent,
    `${JSON.stringify(runs)}\n${servers.map((one) => one.output().slice(-3000)).join('\n---\n')}`,
  ).toBe(true);
  return runs;
}

/** (c): a run asked for by hand, its only process killed mid-search, runs once after a restart. */
async function runSurvivesRestart(
  expect: ExpectStatic,
  servers: ServerProcess[],
  start: () => Promise<ServerProcess>,
  digestsOf: (email: string) => Promise<number>,
): Promise<void> {
  const [survivor] = servers.filter(
    (server) => server.child.exitCode === null && server.child.signalCode === null,
  ) as [ServerProcess];
  const user = await signUpAndIn(survivor.url);
  const alertId = await createAlert(survivor, user, `${SLOW_WORD} ${randomUUID().slice(0, 6)}`);
  const queued = await ask(`${survivor.url}/api/alerts/${alertId}/run`, {
    method: 'POST',
    headers: user.bearer,
  });
  expect(queued.status, queued.body).toBe(202);
  expect(
    await eventually(
      async () => (await runsOf(survivor, user, alertId))[0]?.status === 'running',
      10_000,
      50,
    ),
  ).toBe(true);
  // No process is left: the run waits in the database.
  await Promise.all(servers.splice(0).map((server) => server.stop('SIGKILL')));
  const restarted = await start();
  const runs = await sentRun(servers, restarted, user, alertId, 60_000);
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({ reason: 'manual', status: 'done', mail: 'sent' });
  expect(await digestsOf(user.email)).toBe(1);
}

/** Runs `alertId` now and waits until the run has finished and its mail settled. */
async function ranNow(server: ServerProcess, user: ProcessUser, alertId: string): Promise<Run> {
  const queued = await ask(`${server.url}/api/alerts/${alertId}/run`, {
    method: 'POST',
    headers: user.bearer,
  });
  expect(queued.status, queued.body).toBe(202);
  const runId = (JSON.parse(queued.body) as { run: Run }).run.id;
  let run: Run | undefined;
  const settled = await eventually(
    async () => {
      run = (await runsOf(server, user, alertId)).find((one) => one.id === runId);
      return (
        !!run &&
        !['queued', 'running'].includes(run.status) &&
        ['none', 'sent', 'failed'].includes(run.mail)
      );
    },
    30_000,
    100,
  );
  expect(settled, `${JSON.stringify(run)}\n${server.output().slice(-3000)}`).toBe(true);
  return run!;
}

/** A fixture server for one group: `crossref.down` makes Crossref answer 503 (a provider down). */
interface SlowFixtures {
  server: FixtureServer;
  crossref: { down: boolean };
}

const slowFixtures = async (): Promise<SlowFixtures> => {
  const crossref = { down: false };
  /**
   * The slow queries Crossref has been asked: each is answered slowly the first time only (the window
   * its process is killed in); the attempt that takes the run over, or runs it after a restart, is
   * answered at once instead of waiting SLOW_MS again.
   */
  const askedSlowly = new Set<string>();
  const server = await startFixtureServer([
    { path: '/crossref/works', query: () => crossref.down, status: 503, body: 'down' },
    {
      path: '/crossref/works',
      query: (query) => {
        const words = query.get('query') ?? '';
        if (!words.includes(SLOW_WORD) || askedSlowly.has(words)) return false;
        askedSlowly.add(words);
        return true;
      },
      fixture: 'crossref/works_query-ecology_query.author-carl-boettiger.json',
      delayMs: SLOW_MS,
    },
    ...everyProviderRoutes(),
  ]);
  return { server, crossref };
};

/** A group's processes on one PostgreSQL scratch database (its `beforeAll` and `afterAll`). */
function postgresGroup() {
  const group = {
    fixtures: undefined as unknown as SlowFixtures,
    scratch: undefined as unknown as { url: string; drop(): Promise<void> },
    db: undefined as unknown as pg.Client,
    dataDir: '',
    env: {} as Record<string, string>,
    servers: [] as ServerProcess[],
    async start(extra: Record<string, string> = {}) {
      const server = await startServerProcess({ env: { ...group.env, ...extra } });
      group.servers.push(server);
      return server;
    },
  };
  beforeAll(async () => {
    await ensureServiceBuilt();
    group.fixtures = await slowFixtures();
    group.scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    group.db = new pg.Client({ connectionString: group.scratch.url });
    await group.db.connect();
    group.dataDir = mkdtempSync(join(tmpdir(), 'rw-alerts-'));
    group.env = {
      ...providerEnvFor(group.fixtures.server.url),
      DATABASE_URL: group.scratch.url,
      DATA_DIR: group.dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      // Info: each process logs the runs it starts, which tells the test which process to kill.
      LOG_LEVEL: 'info',
      ALERTS_TICK_SECONDS: '1',
      JOBS_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '100000',
    };
  }, 240_000);
  afterAll(async () => {
    await Promise.all(group.servers.map((server) => server.stop('SIGKILL')));
    await group.db?.end();
    await group.scratch?.drop();
    await group.fixtures?.server.close();
    if (group.dataDir) rmSync(group.dataDir, { recursive: true, force: true });
  });
  return group;
}

/** A group's one process at a time on the embedded database, sending mail to an SMTP server of its own. */
function embeddedGroup() {
  const group = {
    fixtures: undefined as unknown as SlowFixtures,
    smtp: undefined as unknown as TestSmtpServer,
    dataDir: '',
    env: {} as Record<string, string>,
    servers: [] as ServerProcess[],
    async start() {
      const server = await startServerProcess({ env: group.env });
      group.servers.push(server);
      return server;
    },
    /** The live process. */
    live() {
      return group.servers.filter(
        (one) => one.child.exitCode === null && one.child.signalCode === null,
      ) as [ServerProcess];
    },
    async digestsOverSmtp(email: string) {
      let count = 0;
      for (const raw of group.smtp.received) {
        const mail = await simpleParser(raw);
        if (isDigestFor(mail, email)) count++;
      }
      return count;
    },
  };
  beforeAll(async () => {
    await ensureServiceBuilt();
    group.smtp = await startSmtpServer();
    group.fixtures = await slowFixtures();
    group.dataDir = mkdtempSync(join(tmpdir(), 'rw-alerts-embedded-'));
    // Migrated already, as the other processes on the embedded database start: the migration is not
    // this file's subject, and done by two processes at once it took most of a minute on a busy machine.
    await seedMigratedDatabase(group.dataDir);
    group.env = {
      ...providerEnvFor(group.fixtures.server.url),
      DATA_DIR: group.dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      SMTP_URL: group.smtp.url,
      ALERTS_TICK_SECONDS: '1',
      JOBS_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
      RATE_LIMIT_AUTHENTICATED_PER_HOUR: '100000',
    };
    await group.start();
  }, 240_000);
  afterAll(async () => {
    await Promise.all(group.servers.map((server) => server.stop('SIGKILL')));
    await group.fixtures?.server.close();
    await group.smtp?.close();
    if (group.dataDir) rmSync(group.dataDir, { recursive: true, force: true });
  });
  return group;
}

describe.skipIf(skipReason)(
  'alert runs across processes (PostgreSQL)',
  { concurrent: true },
  () => {
    const group = postgresGroup();
    const makeDue = (alertId: string) =>
      group.db.query(`update alerts set next_run_at = now() - interval '1 second' where id = $1`, [
        alertId,
      ]);

    it.sequential(
      'runs a due alert once per period with two processes ticking, and mails one digest',
      async ({ expect }) => {
        const { db, servers, dataDir } = group;
        const [a, b] = await Promise.all([group.start(), group.start()]);
        const user = await signUpAndIn(a.url);
        const alertId = await createAlert(a, user, `ecology ${randomUUID().slice(0, 6)}`);
        await makeDue(alertId);
        const runs = await sentRun(servers, b, user, alertId, 20_000);
        // Three more ticks of each process: nothing else runs for this period.
        const since = Date.now();
        expect(
          await eventually(async () => {
            const { rows } = await db.query<{ count: number }>(
              `select count(*)::int as count from pgboss.job where name = 'alerts.tick' and state = 'completed' and completed_on > to_timestamp($1 / 1000.0)`,
              [since],
            );
            return rows[0]!.count >= 3;
          }, 15_000),
        ).toBe(true);
        expect(await runsOf(a, user, alertId)).toHaveLength(1);
        expect(runs[0]).toMatchObject({ reason: 'schedule', status: 'done', mail: 'sent' });
        expect(await digestsTo(dataDir, user.email)).toBe(1);
        const alert = JSON.parse(
          (await ask(`${a.url}/api/alerts/${alertId}`, { headers: user.bearer })).body,
        ) as { nextRunAt: string };
        expect(Date.parse(alert.nextRunAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
      },
      60_000,
    );

    it.sequential(
      'starts ten due alerts together, not one per poll',
      async ({ expect }) => {
        const [a, b] = group.servers as [ServerProcess, ServerProcess];
        const user = await signUpAndIn(a.url);
        const alertIds: string[] = [];
        for (let index = 0; index < 10; index++)
          alertIds.push(await createAlert(a, user, `ecology ${randomUUID().slice(0, 6)}`));
        await group.db.query(
          `update alerts set next_run_at = now() - interval '1 second' where id = any($1)`,
          [alertIds],
        );
        const runIds: string[] = [];
        expect(
          await eventually(
            async () => {
              runIds.length = 0;
              for (const alertId of alertIds) {
                const run = (await runsOf(a, user, alertId))[0];
                if (run && run.status === 'done') runIds.push(run.id);
              }
              return runIds.length === alertIds.length;
            },
            30_000,
            200,
          ),
        ).toBe(true);
        const starts = runIds.map(
          (runId) => runStartedAt(a, runId, 1) ?? runStartedAt(b, runId, 1) ?? Number.NaN,
        );
        expect(starts.every(Number.isFinite)).toBe(true);
        // One tick enqueued them all; workers take several per fetch, so they start within a poll.
        expect(Math.max(...starts) - Math.min(...starts)).toBeLessThan(POLL_MS);
      },
      60_000,
    );

    it.sequential(
      'finishes a run whose process was killed mid-search in the other process: one digest, not none or two',
      async ({ expect }) => {
        const { db, servers, dataDir } = group;
        const [a, b] = servers as [ServerProcess, ServerProcess];
        const user = await signUpAndIn(a.url);
        const alertId = await createAlert(a, user, `${SLOW_WORD} ${randomUUID().slice(0, 6)}`);
        await makeDue(alertId);
        // The process that started the run (it logs each run it starts) is the one killed.
        let holder: ServerProcess | undefined;
        let runId = '';
        expect(
          await eventually(
            async () => {
              runId = (await runsOf(a, user, alertId))[0]?.id ?? '';
              holder = runId
                ? [a, b].find((server) =>
                    server
                      .output()
                      .includes(`"runId":"${runId}","attempt":1,"msg":"alert run: started"`),
                  )
                : undefined;
              return !!holder;
            },
            15_000,
            50,
          ),
        ).toBe(true);
        const killedAt = Date.now();
        await holder!.stop('SIGKILL');
        const survivor = holder === a ? b : a;
        const runs = await sentRun(servers, survivor, user, alertId, 60_000);
        // Taken over within the documented time (README, Durable jobs).
        const takenOverAt = runStartedAt(survivor, runId, 2);
        expect(takenOverAt).not.toBeNull();
        expect(takenOverAt! - killedAt).toBeLessThanOrEqual(TAKEOVER_MAX_MS);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ id: runId, status: 'done', mail: 'sent' });
        expect(await digestsTo(dataDir, user.email)).toBe(1);
        expect(survivor.output()).toContain(
          `"runId":"${runId}","attempt":2,"msg":"alert run: started"`,
        );
        const { rows } = await db.query<{ retry_count: number }>(
          `select retry_count from pgboss.job where name = 'alerts.run' and data->>'runId' = $1`,
          [runId],
        );
        expect(rows).toEqual([{ retry_count: 1 }]);
      },
      90_000,
    );

    it.sequential(
      'makes a run partial when a provider fails, and the next run catches up on what it missed',
      async ({ expect }) => {
        const [server] = group.servers.filter(
          (one) => one.child.exitCode === null && one.child.signalCode === null,
        ) as [ServerProcess];
        const user = await signUpAndIn(server.url);
        const alertId = await createAlert(server, user, `ecology ${randomUUID().slice(0, 6)}`, [
          'crossref',
          'arxiv',
        ]);
        group.fixtures.crossref.down = true;
        const partial = await ranNow(server, user, alertId);
        group.fixtures.crossref.down = false;
        expect(partial).toMatchObject({ status: 'partial', mail: 'sent' });
        const next = await ranNow(server, user, alertId);
        // What Crossref had is new to the alert now: the next run reports it.
        expect(next).toMatchObject({ status: 'done', mail: 'sent' });
        expect(next.newCount).toBeGreaterThan(0);
        expect(await digestsTo(group.dataDir, user.email)).toBe(2);
      },
      90_000,
    );
  },
);

describe.skipIf(skipReason)(
  'an alert run across a restart (PostgreSQL)',
  { concurrent: true },
  () => {
    const group = postgresGroup();

    it.sequential(
      'runs after a restart a run that was enqueued before it, its process killed mid-search',
      async ({ expect }) => {
        await group.start();
        await runSurvivesRestart(
          expect,
          group.servers,
          () => group.start(),
          (email) => digestsTo(group.dataDir, email),
        );
      },
      90_000,
    );
  },
);

describe(
  'alert runs across restarts, and mail refused (embedded database, SMTP)',
  { concurrent: true },
  () => {
    const group = embeddedGroup();

    it.sequential(
      'retries a digest the mail server refused, after a backoff, and sends it once',
      async ({ expect }) => {
        const [server] = group.live();
        const user = await signUpAndIn(server.url);
        const alertId = await createAlert(server, user, `ecology ${randomUUID().slice(0, 6)}`);
        group.smtp.refuse(1);
        const run = await ranNow(server, user, alertId);
        expect(run).toMatchObject({ status: 'done', mail: 'sent' });
        expect(group.smtp.refused()).toBe(1);
        expect(await group.digestsOverSmtp(user.email)).toBe(1);
      },
      90_000,
    );

    it.sequential(
      'runs after a restart a run that was enqueued before it, its process killed mid-search',
      ({ expect }) => runSurvivesRestart(expect, group.servers, group.start, group.digestsOverSmtp),
      90_000,
    );
  },
);

describe(
  'digests whose process was killed mid-exchange (embedded database, SMTP)',
  { concurrent: true },
  () => {
    const group = embeddedGroup();

    /** Runs a new alert now with the mail server holding its exchange at `point`, kills the process there and restarts it. */
    const killedWhileSending = async (point: 'envelope' | 'reply') => {
      const [server] = group.live();
      const user = await signUpAndIn(server.url);
      const alertId = await createAlert(server, user, `ecology ${randomUUID().slice(0, 6)}`);
      const held = group.smtp.hold(point);
      const queued = await ask(`${server.url}/api/alerts/${alertId}/run`, {
        method: 'POST',
        headers: user.bearer,
      });
      expect(queued.status, queued.body).toBe(202);
      await held;
      await Promise.all(group.servers.splice(0).map((one) => one.stop('SIGKILL')));
      return { user, alertId, restarted: await group.start() };
    };

    it.sequential(
      'sends again, once, a digest whose process was killed before the end of its data (a slow server)',
      async ({ expect }) => {
        const { user, alertId, restarted } = await killedWhileSending('envelope');
        const runs = await sentRun(group.servers, restarted, user, alertId, 60_000);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ status: 'done', mail: 'sent' });
        expect(await group.digestsOverSmtp(user.email)).toBe(1);
      },
      120_000,
    );

    it.sequential(
      'does not send again a digest whose process was killed after the final dot, before the reply',
      async ({ expect }) => {
        const { user, alertId, restarted } = await killedWhileSending('reply');
        let runs: Run[] = [];
        const settled = await eventually(
          async () => {
            runs = await runsOf(restarted, user, alertId);
            return runs[0]?.mail === 'failed';
          },
          60_000,
          200,
        );
        expect(settled, `${JSON.stringify(runs)}\n${restarted.output().slice(-3000)}`).toBe(true);
        // The server has the one it got before the kill; none other came.
        expect(await group.digestsOverSmtp(user.email)).toBe(1);
      },
      120_000,
    );
  },
);
