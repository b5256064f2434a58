/**
 * The one database schema. Migrations in `drizzle/` are generated from this file
 * (`npm run db:generate`) and applied at start, on PGlite and on PostgreSQL alike.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
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

const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/** PostgreSQL's text-search document type; read only by library search's SQL, never selected into rows. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A text-search document kept by PostgreSQL itself (a stored generated column), so that no write path
 * can forget it. Its weight says how much a hit there counts (library search: A title; B authors, tags;
 * C abstract, notes, annotations; D a PDF's pages). `english` is named, not the server's default, so the
 * expression is immutable and both stores stem alike.
 */
const searchDocument = (expression: SQL) => tsvector('search').generatedAlwaysAs(expression);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** argon2id hash; null for accounts created through OAuth only. */
    passwordHash: text('password_hash'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true, mode: 'date' }),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true, mode: 'date' }),
    /**
     * Goes up with every change of what may sign the account in (its password set or changed, the
     * account claimed by its mailbox's owner). A session starts only if it is still the value read
     * before the credential was checked (sessions.ts, startSession).
     */
    credentialsVersion: integer('credentials_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export const oauthIdentities = pgTable(
  'oauth_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('oauth_identities_provider_key').on(t.provider, t.providerUserId),
    index('oauth_identities_user_idx').on(t.userId),
  ],
);

export type Preferences = {
  theme: 'system' | 'light' | 'dark';
  language: 'en-IN';
  emailNotifications: boolean;
  marketingEmails: boolean;
};

export const profiles = pgTable(
  'profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    /** Blob-store key of the current avatar, so the previous one can be removed. */
    avatarKey: text('avatar_key'),
    preferences: jsonb('preferences').$type<Preferences>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('profiles_user_key').on(t.userId)],
);

/** Refresh tokens: opaque, stored hashed, rotated on every use; one family per sign-in. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /** Why the session ended, set with revokedAt: what a refresh refused for it says (sessions.ts, SessionEndReason). */
    endedReason: text('ended_reason').$type<'signed_out' | 'password_changed' | 'reused'>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_user_idx').on(t.userId),
  ],
);

/** Single-use tokens sent by e-mail (password reset, address confirmation), stored hashed. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * Null for a reset asked for an address without an account: that request writes the same row as
     * one for an account (see requestPasswordReset), and no mail ever carries its token.
     */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'password_reset' | 'email_confirmation'>().notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('email_tokens_hash_key').on(t.tokenHash),
    index('email_tokens_user_idx').on(t.userId),
  ],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    isPublic: boolean('is_public').notNull().default(false),
    /** Optimistic concurrency (ETag / If-Match): 1 when created, +1 on every change of its own fields (settings, owner). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('workspaces_owner_created_idx').on(t.ownerId, t.createdAt)],
);

export const workspaceResources = pgTable(
  'workspace_resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Who added it (null once that account is gone). */
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    /** The search id this entry was added by (Variant B), e.g. `arxiv:2101.00001v2`. */
    resourceId: text('resource_id'),
    /** Identity of the work (DOI, arXiv id, URL…) so the same work is not added twice to one workspace. */
    workKey: text('work_key'),
    title: text('title').notNull(),
    url: text('url'),
    type: text('type'),
    authors: jsonb('authors')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    tags: jsonb('tags')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    notes: text('notes').notNull().default(''),
    /** Who last wrote the notes, and when (null: never written, or that account is gone). */
    notesUpdatedBy: uuid('notes_updated_by').references(() => users.id, { onDelete: 'set null' }),
    notesUpdatedAt: timestamp('notes_updated_at', { withTimezone: true }),
    data: jsonb('data')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Optimistic concurrency (ETag / If-Match): 1 when added, +1 on every change (notes, tags, record, a move). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    /*
     * Sort and filter keys of the library view, kept by the database from the row itself (stored
     * generated columns), so that every way a resource is written (added, imported, moved) keeps them
     * right and each can be indexed. Raw column names: a generated column's expression names no table.
     */
    /** The year of `data.publishedDate`, `data.date` or `data.year` (the order the export reads them), when it starts with four digits. */
    year: integer('year').generatedAlwaysAs(
      sql`(case when coalesce(data->>'publishedDate', data->>'date', data->>'year') ~ '^[0-9]{4}' then substring(coalesce(data->>'publishedDate', data->>'date', data->>'year') from 1 for 4)::integer end)`,
    ),
    /** `data.venue`, `data.journal` or `data['container-title']`, as the export reads it. */
    venue: text('venue').generatedAlwaysAs(
      sql`nullif(btrim(coalesce(data->>'venue', data->>'journal', data->>'container-title')), '')`,
    ),
    /** The first author's family name, lower-cased: the part before a comma ("Hopper, Grace"), else the last word ("Grace Hopper"). */
    authorSort: text('author_sort').generatedAlwaysAs(
      sql`lower(case when authors->>0 like '%,%' then btrim(split_part(authors->>0, ',', 1)) else regexp_replace(btrim(authors->>0), '^.*[[:space:]]', '') end)`,
    ),
    search: searchDocument(
      sql`setweight(to_tsvector('english'::regconfig, "title"), 'A') || setweight(jsonb_to_tsvector('english'::regconfig, "authors", '["string"]'), 'B') || setweight(jsonb_to_tsvector('english'::regconfig, "tags", '["string"]'), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("data"->>'abstract', '')), 'C') || setweight(to_tsvector('english'::regconfig, "notes"), 'C')`,
    ),
  },
  (t) => [
    index('workspace_resources_workspace_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('workspace_resources_work_key').on(t.workspaceId, t.workKey),
    // The library view's sorts (src/workspaces/store.ts, listResources): a page is read in index order.
    index('workspace_resources_title_idx').on(t.workspaceId, sql`lower(${t.title})`),
    index('workspace_resources_author_idx').on(t.workspaceId, t.authorSort),
    index('workspace_resources_year_idx').on(t.workspaceId, t.year),
    index('workspace_resources_venue_idx').on(t.workspaceId, sql`lower(${t.venue})`),
    index('workspace_resources_search_idx').using('gin', t.search),
  ],
);

