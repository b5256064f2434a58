/**
 * An idempotent create whose process is killed (`kill -9`) while the request is in flight: a retry
 * with the same key creates the object exactly once and a second retry replays it. On PostgreSQL the
 * request is held inside its transaction (its work done up to the workspace's lock, which the test
 * holds) and the retry goes to a second live process, which takes the claim over once the killed
 * process's lease has lapsed: after Retry-After waits of at most the lease, not a minute. On the
 * embedded database the request is held mid-upload and the retry goes to the restarted process, which
 * takes the claim of the process before it over at once.
 *
 * The two stores' cases share nothing (processes, database, data directory) and mostly wait (a start,
 * a restart, a lease running out): they run side by side (`concurrent`), each counting its assertions
 * with its own `expect` (the test context's).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, storeLegs } from '../support/app.js';
import { ask, eventually, signUpAndIn, type ProcessUser } from '../support/process-client.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** The lease the processes are started with (IDEMPOTENCY_LEASE_SECONDS). */
const LEASE_SECONDS = 2;
const started: ServerProcess[] = [];

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop('SIGKILL')));
});

const start = async (env: Record<string, string>) => {
  const server = await startServerProcess({ env: { LOG_LEVEL: 'warn', ...env } });
  started.push(server);
  return server;
};

/** Kills the process with SIGKILL and waits for it to be gone, keeping its data directory. */
const killHard = async (server: ServerProcess) => {
  const gone = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await gone;
};

const json = (user: ProcessUser) => ({ ...user.bearer, 'content-type': 'application/json' });

async function createWorkspace(server: ServerProcess, user: ProcessUser): Promise<string> {
  const res = await ask(`${server.url}/api/workspaces`, {
    method: 'POST',
    headers: json(user),
    body: JSON.stringify({ name: 'Crash' }),
  });
  expect(res.status, res.body).toBe(201);
  return (JSON.parse(res.body) as { workspace: { id: string } }).workspace.id;
}

async function resourceCount(server: ServerProcess, user: ProcessUser, workspaceId: string) {
  const res = await ask(`${server.url}/api/workspaces/${workspaceId}/resources`, {
    headers: user.bearer,
  });
  expect(res.status, res.body).toBe(200);
  return (JSON.parse(res.body) as unknown[]).length;
}

/**
 * Sends the request with `key` until it is answered, waiting Retry-After after each 409 in_progress;
 * the answer, the Retry-After values seen and how many were sent. Gives up after `maxSends`.
 */
async function retryUntilAnswered(send: () => Promise<Response>, maxSends: number) {
  const waits: number[] = [];
  for (let sends = 1; sends <= maxSends; sends++) {
    const res = await send();
    const body = await res.text();
    if (res.status !== 409 || !body.includes('in_progress'))
      return { status: res.status, body, headers: res.headers, sends, waits };
    const wait = Number(res.headers.get('retry-after'));
    waits.push(wait);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
  return { status: 0, body: 'never answered', headers: new Headers(), sends: maxSends, waits };
}

const pdfBytes = Buffer.from(`%PDF-1.4\n% ${randomUUID()}\n${'%'.repeat(4096)}\n%%EOF\n`, 'latin1');
const boundary = `----rwcrash${randomBytes(6).toString('hex')}`;
const multipartHead = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="crash.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
);
const multipartTail = Buffer.from(`\r\n--${boundary}--\r\n`);
const multipartBody = Buffer.concat([multipartHead, pdfBytes, multipartTail]);

const uploadHeaders = (user: ProcessUser, key: string) => ({
  ...user.bearer,
  'content-type': `multipart/form-data; boundary=${boundary}`,
  'idempotency-key': key,
});

