/** The health monitor: what it reports between checks, and how fast it follows a backend that changes. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHealthMonitor, type HealthMonitor } from './health.js';

describe('the health monitor', () => {
  let monitor: HealthMonitor | undefined;
  afterEach(() => {
    monitor?.stop();
    vi.useRealTimers();
  });

  it('checks a quick backend every second and a slow one every 15 s; fixed states stay as given', async () => {
    vi.useFakeTimers();
    let databaseUp = true;
    let mailUp = true;
    monitor = createHealthMonitor({
      database: { check: async () => databaseUp, everyMs: 1000 },
      mail: async () => mailUp,
      kv: 'outbox',
      redis: null,
    });
    await monitor.refresh();
    expect(monitor.states()).toEqual({
      database: 'connected',
      mail: 'connected',
      kv: 'outbox',
      redis: 'not_configured',
    });

    databaseUp = false;
    mailUp = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(monitor.states()).toMatchObject({ database: 'disconnected', mail: 'connected' });
    await vi.advanceTimersByTimeAsync(14_000);
    expect(monitor.states()).toMatchObject({ mail: 'disconnected' });

    databaseUp = true;
    await vi.advanceTimersByTimeAsync(1000);
    expect(monitor.states().database).toBe('connected');
  });

  it('records what a caller reports at once, checks again at once, and keeps one snapshot while nothing changes', async () => {
    vi.useFakeTimers();
    let up = true;
    monitor = createHealthMonitor({ database: { check: async () => up, everyMs: 1000 } });
    await monitor.refresh();
    const before = monitor.states();
    await vi.advanceTimersByTimeAsync(3000);
    expect(monitor.states()).toBe(before);

    up = false;
    monitor.report('database', false);
    expect(monitor.states().database).toBe('disconnected');
    // A report of a transient failure is corrected by the check it starts, not a second later.
    up = true;
    monitor.report('database', false);
    await vi.advanceTimersByTimeAsync(0);
    expect(monitor.states().database).toBe('connected');
  });

  it('takes a check that does not answer within its deadline as down', async () => {
    vi.useFakeTimers();
    monitor = createHealthMonitor(
      { redis: { check: () => new Promise<boolean>(() => undefined), everyMs: 1000 } },
      { deadlineMs: 500 },
    );
    const refreshed = monitor.refresh();
    await vi.advanceTimersByTimeAsync(500);
    await refreshed;
    expect(monitor.states().redis).toBe('disconnected');
  });
});
