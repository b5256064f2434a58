/**
 * A password reset is answered before any work, and the work runs after the reply; but on the
 * embedded database that work still holds the one connection and the thread the next requests need,
 * so a reset for an address without an account must do what one for an account does, or the
 * requests after it would tell the two apart (account enumeration by timing).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import {
  buildTestApp,
  createScratchDatabase,
  storeLegs,
  type TestApp,
} from '../../test/support/app.js';
import { buildUser, uniqueEmail } from '../../test/support/factories.js';
import { migratedPgliteTemplate } from '../../test/support/pglite-template.js';
import { openDatabase } from '../platform/db/client.js';

const RESET_LIMITS = {
  RATE_LIMIT_RESET_PER_HOUR_PER_IP: '100000',
  RATE_LIMIT_RESET_PER_HOUR_PER_EMAIL: '100000',
};

for (const leg of storeLegs()) {
  describe.skipIf(leg.skipReason)(
    `password reset for an address with and without an account (${leg.name})`,
    () => {
      it('runs the same database statements, the token row included', async () => {
        const scratch = leg.postgres
          ? await createScratchDatabase(process.env.TEST_DATABASE_URL!)
          : null;
        let recording: string[] | null = null;
        const database = await openDatabase({
          ...(scratch
            ? { databaseUrl: scratch.url }
            : { pgliteDir: 'memory://', pgliteFrom: await migratedPgliteTemplate() }),
          logQuery: (query, params) => recording?.push(`${query} -- ${params.length} parameters`),
        });
        const appOnDatabase = () =>
          buildTestApp({
            leg,
            database,
            ...(scratch ? { databaseUrl: scratch.url } : {}),
            env: RESET_LIMITS,
          });
        /**
         * Every process offers the pruning of the change log when it starts (a job of `events.prune`,
         * workspaces/events/queues.ts, one per ten minutes across the processes sharing the
         * database): the one the first app offered has run before a reset is recorded, so that its
         * statements are not counted as the reset's.
         */
        const pruningSettled = () =>
          vi.waitFor(
            async () => {
              const { rows } = (await database.db.execute(
                sql`select state from pgboss.job where name = 'events.prune'`,
              )) as { rows: Array<{ state: string }> };
              expect(rows.length).toBeGreaterThan(0);
              expect(rows.filter((row) => row.state !== 'completed')).toEqual([]);
            },
            { timeout: 15_000, interval: 50 },
          );
        try {
          /** The statements of one reset, from its request until its app has closed (the close waits for the work after the reply). */
          const statementsOfReset = async (t: TestApp, email: string) => {
            recording = [];
            const res = await t.app.inject({
              method: 'POST',
              url: '/api/auth/reset-password',
              payload: { email },
            });
            expect(res.statusCode).toBe(200);
            await t.close();
            const statements = recording;
            recording = null;
            return statements;
          };
          const first = await appOnDatabase();
          const user = await buildUser(first.app);
          await pruningSettled();
          const known = await statementsOfReset(first, user.email);
          const second = await appOnDatabase();
          await pruningSettled();
          const unknown = await statementsOfReset(second, uniqueEmail('ghost'));
          expect(known.some((statement) => /^insert into "email_tokens"/i.test(statement))).toBe(
            true,
          );
          expect(unknown).toEqual(known);
        } finally {
          await database.close();
          await scratch?.drop();
        }
      }, 120_000);
    },
  );
}
