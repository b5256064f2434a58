/** The job queue of workspaces' change logs (platform/jobs.ts): the periodic pruning. */
import type { QueueDefinition } from '../../platform/jobs.js';

export const EVENT_QUEUES = { prune: 'events.prune' } as const;

// A missed pruning is made up by the next one.
export const EVENT_QUEUE_DEFINITIONS: readonly QueueDefinition[] = [
  { name: EVENT_QUEUES.prune, maxAttempts: 1 },
];
