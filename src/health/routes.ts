/** /api/health (cheap: reads the background monitor) and /api/debug/emailjs (never a secret). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { PUBLIC } from '../platform/openapi.js';
import { sendSerialised } from '../platform/serialization.js';

const ServiceState = z.enum(['connected', 'disconnected', 'not_configured']);
type ServiceStateName = z.infer<typeof ServiceState>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  timestamp: z.iso.datetime(),
  version: z.string(),
  services: z.record(z.string(), ServiceState),
});

export const EmailJsDebugResponse = z.object({
  configured: z.boolean(),
  serviceId: z.string(),
  templateId: z.string(),
  publicKey: z.string(),
});

export const HEALTH_PATH = '/api/health';

/** Where the timestamp goes in the written document; no version or backend name holds it. */
const TIMESTAMP_SLOT = '\u0000timestamp\u0000';

/**
 * The health document as JSON text (HealthResponse). Monitors poll this route, and all but the
 * timestamp changes only when the background monitor records new states (a new frozen snapshot), so
 * the text around the timestamp is written once per snapshot instead of being serialised per request.
 */
export function createHealthText(version: string): (services: Readonly<Record<string, ServiceStateName>>, now: Date) => string {
  let snapshot: Readonly<Record<string, ServiceStateName>> | null = null;
  let head = '';
  let tail = '';
  return (services, now) => {
    if (services !== snapshot) {
      const degraded = services.database !== 'connected' || Object.values(services).includes('disconnected');
      const document: z.infer<typeof HealthResponse> = { status: degraded ? 'degraded' : 'ok', timestamp: TIMESTAMP_SLOT, version, services };
      [head, tail] = JSON.stringify(document).split(JSON.stringify(TIMESTAMP_SLOT)) as [string, string];
      snapshot = services;
    }
    return `${head}"${now.toISOString()}"${tail}`;
  };
}

export async function healthRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const healthText = createHealthText(ctx.config.version);
  app.get(
    HEALTH_PATH,
    {
      // Monitors poll this; an anonymous-visitor cookie would be work (and a Set-Cookie) for nothing.
      config: { noCookies: true },
      schema: {
        tags: ['utility'],
        operationId: 'getHealth',
        summary: 'Service health and the state of each backend',
        security: PUBLIC,
        description:
          'Backends are checked in the background every 15 s; this reads the last result. A poll without an `Origin` header or a query string is answered ahead of the framework, with the same document and headers and no access-log line.',
        response: { 200: HealthResponse },
      },
    },
    async (_request, reply) => sendSerialised(reply, healthText(ctx.platform.health.states(), new Date())),
  );

  app.get(
    '/api/debug/emailjs',
    {
      schema: {
        tags: ['utility'],
        operationId: 'getEmailJsConfig',
        summary: 'Whether the browser mail service (EmailJS) is configured; its public identifiers only',
        security: PUBLIC,
        response: { 200: EmailJsDebugResponse },
      },
    },
    async () => {
      const { serviceId, templateId, publicKey } = ctx.config.emailjs;
      return {
        configured: Boolean(serviceId && templateId && publicKey),
        serviceId: serviceId ?? '',
        templateId: templateId ?? '',
        publicKey: publicKey ?? '',
      };
    },
  );
}
