/**
 * The API's types for tests, generated from the OpenAPI document (web/src/api/schema.d.ts, which
 * `npm run web:api` writes and test/web/api-types.test.ts keeps current): a test types a reply with
 * these instead of an interface of its own, so a change of the API shows up in the tests that read it.
 * (They are the web app's dialect: a route that answers bearer clients in another shape, a dialect
 * union, has both shapes in the document.)
 */
import type { components } from '../../web/src/api/schema.js';

/** A schema of the API document by its name, e.g. `ApiSchema<'LibrarySearchReply'>`. */
export type ApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];
