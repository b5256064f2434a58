/** Saved-search alerts, their runs and what they have reported (src/alerts). */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { users } from './accounts.js';

export type AlertFrequency = 'daily' | 'weekly';

/** A saved search that runs on a schedule and mails what is new (src/alerts). */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    query: text('query').notNull(),
    /** Provider ids; null: every enabled one. */
    providers: jsonb('providers').$type<string[]>(),
    /** The search filters (search/filters.ts); null: none. */
    filters: jsonb('filters').$type<Record<string, unknown>>(),
    frequency: text('frequency').$type<AlertFrequency>().notNull(),
    paused: boolean('paused').notNull().default(false),
    /** When the schedule runs it next; null while paused. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true, mode: 'date' }),
    /** SHA-256 of the one-click unsubscribe token (looked up by it). */
    unsubscribeTokenHash: text('unsubscribe_token_hash').notNull(),
    /** The token sealed with the service secret: each digest carries it, so it must be read back. */
    unsubscribeTokenSealed: text('unsubscribe_token_sealed').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('alerts_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('alerts_unsubscribe_token_key').on(t.unsubscribeTokenHash),
    index('alerts_due_idx')
      .on(t.nextRunAt)
      .where(sql`${t.paused} = false`),
    check('alerts_frequency_check', sql`${t.frequency} in ('daily', 'weekly')`),
  ],
);

/** What an unsubscribe link still answers once its alert is deleted: the token's hash, the words, when. */
export const alertUnsubscribes = pgTable('alert_unsubscribes', {
  tokenHash: text('token_hash').primaryKey(),
  query: text('query').notNull(),
  frequency: text('frequency').$type<AlertFrequency>().notNull(),
  unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true, mode: 'date' })
    .notNull()
    .defaultNow(),
});

export type AlertRunStatus = 'queued' | 'running' | 'done' | 'partial' | 'failed';
/**
 * `handing_over`: claimed by a sender (`mail_sender`, its job) whose exchange has not reached the end of
 * the message's data, so the mail was certainly not accepted yet: a retry of that job sends it again.
 * `sending`: marked before the final dot is sent; a run found in it after a crash may have been
 * delivered and is not sent again (alerts/jobs.ts).
 */
export type AlertMailState = 'none' | 'pending' | 'handing_over' | 'sending' | 'sent' | 'failed';

export const alertRuns = pgTable(
  'alert_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    reason: text('reason').$type<'schedule' | 'manual'>().notNull(),
    /** The scheduled period this run is for (its start, ISO); null for a manual run. Unique per alert. */
    period: text('period'),
    status: text('status').$type<AlertRunStatus>().notNull().default('queued'),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    found: integer('found').notNull().default(0),
    newCount: integer('new_count').notNull().default(0),
    /** Per provider, as search reports it: `{ id, status, count }`. */
    providers: jsonb('providers')
      .$type<Array<{ id: string; status: string; count: number }>>()
      .notNull()
      .default([]),
    /** The new works the digest lists (at most DIGEST_WORKS), fixed when the run finishes. */
    works: jsonb('works').$type<Array<Record<string, unknown>>>().notNull().default([]),
    mail: text('mail').$type<AlertMailState>().notNull().default('none'),
    mailError: text('mail_error'),
    /** The digest job (its id) that claimed the mail; its own retry may take a `handing_over` mail over. */
    mailSender: text('mail_sender'),
    createdAt: createdAt(),
  },
  (t) => [
    index('alert_runs_alert_idx').on(t.alertId, t.createdAt),
    uniqueIndex('alert_runs_period_key').on(t.alertId, t.period),
    check(
      'alert_runs_status_check',
      sql`${t.status} in ('queued', 'running', 'done', 'partial', 'failed')`,
    ),
    check(
      'alert_runs_mail_check',
      sql`${t.mail} in ('none', 'pending', 'handing_over', 'sending', 'sent', 'failed')`,
    ),
  ],
);

/** The works an alert has already reported, by work key (workspaces/resources/work-key.ts); bounded per alert. */
export const alertSeenWorks = pgTable(
  'alert_seen_works',
  {
    alertId: uuid('alert_id')
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    workKey: text('work_key').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.workKey] }),
    index('alert_seen_works_age_idx').on(t.alertId, t.seenAt),
  ],
);
