/** What every capability's routes receive: the platform plus the shared auth machinery. */
import type { AccessTokenIssuer } from './auth/access-tokens.js';
import type { SessionDeps } from './auth/sessions.js';
import type { Config } from './config.js';
import type { Db } from './platform/db/client.js';
import type { Platform } from './platform/index.js';

export interface AppContext {
  config: Config;
  platform: Platform;
  db: Db;
  tokens: AccessTokenIssuer;
  sessions: SessionDeps;
}
