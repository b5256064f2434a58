/** The public shapes of an alert and a run (schemas.ts): never a raw row out. */
import type { z } from 'zod';
import type { AlertSchema, RunSchema } from './schemas.js';
import type { AlertRow, RunRow } from './store.js';

type Run = z.infer<typeof RunSchema>;
type Alert = z.infer<typeof AlertSchema>;

export function presentRun(run: RunRow): Run {
  return {
    id: run.id,
    alertId: run.alertId,
    status: run.status,
    reason: run.reason,
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    found: run.found,
    newCount: run.newCount,
    providers: run.providers.map((provider) => ({
      id: provider.id,
      status: provider.status as Run['providers'][number]['status'],
      count: provider.count,
    })),
    // Handed to the mail transport and not yet confirmed: still on its way, as far as the owner can tell.
    mail: run.mail === 'sending' || run.mail === 'handing_over' ? 'pending' : run.mail,
  };
}

export function presentAlert(alert: AlertRow, lastRun: RunRow | null | undefined): Alert {
  return {
    id: alert.id,
    query: alert.query,
    providers: alert.providers,
    filters: alert.filters ?? null,
    frequency: alert.frequency,
    paused: alert.paused,
    createdAt: alert.createdAt.toISOString(),
    nextRunAt: alert.nextRunAt?.toISOString() ?? null,
    lastRun: lastRun ? presentRun(lastRun) : null,
  };
}
