/**
 * Replies are written by fast-json-stringify from the response schema's JSON Schema where that says
 * all the schema does, by zod's serializer otherwise; either way the JSON is what zod's serializer writes.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dialectUnion } from './openapi.js';
import { replyJsonSchema, replySerializerCompiler } from './reply-serializer.js';

const Entry = z
  .object({
    id: z.string(),
    count: z.number().int(),
    ratio: z.number(),
    done: z.boolean(),
    at: z.iso.datetime(),
    note: z.string().nullable(),
    tags: z.array(z.string()),
    kind: z.enum(['a', 'b']),
    fixed: z.literal('yes'),
    optional: z.string().optional(),
    states: z.record(z.string(), z.enum(['up', 'down'])),
    nested: z.object({ name: z.string() }).nullable(),
  })
  .meta({ id: 'ReplySerializerEntry' });
const Reply = dialectUnion('ReplySerializerReply', 'test', {
  bearer: z.object({ entry: Entry }).meta({ id: 'ReplySerializerEnvelope' }),
  cookie: Entry,
});
const Trimmed = z.object({ name: z.string().transform((name) => name.trim()) });
const Refined = z.object({ name: z.string() }).refine((value) => value.name !== '', 'empty');

const entry = {
  id: 'e1',
  count: 3,
  ratio: 0.25,
  done: false,
  at: '2026-11-29T07:00:00.000Z',
  note: null,
  tags: ['x', 'y "quoted"'],
  kind: 'b',
  fixed: 'yes',
  states: { database: 'up', redis: 'down' },
  nested: { name: 'n' },
} as const;

describe('replyJsonSchema', () => {
  it('gives the JSON Schema of plain schemas, unions of them included', () => {
    expect(replyJsonSchema(Entry)).toMatchObject({
      definitions: {
        ReplySerializerEntry: { type: 'object', additionalProperties: false },
      },
    });
    expect(replyJsonSchema(Reply)).not.toBeNull();
  });

  it('leaves schemas with refinements or transforms to zod', () => {
    expect(replyJsonSchema(Refined)).toBeNull();
    expect(replyJsonSchema(Trimmed)).toBeNull();
  });
});

describe('replySerializerCompiler', () => {
  let app: FastifyInstance;
  let replies: Record<string, unknown>;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setSerializerCompiler(replySerializerCompiler);
    for (const [path, schema] of Object.entries({ entry: Entry, reply: Reply, refined: Refined }))
      app.get(`/${path}`, { schema: { response: { 200: schema } } }, async () => replies[path]);
    await app.ready();
  });
  afterAll(async () => app?.close());

  /** The reply as the app writes it, beside what zod's serializer writes for the same value. */
  async function written(path: 'entry' | 'reply' | 'refined', schema: z.ZodType, value: unknown) {
    replies = { [path]: value };
    const res = await app.inject({ method: 'GET', url: `/${path}` });
    const zod = zodSerializerCompiler({ schema, method: 'GET', url: `/${path}` })(value);
    return { app: res.body, zod };
  }

  it('writes what zod writes, without the fields the schema does not name', async () => {
    const { app: body, zod } = await written('entry', Entry, { ...entry, passwordHash: 'secret' });
    expect(JSON.parse(body)).toEqual(JSON.parse(zod));
    expect(body).not.toContain('passwordHash');
    expect(JSON.parse(body)).toEqual(entry);
  });

  it('writes each shape of a dialect union as zod does', async () => {
    for (const value of [entry, { entry }]) {
      const { app: body, zod } = await written('reply', Reply, value);
      expect(JSON.parse(body)).toEqual(JSON.parse(zod));
    }
  });

  it("keeps zod's serializer where the schema refines", async () => {
    const { app: body, zod } = await written('refined', Refined, { name: 'n', extra: 1 });
    expect(JSON.parse(body)).toEqual(JSON.parse(zod));
    replies = { refined: { name: '' } };
    expect((await app.inject({ method: 'GET', url: '/refined' })).statusCode).toBe(500);
  });
});
