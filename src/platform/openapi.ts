/**
 * The OpenAPI 3.1 document, generated from the routes' zod schemas, at /api/openapi.json, and a
 * browsable reference at /api/docs.
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.enum([
        'VALIDATION_ERROR',
        'AUTHENTICATION_ERROR',
        'AUTHORIZATION_ERROR',
        'NOT_FOUND',
        'CONFLICT',
        'PAYLOAD_TOO_LARGE',
        'RATE_LIMITED',
        'INTERNAL_ERROR',
        'SERVICE_UNAVAILABLE',
      ]),
      message: z.string(),
      details: z.object({ field: z.string().optional(), reason: z.string().optional() }).optional(),
    }),
  })
  .describe('Error envelope (DESIGN.md §2)');

export async function registerOpenApi(app: FastifyInstance, info: { version: string; publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Research Workspace API',
        version: info.version,
        description:
          'Accounts and sessions, profiles, federated academic search, extractive summaries, workspaces with resources, annotations and share links, analytics and health. Requests authenticated by a bearer token get Variant B envelopes; requests authenticated by session cookies get Variant A (see DESIGN.md §1).',
      },
      servers: [{ url: info.publicUrl }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'Every 401 carries `WWW-Authenticate`: `Bearer` when no token was sent; `Bearer error="invalid_token", error_description="…"` (RFC 6750) when the token sent expired ("The access token expired": refresh it), was revoked or is invalid.',
          },
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
