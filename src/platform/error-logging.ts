/**
 * How an error is written to the log (the logger's `err` serialiser). A failed database query is
 * logged by its SQL and the database's error, never by its parameters: Drizzle puts them in the
 * message ("params: <e-mail>,<password hash>"), and the database quotes values in its own messages
 * ("invalid input syntax for type uuid: \"…\"") and details ("Key (email)=(…) already exists").
 */
import { DrizzleQueryError } from 'drizzle-orm';

export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: LoggedError;
  [key: string]: unknown;
}

/** Fields of a database error that name where it happened; `detail`, `where` and the like quote values. */
const SAFE_DATABASE_FIELDS = [
  'code',
  'severity',
  'routine',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
] as const;
const MAX_CAUSES = 5;
/** Shorter values are left alone: masking "1" or "en" would mangle the message without hiding anything. */
const MIN_MASKED_LENGTH = 4;

function masker(params: unknown[]): (text: string) => string {
  const secrets = params
    .map((value) =>
      typeof value === 'string'
        ? value
        : value instanceof Date
          ? null
          : typeof value === 'object' && value !== null
            ? JSON.stringify(value)
            : String(value),
    )
    .filter((value): value is string => value !== null && value.length >= MIN_MASKED_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) =>
    secrets.reduce((masked, secret) => masked.split(secret).join('[redacted]'), text);
}

function serialize(error: Error, mask: (text: string) => string, depth: number): LoggedError {
  const message =
    error instanceof DrizzleQueryError ? `Failed query: ${error.query}` : mask(error.message);
  const out: LoggedError = { type: error.name, message };
  // The stack's first line repeats the original message: it is rewritten with the safe one.
  if (error.stack) out.stack = mask(error.stack.replace(error.message, message));
  const fields = error as unknown as Record<string, unknown>;
  for (const key of SAFE_DATABASE_FIELDS) {
    if (typeof fields[key] === 'string') out[key] = fields[key];
  }
  if (error.cause instanceof Error && depth < MAX_CAUSES)
    out.cause = serialize(error.cause, mask, depth + 1);
  return out;
}

export function serializeError(error: unknown): LoggedError | unknown {
  if (!(error instanceof Error)) return error;
  const mask = error instanceof DrizzleQueryError ? masker(error.params) : (text: string) => text;
  return serialize(error, mask, 0);
}