/**
 * A PDF kept with a resource (at most one): the file lives in the blob store under `blob_key`; its text
 * is extracted off the request path, and `extraction` says how far that got.
 */
export const resourcePdfs = pgTable(
  'resource_pdfs',
  {
    resourceId: uuid('resource_id')
      .primaryKey()
      .references(() => workspaceResources.id, { onDelete: 'cascade' }),
    blobKey: text('blob_key').notNull(),
    /** The name the file was uploaded with, for `Content-Disposition`. */
    filename: text('filename').notNull(),
    byteSize: integer('byte_size').notNull(),
    /** Hex SHA-256 of the file's bytes. */
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    /** `pending` until the text is extracted, then `ready`, or `failed` with `extraction_error`. */
    extraction: text('extraction').notNull().default('pending'),
    /** Why extraction failed, in words a user can act on (e.g. an image-only PDF). */
    extractionError: text('extraction_error'),
    pageCount: integer('page_count'),
    /**
     * A worker's lease on a pending row: null or past means free to claim. A process that dies while
     * extracting leaves a lease that runs out, and another process (or the same one restarted) takes
     * the row again; a live worker renews its lease while it works.
     */
    claimedUntil: timestamp('claimed_until', { withTimezone: true, mode: 'date' }),
    /** How many times extraction was started on this file: a file that kills its worker every time is failed, not retried forever. */
    attempts: integer('attempts').notNull().default(0),
    /** The resource was created from this PDF: extraction also fills its record (identifier lookup, else the PDF's own metadata). */
    fillMetadata: boolean('fill_metadata').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('resource_pdfs_extraction_check', sql`${t.extraction} in ('pending', 'ready', 'failed')`),
    index('resource_pdfs_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.extraction} = 'pending'`),
  ],
);

/** The extracted text of one page (numbered from 1) of a resource's PDF: for library search and deep summaries. */
export const resourcePdfPages = pgTable(
  'resource_pdf_pages',
  {
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => resourcePdfs.resourceId, { onDelete: 'cascade' }),
    page: integer('page').notNull(),
    text: text('text').notNull(),
    search: searchDocument(sql`setweight(to_tsvector('english'::regconfig, "text"), 'D')`),
  },
  // A PDF is found through its whole document (resource_pdf_documents), and through its pages only
  // for a phrase (library/store.ts says why).
  (t) => [
    primaryKey({ columns: [t.resourceId, t.page] }),
    index('resource_pdf_pages_search_idx').using('gin', t.search),
  ],
);

/**
 * A PDF's whole text as one search document, kept by triggers on resource_pdf_pages (migration 0011):
 * library search finds the PDFs holding a query here, one index entry per PDF rather than one per
 * page, and reads the pages only to show where. A table of its own, so that no read of resource_pdfs
 * carries a document of hundreds of kilobytes.
 */
export const resourcePdfDocuments = pgTable(
  'resource_pdf_documents',
  {
    resourceId: uuid('resource_id')
      .primaryKey()
      .references(() => resourcePdfs.resourceId, { onDelete: 'cascade' }),
    search: tsvector('search').notNull(),
  },
  (t) => [index('resource_pdf_documents_search_idx').using('gin', t.search)],
);