/** A PDF upload that sends its head and the first bytes of the file, then nothing more; `answered` when the server answers. */
function heldUpload(server: ServerProcess, path: string, headers: Record<string, string>) {
  let req: ClientRequest;
  const answered = new Promise<{ status: number; body: string }>((resolve) => {
    req = httpRequest(`${server.url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(multipartBody.length) },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', () => undefined);
    req.write(Buffer.concat([multipartHead, pdfBytes.subarray(0, 1024)]));
  });
  return { destroy: () => req.destroy(), answered };
}

describe('an idempotent create killed in flight (embedded database)', { concurrent: true }, () => {
  it('replays after a restart: the restarted process takes the dead claim over at once and creates one resource', async ({
    expect,
  }) => {
    const first = await start({});
    const user = await signUpAndIn(first.url);
    const workspaceId = await createWorkspace(first, user);
    const path = `/api/workspaces/${workspaceId}/resources`;
    const key = randomUUID();
    // Two uploads with the key that never finish: whichever claims it first is in flight, and the
    // other is answered 409 in_progress at once.
    const held = [1, 2].map(() => heldUpload(first, path, uploadHeaders(user, key)));
    const answered = await Promise.race(held.map((upload) => upload.answered));
    expect(answered.status, answered.body).toBe(409);
    expect(answered.body).toContain('in_progress');
    const upload = (server: ServerProcess) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: uploadHeaders(user, key),
        body: multipartBody,
      });

    await killHard(first);
    for (const upload of held) upload.destroy();
    const restarted = await start({ DATA_DIR: first.dataDir });
    const retried = await retryUntilAnswered(() => upload(restarted), 3);
    expect(retried.status, retried.body).toBe(201);
    // Taken over at once: no in_progress wait after the restart.
    expect(retried.waits).toEqual([]);
    const replayed = await upload(restarted);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual(JSON.parse(retried.body));
    expect(await resourceCount(restarted, user, workspaceId)).toBe(1);
  }, 120_000);
});

const postgresLeg = storeLegs().find((leg) => leg.postgres);

describe.skipIf(!postgresLeg || postgresLeg.skipReason)(
  'an idempotent create killed in flight (PostgreSQL, two processes)',
  { concurrent: true },
  () => {
    it('a retry at the other process takes the claim over within the lease and creates one resource', async ({
      expect,
    }) => {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      const env = {
        DATABASE_URL: scratch.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      };
      const [a, b] = await Promise.all([start(env), start(env)]);
      const held = new pg.Client({ connectionString: scratch.url });
      await held.connect();
      try {
        const user = await signUpAndIn(a.url);
        const workspaceId = await createWorkspace(a, user);
        const path = `/api/workspaces/${workspaceId}/resources`;
        const key = randomUUID();
        const add = (server: ServerProcess) =>
          fetch(`${server.url}${path}`, {
            method: 'POST',
            headers: { ...json(user), 'idempotency-key': key },
            body: JSON.stringify({ title: 'Held', url: 'https://example.org/held' }),
          });

        // The workspace's row locked by the test: A's request does its work up to the insert, which
        // waits for the lock inside A's transaction (its claim already locked there).
        await held.query('begin');
        await held.query('select id from workspaces where id = $1 for update', [workspaceId]);
        void add(a).catch(() => undefined);
        expect(
          await eventually(async () => {
            const { rows } = await held.query<{ waiting: number }>(
              `select count(*)::int as waiting from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'`,
            );
            return rows[0]!.waiting > 0;
          }, 10_000),
        ).toBe(true);

        await killHard(a);
        await held.query('rollback');
        const retried = await retryUntilAnswered(() => add(b), 2 * LEASE_SECONDS + 2);
        expect(retried.status, retried.body).toBe(201);
        // Every wait the 409s asked for is within the lease, and the claim was taken over after them.
        for (const wait of retried.waits) expect(wait).toBeLessThanOrEqual(LEASE_SECONDS);
        const replayed = await add(b);
        expect(replayed.status).toBe(201);
        expect(replayed.headers.get('idempotent-replayed')).toBe('true');
        expect(await replayed.json()).toEqual(JSON.parse(retried.body));
        expect(await resourceCount(b, user, workspaceId)).toBe(1);
      } finally {
        await held.end();
        await b.stop('SIGKILL');
        await scratch.drop().catch(() => undefined);
      }
    }, 120_000);
  },
);
