import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serialization.js';

const Item = z.object({ id: z.uuid(), name: z.string(), createdAt: z.iso.datetime(), tags: z.array(z.string()), data: z.record(z.string(), z.unknown()) });
const Envelope = z.union([Item, z.object({ item: Item })]);
const Flag = z.object({ fromCache: z.union([z.literal(false), z.enum(['kv', 'memory'])]), note: z.string().nullable() });

const item = { id: '3f1c1a52-8f56-4f0e-9b7a-0d5d7c1e2a41', name: 'Paper "one"', createdAt: '2026-01-02T03:04:05.000Z', tags: ['a'], data: { doi: '10.1/x', n: 2 } };

function write(schema: z.ZodType, data: unknown): unknown {
  const serialize = serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' });
  return JSON.parse(serialize(data));
}

describe('response serialisation', () => {
  it('writes only the fields the schema names', () => {
    expect(write(Item, { ...item, passwordHash: 'secret', extra: 1 })).toEqual(item);
  });

  it('picks the union branch the reply fits (Variant A object, Variant B envelope)', () => {
    expect(write(Envelope, item)).toEqual(item);
    expect(write(Envelope, { item: { ...item, leaked: true } })).toEqual({ item });
  });

  it('keeps literals, enums and nulls', () => {
    expect(write(Flag, { fromCache: false, note: null })).toEqual({ fromCache: false, note: null });
    expect(write(Flag, { fromCache: 'memory', note: 'x' })).toEqual({ fromCache: 'memory', note: 'x' });
  });

  it('writes a Date as its ISO string', () => {
    expect(write(Item, { ...item, createdAt: new Date(item.createdAt) })).toEqual(item);
  });

  it('compiles a shared schema once', () => {
    const a = serializerCompiler({ schema: Item, method: 'GET', url: '/a', httpStatus: '200' });
    const b = serializerCompiler({ schema: Item, method: 'GET', url: '/b', httpStatus: '200' });
    expect(a).toBe(b);
  });

  it('serves a route through Fastify', async () => {
    const app = Fastify();
    app.setSerializerCompiler(serializerCompiler);
    app.get('/item', { schema: { response: { 200: Envelope } } }, async () => ({ item: { ...item, secret: 'no' } }));
    const res = await app.inject({ method: 'GET', url: '/item' });
    expect(res.json()).toEqual({ item });
    await app.close();
  });
});
