/**
 * The two dialects a reply is given in (docs/design.md, Dialects): Variant A for a request
 * authenticated by session cookies, Variant B for one with a bearer token.
 */
export type Dialect = 'A' | 'B';

export const DIALECTS: readonly Dialect[] = ['A', 'B'];

/** The credential that selects each dialect: how the OpenAPI document names them (`?dialect=cookie`). */
export const DIALECT_CREDENTIAL = { A: 'cookie', B: 'bearer' } as const satisfies Record<
  Dialect,
  string
>;
export type DialectCredential = (typeof DIALECT_CREDENTIAL)[Dialect];
