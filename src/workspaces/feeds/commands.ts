/**
 * Bibliography feeds: a secret URL that answers a workspace's export without a session, for Overleaf's
 * "New file → From external URL", a Makefile's curl, biblatex's remote resources or pandoc. The secret
 * (256 random bits) is shown once to its maker and kept only as its SHA-256, as share tokens are; a feed
 * answers while its maker may read the workspace and goes when they leave or are removed.
 */
import { createHash } from 'node:crypto';
import { hashToken, randomToken } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/client.js';
import { conflict } from '../../platform/errors.js';
import { exportCitations, extensionOf, type ExportFormat } from '../export.js';
import { listResources } from '../resources/store.js';
import { FEEDS_PER_MEMBER } from './schemas.js';
import { countFeeds, findLiveFeed, insertFeed, type FeedRow } from './store.js';

const FEED_TOKEN_BYTES = 32;

export function feedUrl(publicUrl: string, token: string, format: ExportFormat): string {
  return `${publicUrl}/api/feeds/${token}.${extensionOf(format)}`;
}

export async function createFeed(
  db: Db,
  workspaceId: string,
  userId: string,
  format: ExportFormat,
): Promise<{ feed: FeedRow; token: string }> {
  if ((await countFeeds(db, workspaceId, userId)) >= FEEDS_PER_MEMBER)
    throw conflict(
      `You have ${FEEDS_PER_MEMBER} feeds of this workspace: revoke one to make another`,
      { field: 'format', reason: 'too_many_feeds' },
    );
  const token = randomToken(FEED_TOKEN_BYTES);
  const feed = await insertFeed(db, { workspaceId, userId, format, tokenHash: hashToken(token) });
  return { feed, token };
}

/**
 * The export a feed's file name (`<secret>.<extension>`) asks for, with its ETag; null for a secret
 * not well formed, unknown, revoked, of a maker no longer a member, or with another format's extension.
 */
export async function readFeed(
  db: Db,
  file: string,
): Promise<{ body: string; contentType: string; etag: string } | null> {
  const match = /^([A-Za-z0-9_-]{43})\.([a-z]+)$/.exec(file);
  if (!match) return null;
  const found = await findLiveFeed(db, hashToken(match[1]!));
  if (!found) return null;
  const format = found.feed.format as ExportFormat;
  if (extensionOf(format) !== match[2]) return null;
  const exported = await exportCitations(await listResources(db, found.workspaceId), format);
  const digest = createHash('sha256').update(exported.body).digest('base64url').slice(0, 32);
  return { body: exported.body, contentType: exported.contentType, etag: `"${digest}"` };
}
