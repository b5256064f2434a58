/**
 * Alerts: saved searches that run on a schedule and mail a digest of what is new, and the digest's
 * one-click unsubscribe (RFC 8058), which works without signing in. Each handler: validated input →
 * user → load (another user's alert is a 404) → do → present.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/index.js';
import type { AppContext } from '../context.js';
import { notFound, validationError } from '../platform/errors.js';
import type { JobQueue } from '../platform/jobs.js';
import { ErrorResponse, PUBLIC, RATE_LIMIT_HEADERS } from '../platform/openapi.js';
import { DeletedResponse } from '../platform/reply-shapes.js';
import {
  createAlert,
  deleteAlert,
  requestRun,
  unsubscribe,
  unsubscribeState,
  updateAlert,
} from './commands.js';
import { presentAlert, presentRun } from './presenters.js';
import {
  AlertCreateBody,
  AlertListResponse,
  AlertParams,
  AlertSchema,
  AlertUpdateBody,
  RunEnvelope,
  RunListResponse,
  RUNS_PAGE_SIZE,
  RunsQuery,
  UnsubscribeBody,
  UnsubscribeParams,
  UnsubscribePreviewResponse,
  UnsubscribeResponse,
} from './schemas.js';
import {
  decodeRunCursor,
  encodeRunCursor,
  findAlertOf,
  lastRunsOf,
  listAlertsOf,
  countRuns,
  listRuns,
} from './store.js';

const tags = ['alerts'];
const signedInErrors = {
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  404: ErrorResponse,
  429: ErrorResponse,
} as const;
/** A one-click POST carries one short field; anything longer is not one. */
const FORM_BODY_LIMIT = 1024;

