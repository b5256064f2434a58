/**
 * GET /api/health's CPU time per request, builds of the service compared with each other and with two
 * references: Fastify alone (bench/fastify-alone.ts) and Fastify doing the same per-answer work through
 * the same libraries (bench/fastify-plugins.ts), on a machine too noisy for one process of each:
 *
 *   npx tsx bench/health-builds.ts [label=distDir …]      (default: the build in dist/)
 *
 * A second build is made with `npx tsc -p tsconfig.build.json --outDir dist-before` (from another
 * commit); its directory sits beside dist/, where it finds package.json, drizzle/ and web/dist. Each
 * build runs in BENCH_PROCESSES processes (as `npm start` runs it: production, logs at warn, its own
 * DATA_DIR), and so does each reference. Each process is first left idle (its background work's CPU a
 * second) and warmed up, then every round loads each process in turn for the same time (autocannon,
 * BENCH_CONNECTIONS), the order rotating by one each round. A turn's figure is the CPU time (user +
 * system, from /proc) the server process used over it, divided by the requests it answered. A
 * process's figure is the median of its rounds; a build's is the median of its processes', with each
 * process listed: two processes of one build can differ by more than a change does, so compare builds
 * over several processes. A ratio is a reference's figure over the build's (1.0 to Fastify alone: the
 * chain costs nothing). BENCH_FULL_GC=1 starts every process with bench/full-gc.mjs (one full GC a
 * second after start: the state of a long-running process, docs/performance.md). The instruction
 * count, which load does not move, is in docs/performance.md (Health).
 *
 * Settings (environment): BENCH_PROCESSES (3), BENCH_ROUNDS (5), BENCH_DURATION (s a turn, 3),
 * BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (10), BENCH_IDLE_SECONDS (10), BENCH_SERVICE_NODE_ARGS,
 * BENCH_FULL_GC.
 * Output: a table, and bench/health-builds.json with every turn.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import autocannon from 'autocannon';
import {
  cpuSeconds,
  freePort,
  ROOT,
  startReferenceServer,
  startService,
  type Server,
} from './processes.js';

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? Math.round(value) : fallback;
}

const processes = setting('BENCH_PROCESSES', 3);
const rounds = setting('BENCH_ROUNDS', 5);
const duration = setting('BENCH_DURATION', 3);
const warmup = setting('BENCH_WARMUP', 2);
const connections = setting('BENCH_CONNECTIONS', 10);
const idleSeconds = setting('BENCH_IDLE_SECONDS', 10);
const fullGcArgs =
  process.env.BENCH_FULL_GC === '1' ? ['--expose-gc', '--import', './bench/full-gc.mjs'] : [];
const nodeArgs = [
  ...fullGcArgs,
  ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
];
const REFERENCES = [
  { label: 'Fastify alone', script: 'fastify-alone.ts' },
  { label: 'Fastify + the same work', script: 'fastify-plugins.ts' },
];

const builds = (process.argv.length > 2 ? process.argv.slice(2) : ['current=dist']).map((arg) => {
  const [label, dir] = arg.includes('=') ? arg.split('=', 2) : [arg, arg];
  return { label: label ?? arg, dir: isAbsolute(dir ?? '') ? (dir ?? '') : join(ROOT, dir ?? '') };
});

interface Measured {
  label: string;
  server: Server;
  idleMsPerSecond: number | null;
  microsPerRequest: number[];
  requestsPerSecond: number[];
}

/** GET /api/health for `seconds` at `connections`: the server's CPU µs a request, and the rate. */
async function load(server: Server, seconds: number): Promise<{ cpuUs: number; rate: number }> {
  const before = cpuSeconds(server.pid);
  const startedAt = process.hrtime.bigint();
  const result = await autocannon({
    url: `${server.origin}/api/health`,
    connections,
    duration: seconds,
  });
  const elapsed = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const after = cpuSeconds(server.pid);
  const answered = result['2xx'];
  // The connections' last requests may be cut at the end of the duration; nothing else may fail.
  if (answered === 0 || result.errors > connections || result.non2xx > 0)
    throw new Error(
      `${server.name}: ${answered} answered 2xx, ${result.non2xx} not, ${result.errors} errors`,
    );
  if (before === null || after === null) throw new Error('no CPU time from /proc (Linux only)');
  return { cpuUs: ((after - before) * 1e6) / answered, rate: answered / elapsed };
}

