/**
 * Idempotency-Key on the creating POSTs, so that a client may retry safely: a retry with the same key
 * and body gets the first answer and creates nothing; another body is a 409; keys are per user, kept 24
 * h, shared by processes on one database; a key still being answered is a 409; failures are not kept.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSchema, BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, storeLegs, type TestApp } from '../../test/support/app.js';
import { buildUser, uniqueEmail, type TestUser } from '../../test/support/factories.js';
import type { ResolvedResource, ResourceResolver } from '../context.js';
import { KNOWN_RECORDS, pdfMultipart } from '../workspaces/test-support/helpers.js';
import { users } from './db/schema.js';

const HOUR = 60 * 60 * 1000;
/** The lease of a claim in these apps (IDEMPOTENCY_LEASE_SECONDS). */
const LEASE_SECONDS = 600;

/** The lookup behind "add by resourceId": each call waits for the test to let it answer (or fail). */
function controlledResolver() {
  const waiting: Array<{ identifier: string; answer(record: ResolvedResource | Error): void }> = [];
  const arrivals: Array<() => void> = [];
  const resolve: ResourceResolver = (identifier) =>
    new Promise((done, fail) => {
      waiting.push({
        identifier,
        answer: (record) => (record instanceof Error ? fail(record) : done(record)),
      });
      arrivals.shift()?.();
    });
  return {
    resolve,
    /** The next call, once it has arrived (bounded in time). */
    async next() {
      if (!waiting.length) {
        await Promise.race([
          new Promise<void>((arrived) => arrivals.push(arrived)),
          new Promise((_, late) =>
            setTimeout(() => late(new Error('the lookup was not called within 10 s')), 10_000),
          ),
        ]);
      }
      return waiting.shift()!;
    },
  };
}

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(`Idempotency-Key on creating requests (${leg.name})`, () => {
    let t: TestApp;
    let second: TestApp;
    let owner: TestUser;
    let stranger: TestUser;
    let clock = Date.now();
    const lookup = controlledResolver();

    beforeAll(async () => {
      // Two apps on one database, as two server processes: same secret, same Redis keys. A lease of
      // LEASE_SECONDS: its renewals (every third of it) never come while a test moves the clock.
      const env = {
        JWT_SECRET: randomBytes(32).toString('hex'),
        IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      };
      const redisKeyPrefix = `rwtest:${randomUUID()}:`;
      t = await buildTestApp({
        leg,
        env,
        redisKeyPrefix,
        build: { clock: () => clock, resolveResource: lookup.resolve },
      });
      second = await buildTestApp({
        leg,
        env,
        redisKeyPrefix,
        sameDatabaseAs: t,
        build: { clock: () => clock },
      });
      [owner, stranger] = await Promise.all([buildUser(t.app), buildUser(t.app)]);
    });
    afterAll(async () => {
      await second?.close();
      await t?.close();
    });

    const createWorkspace = (
      app: TestApp,
      user: TestUser,
      key: string | null,
      payload: Record<string, unknown>,
    ) =>
      app.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: { ...user.bearer, ...(key === null ? {} : { 'idempotency-key': key }) },
        payload,
      });
    const workspaceCount = async (user: TestUser) =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/workspaces?limit=100',
          headers: user.bearer,
        })
      ).json<BearerReply<'WorkspaceListEnvelope'>>().total;
    const expectReplayOf = (first: LightMyRequestResponse, again: LightMyRequestResponse) => {
      expect(again.statusCode, again.body).toBe(first.statusCode);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      // The version the first answer made (and where it is) come again too.
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers.location).toBe(first.headers.location);
    };

    describe('POST /api/workspaces', () => {
      it('answers a retry with the same key and body with the first answer, and creates one workspace', async () => {
        const before = await workspaceCount(owner);
        const key = randomUUID();
        const first = await createWorkspace(t, owner, key, {
          name: 'Retried',
          description: 'once',
        });
        expect(first.statusCode).toBe(201);
        const again = await createWorkspace(t, owner, key, {
          name: 'Retried',
          description: 'once',
        });
        expectReplayOf(first, again);
        expect(await workspaceCount(owner)).toBe(before + 1);
        // Without a key nothing changes: two requests, two workspaces.
        await createWorkspace(t, owner, null, { name: 'Plain' });
        await createWorkspace(t, owner, null, { name: 'Plain' });
        expect(await workspaceCount(owner)).toBe(before + 3);
      });

      it('keeps the answer in the transaction of the workspace it answers: a save that fails undoes the create, and the retry creates one', async () => {
        // The database refuses, once, to keep an answer (a trigger of this test's own database).
        const tag = randomUUID().replace(/-/g, '').slice(0, 12);
        const run = async (statements: string[]) => {
          // One statement a query: the embedded database takes no more.
          for (const statement of statements) await t.app.ctx.db.execute(sql.raw(statement));
        };
        await run([
          `create sequence fail_once_${tag}`,
          `create function fail_once_${tag}() returns trigger language plpgsql as $$
            begin if nextval('fail_once_${tag}') = 1 then raise exception 'answer not kept (test)'; end if; return new; end $$`,
          `create trigger fail_once_${tag} before update on idempotency_keys for each row
            when (new.response_status is not null) execute function fail_once_${tag}()`,
        ]);
        const before = await workspaceCount(owner);
        const key = randomUUID();
        const start = clock;
        try {
          await createWorkspace(t, owner, key, { name: 'Kept together' });
          // A retry once any claim left behind is stale: it must find the first answer or nothing done.
          clock = start + 61_000;
          const retry = await createWorkspace(t, owner, key, { name: 'Kept together' });
          expect(retry.statusCode, retry.body).toBe(201);
          expectReplayOf(retry, await createWorkspace(t, owner, key, { name: 'Kept together' }));
          expect(await workspaceCount(owner)).toBe(before + 1);
        } finally {
          clock = start;
          await run([
            `drop trigger fail_once_${tag} on idempotency_keys`,
            `drop function fail_once_${tag}()`,
            `drop sequence fail_once_${tag}`,
          ]);
        }
      });

      it('answers another process’s first answer (one database, two apps)', async () => {
        const before = await workspaceCount(owner);
        const key = randomUUID();
        const first = await createWorkspace(t, owner, key, { name: 'Lost answer' });
        const again = await createWorkspace(second, owner, key, { name: 'Lost answer' });
        expectReplayOf(first, again);
        expect(await workspaceCount(owner)).toBe(before + 1);
      });

      it('refuses the same key with another body: 409 in the error envelope, nothing created', async () => {
        const key = randomUUID();
        await createWorkspace(t, owner, key, { name: 'Original' });
        const before = await workspaceCount(owner);
        const other = await createWorkspace(t, owner, key, { name: 'Something else' });
        expect(other.statusCode).toBe(409);
        expect(other.json()).toEqual({
          error: {
            code: 'CONFLICT',
            message: expect.any(String),
            details: { field: 'idempotency-key', reason: 'key_reused' },
          },
        });
        expect(await workspaceCount(owner)).toBe(before);
      });

      it('scopes keys per user: another user’s same key and body creates their own workspace', async () => {
        const key = randomUUID();
        const mine = await createWorkspace(t, owner, key, { name: 'Same key' });
        const theirs = await createWorkspace(t, stranger, key, { name: 'Same key' });
        expect(theirs.statusCode).toBe(201);
        expect(theirs.headers['idempotent-replayed']).toBeUndefined();
        expect(theirs.json().workspace.id).not.toBe(mine.json().workspace.id);
        expect(theirs.json().workspace.ownerId).toBe(stranger.id);
      });

      it('keeps a key 24 hours: replayed just before, a new request after', async () => {
        const key = randomUUID();
        const start = clock;
        try {
          const first = await createWorkspace(t, owner, key, { name: 'Day old' });
          clock = start + 24 * HOUR - 60_000;
          expectReplayOf(first, await createWorkspace(t, owner, key, { name: 'Day old' }));
          clock = start + 24 * HOUR + 1_000;
          const later = await createWorkspace(t, owner, key, { name: 'Day old' });
          expect(later.statusCode).toBe(201);
          expect(later.headers['idempotent-replayed']).toBeUndefined();
          expect(later.json().workspace.id).not.toBe(first.json().workspace.id);
        } finally {
          clock = start;
        }
      });

      it('refuses a key longer than 255 characters (or with spaces) with 400 naming the header', async () => {
        const before = await workspaceCount(owner);
        for (const key of ['k'.repeat(256), 'two words']) {
          const res = await createWorkspace(t, owner, key, { name: 'Bad key' });
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toMatchObject({
            code: 'VALIDATION_ERROR',
            details: { field: 'idempotency-key' },
          });
        }
        expect(
          (await createWorkspace(t, owner, 'k'.repeat(255), { name: 'Longest key' })).statusCode,
        ).toBe(201);
        expect(await workspaceCount(owner)).toBe(before + 1);
      });
    });

    describe('POST /api/workspaces/{id}/resources', () => {
      it('a request still being answered: the same key gets 409 with Retry-After (the lease left), then the first answer', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Resources' })).json().workspace;
        const key = randomUUID();
        const add = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: { ...owner.bearer, 'idempotency-key': key },
            payload: { resourceId: '10.1038/nature14539' },
          });
        const start = clock;
        const first = add();
        const call = await lookup.next();
        clock = start + 100_000;
        const meanwhile = await add();
        clock = start;
        expect(meanwhile.statusCode).toBe(409);
        // The claim's lease runs LEASE_SECONDS from the claim; 100 s of it have passed.
        expect(meanwhile.headers['retry-after']).toBe(String(LEASE_SECONDS - 100));
        expect(meanwhile.json().error.details).toEqual({
          field: 'idempotency-key',
          reason: 'in_progress',
        });
        call.answer(KNOWN_RECORDS['10.1038/nature14539']!);
        const answered = await first;
        expect(answered.statusCode).toBe(201);
        expectReplayOf(answered, await add());
        const list = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}/resources`,
          headers: owner.bearer,
        });
        expect(list.json()).toHaveLength(1);
      });

      it('takes over a claim whose lease ran out at once; the late request’s writes are undone and its answer is a 409', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Abandoned' })).json().workspace;
        const key = randomUUID();
        const add = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: { ...owner.bearer, 'idempotency-key': key },
            payload: { resourceId: 'arxiv:1706.03762v5' },
          });
        const start = clock;
        try {
          const stuck = add();
          const stuckCall = await lookup.next();
          clock = start + LEASE_SECONDS * 1000 - 1000;
          const early = await add();
          expect(early.statusCode).toBe(409);
          expect(early.headers['retry-after']).toBe('1');
          clock = start + LEASE_SECONDS * 1000 + 1;
          const retry = add();
          (await lookup.next()).answer(KNOWN_RECORDS['arxiv:1706.03762v5']!);
          const taken = await retry;
          expect(taken.statusCode, taken.body).toBe(201);
          stuckCall.answer(KNOWN_RECORDS['arxiv:1706.03762v5']!);
          const late = await stuck;
          expect(late.statusCode, late.body).toBe(409);
          expect(late.json().error.details.reason).toBe('in_progress');
          expectReplayOf(taken, await add());
          const list = await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: owner.bearer,
          });
          expect(list.json()).toHaveLength(1);
        } finally {
          clock = start;
        }
      });

      it('does not keep a failure: after a 503 the retry with the same key does the work', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Outage' })).json().workspace;
        const key = randomUUID();
        const add = () =>
          t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: { ...owner.bearer, 'idempotency-key': key },
            payload: { resourceId: 'arxiv:1706.03762v5' },
          });
        const failing = add();
        (await lookup.next()).answer(new Error('upstream timed out'));
        expect((await failing).statusCode).toBe(503);
        const retry = add();
        (await lookup.next()).answer(KNOWN_RECORDS['arxiv:1706.03762v5']!);
        const done = await retry;
        expect(done.statusCode).toBe(201);
        expect(done.headers['idempotent-replayed']).toBeUndefined();
      });
    });

    describe('a save of the answer the database refuses leaves nothing created, on every creating route', () => {
      /** Runs `body` while the database refuses, once, to keep an answer (a trigger of this test's own). */
      const whileAnAnswerIsRefusedOnce = async (body: () => Promise<void>) => {
        const tag = randomUUID().replace(/-/g, '').slice(0, 12);
        const run = async (statements: string[]) => {
          for (const statement of statements) await t.app.ctx.db.execute(sql.raw(statement));
        };
        await run([
          `create sequence refuse_once_${tag}`,
          `create function refuse_once_${tag}() returns trigger language plpgsql as $$
            begin if nextval('refuse_once_${tag}') = 1 then raise exception 'answer not kept (test)'; end if; return new; end $$`,
          `create trigger refuse_once_${tag} before update on idempotency_keys for each row
            when (new.response_status is not null) execute function refuse_once_${tag}()`,
        ]);
        try {
          await body();
        } finally {
          await run([
            `drop trigger refuse_once_${tag} on idempotency_keys`,
            `drop function refuse_once_${tag}()`,
            `drop sequence refuse_once_${tag}`,
          ]);
        }
      };
      /**
       * The request with a key while its answer cannot be kept: nothing of it may stay (`count` as
       * before); its retry does the work once (`count` one more) and a second retry replays it.
       */
      const expectNothingLeftThenOnce = async (
        /** `replayed`: the request is expected to be answered from the kept answer. */
        send: (key: string, replayed: boolean) => Promise<LightMyRequestResponse>,
        count: () => Promise<number>,
        status: number,
      ) => {
        const before = await count();
        const key = randomUUID();
        await whileAnAnswerIsRefusedOnce(async () => {
          const refused = await send(key, false);
          expect(refused.statusCode, refused.body).toBeGreaterThanOrEqual(500);
          expect(await count()).toBe(before);
        });
        const retry = await send(key, false);
        expect(retry.statusCode, retry.body).toBe(status);
        expectReplayOf(retry, await send(key, true));
        expect(await count()).toBe(before + 1);
      };
      const resourcesOf = async (workspaceId: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/api/workspaces/${workspaceId}/resources`,
            headers: owner.bearer,
          })
        ).json<ApiSchema<'Resource'>[]>().length;

      it('sign-up: no account without its answer', async () => {
        const email = uniqueEmail('refused');
        await expectNothingLeftThenOnce(
          (key) =>
            t.app.inject({
              method: 'POST',
              url: '/api/auth/signup',
              headers: { 'idempotency-key': key },
              payload: { email, password: 'tidal-quasar-42', name: 'Refused' },
            }),
          async () =>
            (await t.app.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)))
              .length,
          201,
        );
      });

      it('adding a resource, described or looked up: no resource without its answer', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Refused add' })).json()
          .workspace;
        await expectNothingLeftThenOnce(
          (key) =>
            t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/resources`,
              headers: { ...owner.bearer, 'idempotency-key': key },
              payload: { title: 'Described', url: 'https://example.org/described' },
            }),
          () => resourcesOf(ws.id),
          201,
        );
        await expectNothingLeftThenOnce(
          async (key, replayed) => {
            const sent = t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/resources`,
              headers: { ...owner.bearer, 'idempotency-key': key },
              payload: { resourceId: '10.1038/nature14539' },
            });
            // A replay asks nothing; a request that does the work looks the record up.
            if (!replayed) (await lookup.next()).answer(KNOWN_RECORDS['10.1038/nature14539']!);
            return sent;
          },
          () => resourcesOf(ws.id),
          201,
        );
      });

      it('adding a resource from a PDF: no resource without its answer', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Refused PDF' })).json()
          .workspace;
        const upload = pdfMultipart(
          'refused.pdf',
          Buffer.from(`%PDF-1.4\n% ${randomUUID()}\n%%EOF\n`, 'latin1'),
        );
        await expectNothingLeftThenOnce(
          (key) =>
            t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/resources`,
              headers: { ...owner.bearer, ...upload.headers, 'idempotency-key': key },
              payload: upload.payload,
            }),
          () => resourcesOf(ws.id),
          201,
        );
      });

      it('appending to notes: the text is not appended without its answer', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Refused notes' })).json()
          .workspace;
        const resource = (
          await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: owner.bearer,
            payload: { title: 'Noted', url: 'https://example.org/noted' },
          })
        ).json().resource;
        const appended = 'Appended once';
        await expectNothingLeftThenOnce(
          (key) =>
            t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/resources/${resource.id}/notes`,
              headers: { ...owner.bearer, 'idempotency-key': key },
              payload: { text: appended },
            }),
          async () => {
            const now = await t.app.inject({
              method: 'GET',
              url: `/api/workspaces/${ws.id}/resources`,
              headers: owner.bearer,
            });
            const notes = now.json<ApiSchema<'Resource'>[]>()[0]!.notes;
            return notes.split(appended).length - 1;
          },
          200,
        );
      });

      it('importing a file: no entry imported without its answer', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Refused import' })).json()
          .workspace;
        const bibtex = [1, 2, 3]
          .map(
            (n) =>
              `@article{e${n}, title = {Entry ${n}}, year = {2020}, doi = {10.1000/refused.${n}}}`,
          )
          .join('\n');
        const before = await resourcesOf(ws.id);
        await expectNothingLeftThenOnce(
          (key) =>
            t.app.inject({
              method: 'POST',
              url: `/api/workspaces/${ws.id}/import`,
              headers: {
                ...owner.bearer,
                'content-type': 'application/x-bibtex',
                'idempotency-key': key,
              },
              payload: bibtex,
            }),
          // One "creation": the file's three entries, all or none.
          async () => ((await resourcesOf(ws.id)) - before) / 3,
          200,
        );
      });
    });

    describe('annotations, share links and sign-up', () => {
      it('each answers a retry with its first answer and creates one object', async () => {
        const ws = (await createWorkspace(t, owner, null, { name: 'Everything' })).json().workspace;
        const resource = (
          await t.app.inject({
            method: 'POST',
            url: `/api/workspaces/${ws.id}/resources`,
            headers: owner.bearer,
            payload: { title: 'A paper', url: 'https://example.org/paper' },
          })
        ).json().resource;
        const twice = async (
          url: string,
          payload: Record<string, unknown>,
          headers: Record<string, string>,
        ) => {
          const key = randomUUID();
          const first = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...headers, 'idempotency-key': key },
            payload,
          });
          expect(first.statusCode).toBe(201);
          const again = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...headers, 'idempotency-key': key },
            payload,
          });
          expectReplayOf(first, again);
          return again;
        };

        const annotated = await twice(
          `/api/resources/${resource.id}/annotations`,
          { body: 'Worth a second read' },
          owner.bearer,
        );
        expect(annotated.headers.etag).toBe('"a1"');
        const notes = await t.app.inject({
          method: 'GET',
          url: `/api/resources/${resource.id}/annotations`,
          headers: owner.bearer,
        });
        expect(notes.json()).toHaveLength(1);

        await twice(`/api/workspaces/${ws.id}/share`, { expiresInDays: 7 }, owner.bearer);
        const links = await t.app.inject({
          method: 'GET',
          url: `/api/workspaces/${ws.id}/share`,
          headers: owner.bearer,
        });
        const linkList: unknown[] = links.json();
        expect(linkList).toHaveLength(1);

        // A visitor signing up: the retry is answered 201 again, not 409 "already registered".
        await twice(
          '/api/auth/signup',
          { email: uniqueEmail('retry'), password: 'tidal-quasar-42', name: 'Retry' },
          {},
        );
      });
    });
  });
}

describe('Idempotency-Key in the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('is a documented header parameter of every creating POST, and of no GET', async () => {
    type Operation = {
      parameters?: Array<{ in: string; name: string; schema?: { maxLength?: number } }>;
    };
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const keyOf = (operation: Operation | undefined) =>
      operation?.parameters?.find((p) => p.in === 'header' && p.name === 'idempotency-key');
    for (const path of [
      '/api/workspaces',
      '/api/workspaces/{id}/resources',
      '/api/resources/{id}/annotations',
      '/api/workspaces/{id}/share',
      '/api/auth/signup',
    ]) {
      expect(keyOf(doc.paths[path]?.post), path).toMatchObject({ schema: { maxLength: 255 } });
    }
    expect(keyOf(doc.paths['/api/workspaces']?.get)).toBeUndefined();
  });
});
