/** /api/health (cheap: reads the background monitor) and /api/debug/emailjs (never a secret). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';

const ServiceState = z.enum(['connected', 'disconnected', 'not_configured']);

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

export async function healthRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/health',
    {
      // Monitors poll this; an anonymous-visitor cookie would be work (and a Set-Cookie) for nothing.
      config: { noCookies: true },
      schema: { tags: ['utility'], summary: 'Service health and the state of each backend', response: { 200: HealthResponse } },
    },
    async () => {
      const services = ctx.platform.health.states();
      const degraded = services.database !== 'connected' || Object.values(services).includes('disconnected');
      return { status: degraded ? ('degraded' as const) : ('ok' as const), timestamp: new Date().toISOString(), version: ctx.config.version, services };
    },
  );

  app.get(
    '/api/debug/emailjs',
    {
      schema: {
        tags: ['utility'],
        summary: 'Whether the browser mail service (EmailJS) is configured; its public identifiers only',
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