async function idleCpu(servers: Server[]): Promise<(number | null)[]> {
  const before = servers.map((server) => cpuSeconds(server.pid));
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  return servers.map((server, index) => {
    const start = before[index];
    const end = cpuSeconds(server.pid);
    return start === null || start === undefined || end === null
      ? null
      : ((end - start) * 1000) / idleSeconds;
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'health-builds-'));
  const started: Measured[] = [];
  try {
    const env = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      JWT_SECRET: randomBytes(32).toString('hex'),
      APP_ORIGIN: 'http://app.bench.test',
    };
    for (const build of builds)
      for (let n = 1; n <= processes; n++) {
        const name = `${build.label} #${n}`;
        const dataDir = join(workDir, `${build.label}-${n}`);
        const server = await startService(
          name,
          { ...env, DATA_DIR: dataDir },
          join(workDir, `${build.label}-${n}.log`),
          nodeArgs,
          build.dir,
        );
        started.push({
          label: build.label,
          server,
          idleMsPerSecond: null,
          microsPerRequest: [],
          requestsPerSecond: [],
        });
      }
    const first = started[0];
    if (!first) throw new Error('no build to measure');
    const health = (await (await fetch(`${first.server.origin}/api/health`)).json()) as {
      version: string;
      services: Record<string, string>;
    };
    const configPath = join(workDir, 'fastify-alone.json');
    writeFileSync(configPath, JSON.stringify({ health }));
    for (const { label, script } of REFERENCES)
      for (let n = 1; n <= processes; n++) {
        const server = await startReferenceServer(
          `${label} #${n}`,
          script,
          configPath,
          await freePort(),
          join(workDir, `${script}-${n}.log`),
          fullGcArgs,
        );
        started.push({
          label,
          server,
          idleMsPerSecond: null,
          microsPerRequest: [],
          requestsPerSecond: [],
        });
      }

    // Background work first, every process idle at once (none is loaded yet).
    const idle = await idleCpu(started.map((entry) => entry.server));
    started.forEach((entry, index) => (entry.idleMsPerSecond = idle[index] ?? null));
    for (const entry of started) await load(entry.server, warmup);

    for (let round = 0; round < rounds; round++) {
      const order = started.map((_, index) => started[(index + round) % started.length]);
      for (const entry of order) {
        if (!entry) continue;
        const { cpuUs, rate } = await load(entry.server, duration);
        entry.microsPerRequest.push(cpuUs);
        entry.requestsPerSecond.push(rate);
      }
      process.stdout.write(`round ${round + 1} of ${rounds} done\n`);
    }

    const labels = [...builds.map((build) => build.label), ...REFERENCES.map((r) => r.label)];
    const figureOf = (label: string) =>
      median(started.filter((e) => e.label === label).map((e) => median(e.microsPerRequest)));
    const [alone, plugins] = REFERENCES.map((r) => figureOf(r.label));
    const lines = [
      `GET /api/health, ${processes} processes each, ${rounds} rounds of ${duration} s, ${connections} connections` +
        (fullGcArgs.length ? ', each process after one full GC (BENCH_FULL_GC)' : ''),
      '| build | CPU µs a request (median of processes) | ratio to Fastify alone | ratio to Fastify + the same work |',
      '|---|--:|--:|--:|',
      ...labels.map((label) => {
        const figure = figureOf(label);
        return `| ${label} | ${figure.toFixed(1)} | ${((alone ?? 0) / figure).toFixed(2)} | ${((plugins ?? 0) / figure).toFixed(2)} |`;
      }),
      'Each process: µs a request, req/s, idle CPU ms/s:',
      ...started.map(
        (e) =>
          `- ${e.server.name}: ${median(e.microsPerRequest).toFixed(1)} µs, ${Math.round(median(e.requestsPerSecond))}/s, ` +
          `${e.idleMsPerSecond?.toFixed(1) ?? '–'} ms/s`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    writeFileSync(
      join(ROOT, 'bench', 'health-builds.json'),
      JSON.stringify(
        {
          at: new Date().toISOString(),
          settings: {
            processes,
            rounds,
            duration,
            warmup,
            connections,
            idleSeconds,
            fullGc: fullGcArgs.length > 0,
          },
          processes: started.map(
            ({ label, server, idleMsPerSecond, microsPerRequest, requestsPerSecond }) => ({
              label,
              name: server.name,
              idleMsPerSecond,
              microsPerRequest,
              requestsPerSecond,
            }),
          ),
        },
        null,
        2,
      ),
    );
  } finally {
    await Promise.all(started.map((entry) => entry.server.stop()));
    rmSync(workDir, { recursive: true, force: true });
  }
}

await main();