export async function alertRoutes(
  root: FastifyInstance,
  ctx: AppContext,
  queue: JobQueue,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, config } = ctx;
  const deps = { db, secret: ctx.platform.signingSecret, perUser: config.alerts.perUser };

  // A mail client's one-click unsubscribe is a form POST (RFC 8058 §3.1); read only in this scope.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  async function loadAlert(userId: string, id: string) {
    const alert = await findAlertOf(db, userId, id);
    if (!alert) throw notFound('Alert');
    return alert;
  }

  app.post(
    '/api/alerts',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'createAlert',
        summary:
          'Follow a search: it runs daily or weekly and mails a digest of the works it had not reported before',
        description:
          `Its first scheduled run is one period after it is created (run it now ` +
          `with POST /api/alerts/{id}/run). At most ALERTS_PER_USER ` +
          `(${config.alerts.perUser}) alerts per user: past that a 409 with reason ` +
          `\`alerts_full\`.`,
        body: AlertCreateBody,
        response: { 201: AlertSchema, 409: ErrorResponse, ...signedInErrors },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const alert = await createAlert(deps, user.id, request.body);
      return reply.status(201).send(presentAlert(alert, null));
    },
  );

  app.get(
    '/api/alerts',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listAlerts',
        summary: 'Your alerts, newest first, each with its last run',
        response: { 200: AlertListResponse, ...signedInErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const rows = await listAlertsOf(db, user.id);
      const lastRuns = await lastRunsOf(
        db,
        rows.map((row) => row.id),
      );
      // Every alert of the user, on one page (at most ALERTS_PER_USER).
      return {
        alerts: rows.map((row) => presentAlert(row, lastRuns.get(row.id))),
        total: rows.length,
        hasMore: false,
      };
    },
  );

  app.get(
    '/api/alerts/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'getAlert',
        summary: 'One of your alerts with its last run',
        params: AlertParams,
        response: { 200: AlertSchema, ...signedInErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const alert = await loadAlert(user.id, request.params.id);
      const lastRuns = await lastRunsOf(db, [alert.id]);
      return presentAlert(alert, lastRuns.get(alert.id));
    },
  );

  app.patch(
    '/api/alerts/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'updateAlert',
        summary: 'Change an alert: its words, providers, filters, frequency, or pause it',
        description:
          'A changed frequency, or resuming a paused alert, schedules its next run one period from now; pausing clears `nextRunAt`.',
        params: AlertParams,
        body: AlertUpdateBody,
        response: { 200: AlertSchema, ...signedInErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const alert = await updateAlert(
        db,
        await loadAlert(user.id, request.params.id),
        request.body,
      );
      const lastRuns = await lastRunsOf(db, [alert.id]);
      return presentAlert(alert, lastRuns.get(alert.id));
    },
  );

  app.delete(
    '/api/alerts/:id',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'deleteAlert',
        summary: 'Delete an alert with its runs; a digest not yet sent is not sent',
        params: AlertParams,
        response: { 200: DeletedResponse, ...signedInErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const alert = await loadAlert(user.id, request.params.id);
      await deleteAlert(db, alert);
      return { success: true as const, id: alert.id };
    },
  );

  app.post(
    '/api/alerts/:id/run',
    {
      config: { auth: 'required', rateLimit: ['user', 'alertRun'] },
      schema: {
        tags,
        operationId: 'runAlert',
        summary:
          'Run an alert now (also a paused one): queued on the same durable queue as the schedule; follow it in GET /api/alerts/{id}/runs',
        description:
          'Counted per user (RATE_LIMIT_ALERT_RUNS_PER_HOUR, 10 an hour): past it ' +
          'a 429 with Retry-After. Its digest, when something is new, is mailed as ' +
          'a scheduled run’s is.',
        params: AlertParams,
        response: { 202: RunEnvelope, ...signedInErrors },
        responseHeaders: { 202: RATE_LIMIT_HEADERS },
      },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const run = await requestRun(db, queue, await loadAlert(user.id, request.params.id));
      return reply.status(202).send({ run: presentRun(run) });
    },
  );

  app.get(
    '/api/alerts/:id/runs',
    {
      config: { auth: 'required', rateLimit: ['user'] },
      schema: {
        tags,
        operationId: 'listAlertRuns',
        summary: `An alert's runs, newest first, ${RUNS_PAGE_SIZE} a page: when each happened, what it found, whether its digest went out`,
        params: AlertParams,
        querystring: RunsQuery,
        response: { 200: RunListResponse, ...signedInErrors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const alert = await loadAlert(user.id, request.params.id);
      const cursor =
        request.query.cursor === undefined ? null : decodeRunCursor(request.query.cursor);
      if (request.query.cursor !== undefined && !cursor)
        throw validationError(
          'cursor',
          'invalid',
          'cursor must be a nextCursor from a previous page',
        );
      const [rows, total] = await Promise.all([
        listRuns(db, alert.id, cursor, RUNS_PAGE_SIZE),
        countRuns(db, alert.id),
      ]);
      const page = rows.slice(0, RUNS_PAGE_SIZE);
      const last = page.at(-1);
      return {
        runs: page.map(presentRun),
        total,
        hasMore: rows.length > RUNS_PAGE_SIZE,
        nextCursor: rows.length > RUNS_PAGE_SIZE && last ? encodeRunCursor(last) : null,
      };
    },
  );

  app.get(
    '/api/alerts/unsubscribe/:token',
    {
      config: { auth: 'none', rateLimit: ['sharePage'] },
      schema: {
        tags,
        operationId: 'getAlertUnsubscribe',
        summary:
          "What a digest's unsubscribe link is about, for its page (the app's /alerts/unsubscribe/{token}); never unsubscribes (mail scanners open links)",
        description:
          '`unsubscribed: true` once the link has been used (the alert is deleted; the link keeps answering). An unknown token is a 404.',
        security: PUBLIC,
        params: UnsubscribeParams,
        response: {
          200: UnsubscribePreviewResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const state = await unsubscribeState(db, request.params.token);
      if (!state) throw notFound('Alert');
      return state;
    },
  );

  app.post(
    '/api/alerts/unsubscribe/:token',
    {
      config: { auth: 'none', rateLimit: ['sharePage'] },
      schema: {
        tags,
        operationId: 'unsubscribeAlert',
        summary:
          'Unsubscribe from a digest: deletes its alert. RFC 8058 one-click: a mail client POSTs `List-Unsubscribe=One-Click` form-encoded, without cookies',
        description:
          'No sign-in and no origin check: the token in the path is the ' +
          'credential (random, stored hashed, one per alert). Also takes an empty ' +
          'or JSON body (the app’s page). Repeating it answers the same. An ' +
          'unknown token is a 404.',
        security: PUBLIC,
        params: UnsubscribeParams,
        body: UnsubscribeBody,
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        response: {
          200: UnsubscribeResponse,
          400: ErrorResponse,
          404: ErrorResponse,
          429: ErrorResponse,
        },
      },
    },
    async (request) => {
      const done = await unsubscribe(db, request.params.token);
      if (!done) throw notFound('Alert');
      return { query: done.query, unsubscribed: true as const };
    },
  );
}
