/**
 * The test app's check of every JSON reply against its route's response schema, on a small app built
 * the way buildApp builds the real one (its serializer, validator and error handler), with routes
 * whose replies do and do not match.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/platform/errors.js';
import { installErrorHandling } from '../../src/platform/http-errors.js';
import { dialectUnion, ErrorResponse } from '../../src/platform/openapi.js';
import { replySerializerCompiler } from '../../src/platform/reply-serializer.js';
import { checkReplySchemas, takeReplyMismatches } from './reply-schemas.js';

const Item = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'ReplyCheckItem' });
const ItemReply = dialectUnion('ReplyCheckItemReply', 'test', {
  bearer: z.object({ item: Item }).meta({ id: 'ReplyCheckItemEnvelope' }),
  cookie: Item,
});

describe('the reply schema check of the test app', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(replySerializerCompiler);
    installErrorHandling(app);
    // The dialect as the request chain sets it: a bearer token, or not.
    app.decorateRequest('auth', null as never);
    app.addHook('onRequest', async (request) => {
      (request as unknown as { auth: { via: string | null } }).auth = {
        via: request.headers.authorization ? 'bearer' : null,
      };
    });
    app.addHook('onRoute', checkReplySchemas);
    const response = { 200: Item, 400: ErrorResponse, 404: ErrorResponse };
    app.get('/fits', { schema: { response } }, async () => ({ id: 1, name: 'one' }));
    app.get('/wrong-type', { schema: { response } }, async () => ({ id: 'seven', name: 'seven' }));
    app.get('/extra-field', { schema: { response } }, async () => ({
      id: 1,
      name: 'one',
      passwordHash: 'x',
    }));
    // (Its types allow only the declared statuses; a handler can still send another.)
    app.get('/undeclared-status', { schema: { response } }, async (_request, reply) =>
      reply.status(409 as 400).send({ error: { code: 'CONFLICT', message: 'taken' } }),
    );
    app.get('/thrown-error', { schema: { response } }, async () => {
      throw new ApiError('NOT_FOUND', 'Item not found');
    });
    app.get(
      '/plain-error',
      {
        schema: { response },
        config: { auth: 'none', presentError: (error: ApiError) => ({ error: error.message }) },
      },
      async () => {
        throw new ApiError('NOT_FOUND', 'Item not found');
      },
    );
    app.get('/as-text', { schema: { response } }, async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send('{"id":1,"name":2}'),
    );
    app.get('/dialect', { schema: { response: { 200: ItemReply } } }, async (request) =>
      request.query && (request.query as { shape?: string }).shape === 'bearer'
        ? { item: { id: 1, name: 'one' } }
        : { id: 1, name: 'one' },
    );
    // A serializer that writes other JSON than zod's would for the same reply.
    app.get(
      '/miswritten',
      { schema: { response }, serializerCompiler: () => () => '{"id":1,"name":"other"}' },
      async () => ({ id: 1, name: 'one' }),
    );
    app.get('/no-schema', async () => ({ anything: true }));
    await app.ready();
  });
  afterAll(async () => app?.close());
  // Whatever a test left unread would fail the next one (test/support/reply-check-setup.ts).
  afterEach(() => void takeReplyMismatches());

  it('lets a reply that fits its schema through', async () => {
    const res = await app.inject({ method: 'GET', url: '/fits' });
    expect(res.json()).toEqual({ id: 1, name: 'one' });
    expect(takeReplyMismatches()).toEqual([]);
  });

  it("names a reply the app's serializer wrote otherwise than zod's serializer writes it", async () => {
    const res = await app.inject({ method: 'GET', url: '/miswritten' });
    expect(res.json()).toEqual({ id: 1, name: 'other' });
    expect(takeReplyMismatches()).toEqual([
      `GET /miswritten (no credentials): status 200 was written as {"id":1,"name":"other"} where zod's serializer writes {"id":1,"name":"one"}`,
    ]);
  });

  it('records a value of the wrong type, which the serializer refuses with a 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/wrong-type' });
    expect(res.statusCode).toBe(500);
    const [mismatch, ...more] = takeReplyMismatches();
    expect(more).toEqual([]);
    expect(mismatch).toMatch(
      /^GET \/wrong-type \(no credentials\): status 200 does not match ReplyCheckItem: id: /,
    );
  });

  it('records a field the schema does not name', async () => {
    const res = await app.inject({ method: 'GET', url: '/extra-field' });
    expect(res.json()).toEqual({ id: 1, name: 'one' });
    expect(takeReplyMismatches()).toEqual([
      expect.stringMatching(/fields ReplyCheckItem does not name .*: passwordHash$/),
    ]);
  });

  it('records a status the route does not declare', async () => {
    await app.inject({ method: 'GET', url: '/undeclared-status' });
    expect(takeReplyMismatches()).toEqual([
      expect.stringMatching(/status 409 is not declared \(declared: 200, 400, 404, 500, 503\)/),
    ]);
  });

  it('checks what the error handler answers against the declared error schema', async () => {
    const res = await app.inject({ method: 'GET', url: '/thrown-error' });
    expect(res.statusCode).toBe(404);
    expect(takeReplyMismatches()).toEqual([]);
    // The summary route's own error dialect, `{ error: message }`, is not the declared envelope.
    await app.inject({ method: 'GET', url: '/plain-error' });
    expect(takeReplyMismatches()).toEqual([
      expect.stringMatching(/status 404 does not match Error: error: /),
    ]);
  });

  it('checks JSON text a route sends as it is', async () => {
    await app.inject({ method: 'GET', url: '/as-text' });
    expect(takeReplyMismatches()).toEqual([
      expect.stringMatching(/status 200 does not match ReplyCheckItem: name: /),
    ]);
  });

  it('checks a dialect union against the shape of the request’s own dialect', async () => {
    await app.inject({
      method: 'GET',
      url: '/dialect?shape=bearer',
      headers: { authorization: 'Bearer x' },
    });
    await app.inject({ method: 'GET', url: '/dialect?shape=cookie' });
    expect(takeReplyMismatches()).toEqual([]);
    // Either shape fits the union; only the bearer one is right for a bearer request, and the other way round.
    await app.inject({
      method: 'GET',
      url: '/dialect?shape=cookie',
      headers: { authorization: 'Bearer x' },
    });
    await app.inject({ method: 'GET', url: '/dialect?shape=bearer' });
    expect(takeReplyMismatches()).toEqual([
      expect.stringMatching(
        /^GET \/dialect \(bearer\): status 200 does not match ReplyCheckItemEnvelope: item: /,
      ),
      expect.stringMatching(
        /^GET \/dialect \(no credentials\): status 200 does not match ReplyCheckItem: /,
      ),
    ]);
  });

  it('leaves a route without response schemas alone', async () => {
    await app.inject({ method: 'GET', url: '/no-schema' });
    expect(takeReplyMismatches()).toEqual([]);
  });
});
