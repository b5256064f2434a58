/** The job queues of alerts (platform/jobs.ts): the schedule's tick, one run, one digest, the history's pruning. */
import type { QueueDefinition } from '../platform/jobs.js';

export const ALERT_QUEUES = {
  tick: 'alerts.tick',
  run: 'alerts.run',
  digest: 'alerts.digest',
  prune: 'alerts.prune',
} as const;

export const ALERT_QUEUE_DEFINITIONS: readonly QueueDefinition[] = [
  // A missed tick is made up by the next one.
  { name: ALERT_QUEUES.tick, maxAttempts: 1 },
  { name: ALERT_QUEUES.prune, maxAttempts: 1 },
  // The runs a tick enqueues start together: each worker takes up to five per fetch, two workers per
  // process, and fetches again at once while it finds full batches (not one run per poll).
  { name: ALERT_QUEUES.run, maxAttempts: 5, deadLetter: true, batchSize: 5, workers: 2 },
  // Six tries over two to four minutes of backoff: a mail server’s short outage is waited out.
  { name: ALERT_QUEUES.digest, maxAttempts: 6, deadLetter: true, batchSize: 5 },
];
