/**
 * The one database schema, a file per area in `schema/`. Migrations in `drizzle/` are generated from
 * this file (`npm run db:generate`, drizzle.config.ts) and applied at start, on PGlite and on
 * PostgreSQL alike; the rest of the service imports its tables from here.
 */
export * from './schema/accounts.js';
export * from './schema/workspaces.js';
export * from './schema/pdfs.js';
export * from './schema/annotations.js';
export * from './schema/share-links.js';
export * from './schema/members.js';
export * from './schema/events.js';
export * from './schema/analytics.js';
export * from './schema/service.js';
export * from './schema/alerts.js';
export * from './schema/feeds.js';
