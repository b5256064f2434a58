/**
 * The token-signing secret: JWT_SECRET when set (required in production). Otherwise it is generated
 * once and kept, so that sessions survive a restart: on the embedded database (one process per data
 * directory) in DATA_DIR; on PostgreSQL in the database itself (table service_secrets), because every
 * process using that database must sign and verify with the same key, or each refuses the others'
 * tokens. The first process to start creates it (an existing DATA_DIR key, else a new random one) and
 * every other takes that one; the key is never logged.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from './db/client.js';
import { serviceSecrets } from './db/schema.js';

const SIGNING_SECRET = 'jwt_signing_secret';

function secretInDataDir(dataDir: string): string | null {
  try {
    const existing = readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim();
    return existing.length >= 32 ? existing : null;
  } catch {
    return null; // not generated yet
  }
}

const newSecret = () => randomBytes(48).toString('base64url');

/** The one key every process on this PostgreSQL database signs with: made by the first to ask, race-free. */
async function sharedSecret(database: Database, dataDir: string): Promise<string> {
  const { db } = database;
  await db
    .insert(serviceSecrets)
    .values({ name: SIGNING_SECRET, value: secretInDataDir(dataDir) ?? newSecret() })
    .onConflictDoNothing({ target: serviceSecrets.name });
  const [row] = await db
    .select({ value: serviceSecrets.value })
    .from(serviceSecrets)
    .where(eq(serviceSecrets.name, SIGNING_SECRET));
  if (!row) throw new Error('The shared token-signing key could not be stored in the database');
  return row.value;
}

export async function resolveSigningSecret(
  configured: string | undefined,
  dataDir: string,
  database: Database,
): Promise<string> {
  if (configured) return configured;
  if (database.kind === 'postgres') return sharedSecret(database, dataDir);
  const existing = secretInDataDir(dataDir);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const secret = newSecret();
  writeFileSync(join(dataDir, 'jwt-secret'), secret, { mode: 0o600, flag: 'w' });
  return secret;
}