export const annotations = pgTable(
  'annotations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    resourceId: uuid('resource_id')
      .notNull()
      .references(() => workspaceResources.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    highlights: jsonb('highlights')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Optimistic concurrency (ETag / If-Match): 1 when written, +1 on every change. */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    search: searchDocument(sql`setweight(to_tsvector('english'::regconfig, "body"), 'C')`),
  },
  (t) => [
    index('annotations_resource_idx').on(t.resourceId, t.createdAt),
    index('annotations_search_idx').using('gin', t.search),
  ],
);

export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token: the public page looks links up by it. */
    tokenHash: text('token_hash').notNull(),
    /** The token encrypted (AES-256-GCM) so that its owner can list it again; never stored in clear. */
    tokenSealed: text('token_sealed').notNull(),
    readOnly: boolean('read_only').notNull().default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * Paused when the account was claimed by its mailbox's owner (auth/mailbox-claims.ts): the link
     * may have been made by someone else before; it opens nothing until the owner resumes it.
     */
    pausedAt: timestamp('paused_at', { withTimezone: true, mode: 'date' }),
    /** Who made it (null for links made before this was kept, or once that account is deleted): a member who joins through it was added by them. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('share_links_token_key').on(t.tokenHash),
    index('share_links_workspace_idx').on(t.workspaceId),
  ],
);

/** A role a member holds in a workspace other than its owner's (the owner is `workspaces.owner_id`). */
export type MemberRole = 'editor' | 'viewer';

/**
 * The editors and viewers of a workspace. Its owner is not a row here: `workspaces.owner_id` stays the
 * one owner, so a transfer is one transaction over these two tables (src/workspaces/members).
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<MemberRole>().notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    /** The share link they joined through (POST /api/share/{token}/join); null when added or invited. Links are revoked, not deleted, so it stays. */
    shareLinkId: uuid('share_link_id').references(() => shareLinks.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    check('workspace_members_role_check', sql`${t.role} in ('editor', 'viewer')`),
  ],
);

/** An invitation to join a workspace, sent by e-mail; its token is stored hashed, used once, and expires. */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Stored lower-cased: the address the mail went to. */
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('workspace_invitations_token_key').on(t.tokenHash),
    index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt),
    check('workspace_invitations_role_check', sql`${t.role} in ('editor', 'viewer')`),
  ],
);

/**
 * The change log of workspaces (src/workspaces/events): one row per change, written in the change's
 * own transaction; its id orders a workspace's changes and is the event id of the event stream. No
 * foreign key to the workspace or its resources: a deletion's row outlives what it names (the stream
 * still reads it), and the log is pruned by age and by a cap per workspace instead.
 */
export const workspaceEvents = pgTable(
  'workspace_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: uuid('workspace_id').notNull(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    resourceId: uuid('resource_id'),
    annotationId: uuid('annotation_id'),
    /** The member a member change is about. */
    userId: uuid('user_id'),
    /** A few words of what changed, as it was then (a resource's title, a role). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('workspace_events_workspace_idx').on(t.workspaceId, t.id),
    index('workspace_events_created_idx').on(t.createdAt),
  ],
);

/** One row per search request, for the analytics endpoints. */
export const searchEvents = pgTable(
  'search_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Anonymous-session id of a visitor who was not signed in. */
    anonymousId: text('anonymous_id'),
    query: text('query').notNull(),
    normalizedQuery: text('normalized_query').notNull(),
    providers: jsonb('providers').$type<string[]>().notNull(),
    resultCount: integer('result_count').notNull(),
    tookMs: integer('took_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('search_events_user_created_idx').on(t.userId, t.createdAt)],
);

/**
 * Answers to creating requests sent with an `Idempotency-Key` (platform/idempotency.ts), so that a
 * client whose answer was lost can send the request again and get the first answer back, from any
 * process. A row is claimed before the request is handled (no answer yet) and completed after it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** SHA-256 of the requester (user or visitor) and the key they sent: keys are scoped per requester. */
    id: text('id').primaryKey(),
    /** SHA-256 of the method, path and validated body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    /** Null while the first request is being answered. */
    responseStatus: integer('response_status'),
    responseContentType: text('response_content_type'),
    /** The first answer's headers a retry needs too (ETag, Location; platform/idempotency.ts). */
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    /** The first answer's body, sealed (it may carry a share link's token); null when too large to keep. */
    responseBody: text('response_body'),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

/**
 * Secrets the service makes for itself and every process must share: the token-signing key when
 * JWT_SECRET is not set and the database is PostgreSQL (platform/secrets.ts). Made once, by whichever
 * process comes first.
 */
export const serviceSecrets = pgTable('service_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

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

/** The works an alert has already reported, by work key (workspaces/work-key.ts); bounded per alert. */
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
