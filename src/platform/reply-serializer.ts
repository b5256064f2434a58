/**
 * How replies are written: Fastify's own serializer (fast-json-stringify, through its default compiler
 * @fastify/fast-json-stringify-compiler) from the JSON Schema of the route's zod response schema, for
 * every schema JSON Schema says all of; zod's (fastify-type-provider-zod: parse the reply, then
 * `JSON.stringify`) for the others. Both write only the fields the schema names. zod's parse of every
 * reply was the largest part of a cheap route's cost (docs/performance.md, Health). fast-json-stringify
 * does not validate: a value it cannot write as its type (a word for an integer, a missing required
 * field) is a 500 as before, one it can convert (the text "7" for an integer) is written converted.
 * The tests check every reply against its schema, and that it is written as zod would write it
 * (test/support/reply-schemas.ts).
 *
 * A serializer is made on a route's first reply with that status, not when the route is declared:
 * an app declares some 300 (route, status) pairs and answers few of them, and start-up (and each
 * test's app) should not pay for the rest. It is kept per schema, so routes sharing one share it.
 */
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;
/** A response schema as routes declare them: a zod schema, or one under `properties`. */
type ResponseSchema = z.ZodType | { properties: z.ZodType };
type CompilerInput = Parameters<FastifySerializerCompiler<ResponseSchema>>[0];

/**
 * zod types whose JSON Schema says all the schema does, so that fast-json-stringify writes what zod
 * would. Anything else (a transform, a pipe or codec, a default, a catch, a refinement of our own,
 * dates, lazy and recursive schemas, intersections) keeps zod's serializer.
 */
const PLAIN = new Set([
  'string',
  'number',
  'boolean',
  'null',
  'enum',
  'literal',
  'object',
  'array',
  'record',
  'union',
  'optional',
  'nullable',
  'readonly',
  'any',
  'unknown',
]);

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string; checks?: unknown[] } };
}

/** Whether every part of the schema is of a plain type, with no check beyond JSON Schema's. */
function isPlain(schema: unknown, seen = new Set<unknown>()): boolean {
  if (seen.has(schema)) return false; // recursive
  seen.add(schema);
  const def = (schema as ZodInternals)._zod.def;
  if (!PLAIN.has(def.type)) return false;
  // Refinements (`.refine`, `.superRefine`) are checks of kind `custom`: JSON Schema cannot say them.
  if (def.checks?.some((check) => (check as ZodInternals)._zod.def.type === 'custom')) return false;
  const parts: unknown[] = [];
  if (def.type === 'object') parts.push(...Object.values(def.shape as Record<string, unknown>));
  if (def.type === 'object' && def.catchall) parts.push(def.catchall);
  if (def.type === 'array') parts.push(def.element);
  if (def.type === 'record') parts.push(def.keyType, def.valueType);
  if (def.type === 'union') parts.push(...(def.options as unknown[]));
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'readonly')
    parts.push(def.innerType);
  return parts.every((part) => isPlain(part, new Set(seen)));
}

const jsonSchemaCompiler = SerializerSelector()({}, {});
const made = new WeakMap<object, Serialize>();

/** The JSON Schema fast-json-stringify writes the schema's replies from, or null when zod's serializer must. */
export function replyJsonSchema(schema: z.ZodType): Record<string, unknown> | null {
  if (!isPlain(schema)) return null;
  try {
    const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
    }) as Record<string, unknown>;
    return jsonSchema;
  } catch {
    return null;
  }
}

/** fast-json-stringify from the schema's JSON Schema, or null when zod's serializer must write it. */
function fastSerializer(schema: z.ZodType, input: CompilerInput): Serialize | null {
  const jsonSchema = replyJsonSchema(schema);
  if (!jsonSchema) return null;
  const { method, url, httpStatus = 'default' } = input;
  try {
    return jsonSchemaCompiler({ schema: jsonSchema, method, url, httpStatus }) as Serialize;
  } catch {
    // A JSON Schema fast-json-stringify cannot compile (none of ours today) is zod's to write.
    return null;
  }
}

export const replySerializerCompiler: FastifySerializerCompiler<ResponseSchema> = (input) => {
  const declared: unknown = input.schema;
  const schema =
    declared instanceof z.ZodType
      ? declared
      : (declared as { properties?: unknown }).properties instanceof z.ZodType
        ? (declared as { properties: z.ZodType }).properties
        : null;
  // Not a zod schema (none of ours): zod's compiler reports it as it always has.
  if (!schema) return zodSerializerCompiler(input) as Serialize;
  let serialize: Serialize | undefined;
  return (data) => {
    if (!serialize) {
      serialize = made.get(schema) ?? fastSerializer(schema, input) ?? undefined;
      if (serialize) made.set(schema, serialize);
      else serialize = zodSerializerCompiler(input) as Serialize;
    }
    return serialize(data);
  };
};
