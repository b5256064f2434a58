/**
 * /api/health (cheap: reads the background monitor), the load balancers' liveness and readiness
 * answers (none sets a cookie), and /api/debug/emailjs (never a secret).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { errorBody, serviceUnavailable } from '../platform/errors.js';
import { SERVICE_STATES } from '../platform/health.js';
import { ErrorResponse, PUBLIC } from '../platform/openapi.js';

const ServiceState = z.enum(SERVICE_STATES);
type ServiceStateName = z.infer<typeof ServiceState>;

export const HealthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  timestamp: z.iso.datetime(),
  version: z.string(),
  services: z.record(z.string(), ServiceState),
});

const LivenessResponse = z.object({ status: z.literal('alive') });
const ReadinessResponse = z.object({ status: z.literal('ready') });

const EmailJsDebugResponse = z.object({
  configured: z.boolean(),
  serviceId: z.string(),
  templateId: z.string(),
  publicKey: z.string(),
});

const HEALTH_PATH = '/api/health';

/** Degraded when the database is not connected or any configured backend is unreachable. */
function overallStatus(
  services: Readonly<Record<string, ServiceStateName>>,
): z.infer<typeof HealthResponse>['status'] {
  return services.database !== 'connected' || Object.values(services).includes('disconnected')
    ? 'degraded'
    : 'ok';
}

export async function healthRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    HEALTH_PATH,
    {
      // Monitors poll this; an anonymous-visitor cookie would be work (and a Set-Cookie) for nothing.
      // Polled many times a minute: no access-log lines, while warnings and errors are still written.
      config: { auth: 'none', noCookies: true, accessLog: false },
      schema: {
        tags: ['utility'],
        operationId: 'getHealth',
        summary: 'Service health and the state of each backend',
        security: PUBLIC,
        description:
          'Always 200 (`status` says `degraded` when a backend is down; load ' +
          'balancers should use `/api/health/ready`). Backends are checked in the ' +
          'background, a PostgreSQL server and Redis every second, the embedded ' +
          'database every 5 s, mail and the KV store every 15 s; this reads the ' +
          'last result. `mail` is `outbox` when mail is ' +
          'written to files rather than sent. Polls write no access-log line.',
        response: { 200: HealthResponse },
      },
    },
    async () => {
      const services = ctx.platform.health.states();
      return {
        status: overallStatus(services),
        timestamp: new Date().toISOString(),
        version: ctx.config.version,
        services,
      };
    },
  );

  app.get(
    `${HEALTH_PATH}/live`,
    {
      config: { auth: 'none', noCookies: true },
      schema: {
        tags: ['utility'],
        operationId: 'getLiveness',
        summary: 'Liveness: 200 while the process runs and serves requests',
        security: PUBLIC,
        description:
          'For a load balancer or orchestrator deciding whether to restart the process; it never looks at a backend.',
        response: { 200: LivenessResponse },
      },
    },
    async () => ({ status: 'alive' as const }),
  );

  app.get(
    `${HEALTH_PATH}/ready`,
    {
      config: { auth: 'none', noCookies: true },
      schema: {
        tags: ['utility'],
        operationId: 'getReadiness',
        security: PUBLIC,
        summary:
          'Readiness: 200 when the process can serve requests, 503 while the database is unreachable or the process shuts down',
        description:
          'For a load balancer deciding whether to send traffic here. Follows a ' +
          'database outage within a second or two (a PostgreSQL server is checked ' +
          'every second, and at once when a request finds it gone; the embedded ' +
          'database, in the process, every 5 s). Redis is not ' +
          'required: without it the service carries on in memory. From SIGTERM (or ' +
          'SIGINT) on this answers 503 at once, while the process still serves ' +
          'every other request for its drain time (SHUTDOWN_DRAIN_MS), each answer ' +
          'with `Connection: close`; after that every request answers 503 until ' +
          'in-flight work is done and the process exits.',
        response: { 200: ReadinessResponse, 503: ErrorResponse },
      },
    },
    async (_request, reply) => {
      // Answered, not thrown: a load balancer polls this through an outage, and each poll is no error to log.
      if (ctx.drain.draining)
        return reply.status(503).send(errorBody(serviceUnavailable('Not ready: shutting down')));
      if (ctx.platform.health.states().database !== 'connected') {
        return reply
          .status(503)
          .send(errorBody(serviceUnavailable('Not ready: the database is unreachable')));
      }
      return { status: 'ready' as const };
    },
  );
}

/**
 * /api/debug/emailjs: a signed-in request may refresh its session here, so it is declared where
 * cookies are set (app.ts), unlike the health routes.
 */
export async function emailJsDebugRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/debug/emailjs',
    {
      config: { auth: 'optional', rateLimit: ['user'] },
      schema: {
        tags: ['utility'],
        operationId: 'getEmailJsConfig',
        summary:
          'Whether the browser mail service (EmailJS) is configured; its public identifiers only',
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
