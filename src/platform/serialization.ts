/**
 * How replies are written. The zod response schemas stay the one source of truth (they type the
 * handlers and feed OpenAPI), but a reply is written by fast-json-stringify, compiled once per schema
 * from the schema's JSON Schema (its output side), instead of by fastify-type-provider-zod's
 * serializer, which re-parses the whole reply with zod and then runs JSON.stringify: on a small reply
 * that parse was the largest single cost of a request (docs/performance.md).
 *
 * What is kept: only the fields a schema names are written (no field leaks), and where a schema is a
 * union (the Variant A / Variant B envelopes, `false | "kv" | "memory"`), the branch is the first one
 * whose structure (required fields, types, constants) the reply fits, as zod picked it. What changes:
 * a reply whose values do not fit their schema is no longer refused with a 500; fast-json-stringify
 * coerces each value to its declared type. The route tests check replies against their schemas.
 */
import fastJsonStringify, { type Schema as JsonSchema } from 'fast-json-stringify';
import type { FastifySchema, FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';

type Serializer = (data: unknown) => string;

/** One compiled serializer per schema object: shared schemas (the error envelope) compile once. */
const compiled = new WeakMap<object, Serializer>();

/** Formats that change how fast-json-stringify writes a value (a Date as a day or a time); the others only validate. */
const WRITING_FORMATS = new Set(['date', 'time', 'unsafe']);

/**
 * The JSON Schema without what only validates: patterns and formats (a regular expression per value
 * each time a union picks its branch; writing is the same, a Date becomes its ISO string either way)
 * and `additionalProperties: false` (fast-json-stringify writes only declared fields regardless, and
 * zod's serializer dropped unknown fields rather than refusing the reply). OpenAPI is generated
 * separately, from the zod schemas, so the published document keeps all of it.
 */
function forWriting(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forWriting);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' || key === '$schema' || key === 'propertyNames') continue;
    if (key === 'format' && !WRITING_FORMATS.has(String(value))) continue;
    if (key === 'additionalProperties' && value === false) continue;
    // Inside these every key is a name, not a keyword.
    out[key] = (key === 'properties' || key === 'definitions' || key === '$defs') && value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, forWriting(inner)]))
      : forWriting(value);
  }
  return out;
}

/** The JSON Schema of what a route answers, as fast-json-stringify reads it. */
function responseJsonSchema(schema: z.ZodType): JsonSchema {
  return forWriting(z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' })) as JsonSchema;
}

function resolveZod(schema: unknown): z.ZodType | null {
  if (schema instanceof z.ZodType) return schema;
  // `{ properties: zodSchema }`, as fastify-type-provider-zod also accepts.
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof z.ZodType ? properties : null;
}

export const serializerCompiler: FastifySerializerCompiler<FastifySchema> = ({ schema }) => {
  const key = schema as object;
  const known = compiled.get(key);
  if (known) return known;
  const zod = resolveZod(schema);
  const serializer = fastJsonStringify(zod ? responseJsonSchema(zod) : (schema as JsonSchema));
  compiled.set(key, serializer);
  return serializer;
};
