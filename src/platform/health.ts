/**
 * Backend states for /api/health and readiness, checked in the background so that the endpoints
 * themselves stay cheap (they only read the last result). Cheap checks of a server (a query on a
 * connection of its own, a Redis PING) run every second, so an outage shows within a second or two
 * even when no request meets it; the embedded database every 5 s; costly ones (an SMTP handshake, an
 * HTTP request) every 15 s. What callers see in between (a connection lost, a command timed out, a
 * reconnect) is reported at once and checked again.
 */
/** What a backend can be: `outbox` is mail written to files in DATA_DIR/outbox rather than sent. */
export const SERVICE_STATES = ['connected', 'disconnected', 'not_configured', 'outbox'] as const;
export type ServiceState = (typeof SERVICE_STATES)[number];

export type HealthCheck = () => Promise<boolean>;

export interface WatchedService {
  check: HealthCheck;
  /** How often it is checked (default: every 15 s). */
  everyMs?: number;
}

/** A check, a fixed state (e.g. mail to the outbox), or null for a backend that is not configured. */
export type ServiceSpec = HealthCheck | WatchedService | ServiceState | null;

export interface HealthMonitor {
  /** The last result: one frozen object per change, so a read costs nothing. */
  states(): Readonly<Record<string, ServiceState>>;
  /** Runs every check now (also done at start and on each check's interval). */
  refresh(): Promise<void>;
  /** What a caller has just seen of a backend: recorded at once, then checked again right away. */
  report(name: string, up: boolean): void;
  stop(): void;
}

export const QUICK_CHECK_MS = 1000;
/**
 * The embedded database (PGlite) is in this process: no network to lose, no restart or failover of
 * a server, and no other process for a load balancer to send traffic to. What a check can find (the
 * database closed or broken) stays, so finding it within 5 s rather than 1 s keeps readiness true to
 * a load balancer's polling (every 5–10 s, a few failures in a row) for a fifth of the queries: each
 * `select 1` through PGlite costs about 1 ms of CPU a second idle, on the one thread that serves requests.
 */
export const EMBEDDED_CHECK_MS = 5000;
const SLOW_CHECK_MS = 15_000;

export function createHealthMonitor(
  services: Record<string, ServiceSpec>,
  options: { deadlineMs?: number } = {},
): HealthMonitor {
  const deadlineMs = options.deadlineMs ?? QUICK_CHECK_MS;
  const current: Record<string, ServiceState> = {};
  let snapshot: Readonly<Record<string, ServiceState>> = Object.freeze({});
  let stopped = false;

  interface Watch {
    name: string;
    check: HealthCheck;
    everyMs: number;
    timer: NodeJS.Timeout | null;
    running: boolean;
    /** Results are applied in the order the checks started: a slow old answer never overwrites a newer one. */
    started: number;
    applied: number;
  }
  const watches: Watch[] = [];
  for (const [name, spec] of Object.entries(services)) {
    if (spec === null) current[name] = 'not_configured';
    else if (typeof spec === 'string') current[name] = spec;
    else {
      const { check, everyMs = SLOW_CHECK_MS } =
        typeof spec === 'function' ? { check: spec } : spec;
      current[name] = 'disconnected';
      watches.push({ name, check, everyMs, timer: null, running: false, started: 0, applied: 0 });
    }
  }
  snapshot = Object.freeze({ ...current });

  function record(name: string, state: ServiceState): void {
    if (current[name] === state) return;
    current[name] = state;
    snapshot = Object.freeze({ ...current });
  }

  const withDeadline = (check: HealthCheck) =>
    Promise.race([
      check().catch(() => false),
      new Promise<boolean>((resolve) => setTimeout(resolve, deadlineMs, false).unref()),
    ]);

  function schedule(watch: Watch, inMs: number): void {
    if (stopped) return;
    if (watch.timer) clearTimeout(watch.timer);
    watch.timer = setTimeout(() => void run(watch), inMs);
    watch.timer.unref();
  }

  async function run(watch: Watch): Promise<void> {
    const sequence = ++watch.started;
    watch.running = true;
    const up = await withDeadline(watch.check);
    watch.running = false;
    if (sequence > watch.applied) {
      watch.applied = sequence;
      record(watch.name, up ? 'connected' : 'disconnected');
    }
    schedule(watch, watch.everyMs);
  }

  for (const watch of watches) schedule(watch, watch.everyMs);

  return {
    states: () => snapshot,
    refresh: async () => {
      await Promise.all(watches.map((watch) => run(watch)));
    },
    report(name, up) {
      const watch = watches.find((w) => w.name === name);
      if (!watch) return;
      // Newer than any check in flight: that check's answer (from before this news) is not applied.
      watch.applied = watch.started;
      record(name, up ? 'connected' : 'disconnected');
      if (!watch.running) schedule(watch, 0);
    },
    stop() {
      stopped = true;
      for (const watch of watches) if (watch.timer) clearTimeout(watch.timer);
    },
  };
}
