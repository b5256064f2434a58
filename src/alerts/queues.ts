/** The job queues of alerts (platform/jobs.ts): the schedule's tick, one run, one digest. */
export const ALERT_QUEUES = {
  tick: 'alerts.tick',
  run: 'alerts.run',
  digest: 'alerts.digest',
} as const;
