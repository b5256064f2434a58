/** What the rest of the service uses from the auth capability: who is asking, and the machinery context.ts hands every capability. */
export type { AccessTokenIssuer } from './access-tokens.js';
export { dialectOf, requireUser, userOfSessionCookies } from './request-auth.js';
export type { SessionDeps } from './sessions.js';
export { clearSessionCookies } from './cookies.js';
export { OWASP_HASH_COST, verifyPassword, type PasswordHashCost } from './passwords.js';
export { SESSION_ENDED_CHANNEL } from './revocations.js';
