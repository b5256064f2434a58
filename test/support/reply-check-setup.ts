/**
 * Fails the test during which a reply of the test app did not match its route's response schema
 * (test/support/reply-schemas.ts records them). Mismatches from a `beforeAll` show on the file's
 * first test; those of an `afterAll`, at the end of the file.
 */
import { afterAll, afterEach } from 'vitest';
import { takeReplyMismatches } from './reply-schemas.js';

function failOnMismatches(): void {
  const found = takeReplyMismatches();
  if (found.length === 0) return;
  throw new Error(
    `${found.length} repl${found.length === 1 ? 'y does' : 'ies do'} not match the response schema:\n- ${found.join('\n- ')}`,
  );
}

afterEach(failOnMismatches);
afterAll(failOnMismatches);
