/**
 * Errors that mean a backend (PostgreSQL, Redis) is down or unreachable rather than that the request
 * or the code is wrong. The error handler answers them 503 SERVICE_UNAVAILABLE, logs them as a
 * warning without a stack (they are expected during an outage), and has health look again at once.
 */

/** SQLSTATEs of a lost or refused server: connection exceptions (class 08), shutdown, start-up, too many connections. */
const UNAVAILABLE_SQLSTATE = /^(08...|57P01|57P02|57P03|53300)$/;

/** Socket errors of a server that is gone or unreachable. */
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** What node-postgres and pg-pool say when they have no working connection. */
const DATABASE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
];

/** What ioredis says of a command it could not send or that got no answer in time. */
const REDIS_MESSAGES = ['Command timed out', "Stream isn't writeable", 'Connection is closed.'];

export type Backend = 'database' | 'redis';

function ownBackendOf(error: Error & { code?: unknown }): Backend | null {
  const code = typeof error.code === 'string' ? error.code : '';
  const message = error.message;
  if (UNAVAILABLE_SQLSTATE.test(code)) return 'database';
  if (REDIS_MESSAGES.some((text) => message.includes(text))) return 'redis';
  if (UNAVAILABLE_ERRNO.has(code) || DATABASE_MESSAGES.some((text) => message.includes(text)))
    return 'database';
  return null;
}

export interface Unavailability {
  backend: Backend;
  /**
   * The driver's own message ("connect ECONNREFUSED …", "terminating connection due to administrator
   * command"): safe to log, unlike Drizzle's wrapper, whose message carries the query's parameters.
   */
  reason: string;
}

/**
 * What an error says is unavailable, or null. Looks through `cause` (Drizzle wraps the driver's
 * error in its own), a few levels deep. Redis errors are named by their driver's messages; any other
 * lost connection is taken to be the database's, the one backend whose errors reach a request
 * (Redis failures fall back to memory).
 */
export function unavailabilityOf(error: unknown): Unavailability | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const backend = ownBackendOf(current);
    if (backend) return { backend, reason: current.message };
    current = current.cause;
  }
  return null;
}
