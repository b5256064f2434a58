/** Every validation message is a sentence about the field, never zod's own words. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BearerReply } from '../../test/support/api-types.js';
import { buildTestApp, type TestApp } from '../../test/support/app.js';
import { buildUser, type TestUser } from '../../test/support/factories.js';
import { installValidationMessages } from './validation-messages.js';

describe('validation messages', () => {
  let t: TestApp;
  let user: TestUser;
  let workspaceId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    user = await buildUser(t.app);
    workspaceId = (
      await t.app.inject({
        method: 'POST',
        url: '/api/workspaces',
        headers: user.bearer,
        payload: { name: 'Messages' },
      })
    ).json<BearerReply<'WorkspaceEnvelope'>>().workspace.id;
  });
  afterAll(async () => t?.close());

  it('says what each field must be, for the issues a schema leaves to zod', () => {
    installValidationMessages();
    const messageOf = (schema: z.ZodType, value: unknown) =>
      schema.safeParse(value).error?.issues[0]?.message;
    expect(messageOf(z.coerce.number(), 'abc')).toBe('must be a number');
    expect(messageOf(z.number().int(), 1.5)).toBe('must be a whole number');
    expect(messageOf(z.object({ a: z.string() }), {})).toBe('is required');
    expect(messageOf(z.number().min(3), 1)).toBe('must be at least 3');
    expect(messageOf(z.string().max(3), 'abcd')).toBe('must be at most 3 characters');
    expect(messageOf(z.string().min(1), '')).toBe('must not be empty');
    expect(messageOf(z.array(z.string()).max(1), ['a', 'b'])).toBe('must have at most 1 item');
    expect(messageOf(z.enum(['a', 'b']), 'c')).toBe('must be one of "a", "b"');
    expect(messageOf(z.uuid(), 'x')).toBe('must be a UUID');
    expect(messageOf(z.email(), 'x')).toBe('must be an e-mail address');
    expect(messageOf(z.boolean(), 'x')).toBe('must be true or false');
    // A schema's own message still wins.
    expect(messageOf(z.string().max(1, 'is too long'), 'ab')).toBe('is too long');
  });

  it('answers a 400 whose message is the field and what it must be', async () => {
    const cases: Array<[string, string, string]> = [
      [`/api/workspaces?limit=abc`, 'limit', 'limit must be a number'],
      [`/api/workspaces?limit=1.5`, 'limit', 'limit must be a whole number'],
      [`/api/workspaces/${workspaceId}/cite`, 'resourceIds', 'resourceIds is required'],
      [
        `/api/workspaces/${workspaceId}/cite?resourceIds=x`,
        'resourceIds',
        'resourceIds must be a UUID',
      ],
      [`/api/search?q=x&hasPdf=yes`, 'hasPdf', 'hasPdf must be true or false'],
    ];
    for (const [url, field, message] of cases) {
      const res = await t.app.inject({ method: 'GET', url, headers: user.bearer });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatchObject({ message, details: { field } });
      expect(res.body, url).not.toMatch(/expected|received|Invalid input/);
    }
  });
});
