/**
 * The API's types for tests, generated from the OpenAPI document (web/src/api/schema.d.ts, which
 * `npm run web:api` writes and test/web/api-types.test.ts keeps current): a test types a reply with
 * these instead of an interface of its own, so a change of the API shows up in the tests that read it.
 * (They are the web app's dialect: a route that answers bearer clients in another shape, a dialect
 * union, has both shapes in the document.)
 */
import type { components, paths } from '../../web/src/api/schema.js';

/** A schema of the API document by its name, e.g. `ApiSchema<'LibrarySearchReply'>`. */
export type ApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];

type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } }
  ? Body
  : never;

/**
 * The JSON reply of a route by its path, method and status, e.g.
 * `ReplyOf<'/api/alerts/{id}/run', 'post', 202>`: for a reply the document gives no schema name.
 */
export type ReplyOf<
  Path extends keyof paths,
  Method extends 'get' | 'post' | 'put' | 'patch' | 'delete',
  Status extends number = 200,
> = paths[Path][Method] extends { responses: infer Responses }
  ? Status extends keyof Responses
    ? JsonBody<Responses[Status]>
    : never
  : never;

type KeyOfAny<Union> = Union extends unknown ? keyof Union : never;
type ValueOfAny<Union, Key extends PropertyKey> = Union extends unknown
  ? Key extends keyof Union
    ? Union[Key]
    : never
  : never;

/**
 * A union of reply objects read as one: the fields every alternative has, and (optional) those only
 * some have, e.g. `AnyOf<ApiSchema<'ImportEntry'>>` reads an entry's `reason` or `duplicateOf`
 * without narrowing it by `outcome` first. A field none of the alternatives has is still an error.
 */
export type AnyOf<Union> = { [Key in Exclude<keyof Union, never>]: ValueOfAny<Union, Key> } & {
  [Key in Exclude<KeyOfAny<Union>, keyof Union>]?: ValueOfAny<Union, Key>;
};

/**
 * A bearer client's reply where the two dialects differ (`dialectUnion()`: src/workspaces/schemas.ts,
 * src/auth/schemas.ts). The document the types come from is the cookie dialect's, so it has only the
 * cookie shape; the bearer shape (Variant B) wraps the same generated objects, as these say, under the
 * schema names of `/api/openapi.json?dialect=bearer`. e.g. `BearerReply<'WorkspaceEnvelope'>`.
 */
export type BearerReply<Name extends BearerReplyName> = BearerReplies[Name];
/** test/web/api-types.test.ts checks each against the bearer document's own generated type. */
export type BearerReplyName = keyof BearerReplies;

interface BearerReplies {
  WorkspaceEnvelope: { workspace: ApiSchema<'Workspace'> };
  WorkspaceListEnvelope: { workspaces: ApiSchema<'Workspace'>[]; total: number };
  WorkspaceDetailEnvelope: {
    workspace: ApiSchema<'Workspace'>;
    resources: ApiSchema<'Resource'>[];
  };
  ResourceEnvelope: { resource: ApiSchema<'Resource'> };
  BearerSession: {
    user: ApiSchema<'SessionUser'>;
    session: { access_token: string; expires_at: number };
  };
}
