/**
 * Backend states for /api/health, checked in the background on an interval so that the health
 * endpoint itself stays cheap (it only reads the last result).
 */
export type ServiceState = 'connected' | 'disconnected' | 'not_configured';

export type HealthCheck = () => Promise<boolean>;

export interface HealthMonitor {
  /** The last result: one frozen object per refresh, so a read costs nothing. */
  states(): Readonly<Record<string, ServiceState>>;
  /** Runs every check now (also done at start and on each interval). */
  refresh(): Promise<void>;
  stop(): void;
}

export function createHealthMonitor(checks: Record<string, HealthCheck | null>, intervalMs = 15_000): HealthMonitor {
  const current: Record<string, ServiceState> = {};
  for (const [name, check] of Object.entries(checks)) current[name] = check ? 'disconnected' : 'not_configured';
  let snapshot: Readonly<Record<string, ServiceState>> = Object.freeze({ ...current });

  const withDeadline = (check: HealthCheck) =>
    Promise.race([check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(resolve, 2000, false).unref())]);

  async function refresh(): Promise<void> {
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        if (!check) return;
        current[name] = (await withDeadline(check)) ? 'connected' : 'disconnected';
      }),
    );
    snapshot = Object.freeze({ ...current });
  }
  const timer = setInterval(() => void refresh(), intervalMs);
  timer.unref();
  return { states: () => snapshot, refresh, stop: () => clearInterval(timer) };
}
