/** Child processes of the benchmark: the service, the bare server and the load generator. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { LoadResult, LoadSpec } from './load.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface Server {
  name: string;
  origin: string;
  pid: number;
  /** Peak resident memory so far (VmHWM), in MB. */
  peakRssMb(): number | null;
  stop(): Promise<void>;
}

/** A free loopback port (asked of the OS, then released for the child to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time the process has used so far (user and system, from /proc), in seconds; null off Linux. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited(child);
  clearTimeout(timer);
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '';
  }
}

async function waitUntil(
  check: () => Promise<boolean>,
  child: ChildProcess,
  what: string,
  logPath: string,
  timeoutMs = 300_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited during start:\n${logTail(logPath)}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s:\n${logTail(logPath)}`);
}

function spawnLogged(
  name: string,
  args: string[],
  env: Record<string, string>,
  logPath: string,
): ChildProcess {
  const log = createWriteStream(logPath);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  child.once('error', (error) => log.write(`${name}: ${error.message}\n`));
  return child;
}

function asServer(name: string, origin: string, child: ChildProcess): Server {
  const pid = child.pid ?? -1;
  let lastPeak: number | null = null;
  return {
    name,
    origin,
    pid,
    peakRssMb: () => {
      lastPeak = peakRssMb(pid) ?? lastPeak;
      return lastPeak;
    },
    stop: () => stopChild(child),
  };
}

/**
 * The service as production runs it: `npm start`'s node command, configured by the environment alone.
 * `distDir`: another build of it (a directory beside dist/, as `tsc --outDir` writes one).
 */
export async function startService(
  name: string,
  env: Record<string, string>,
  logPath: string,
  nodeArgs: string[] = [],
  distDir = join(ROOT, 'dist'),
): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = [...startScriptNodeArgs(), ...nodeArgs, join(distDir, 'main.js')];
  // No load balancer to drain for: the benchmark stops it at once.
  const child = spawnLogged(
    name,
    args,
    { SHUTDOWN_DRAIN_MS: '0', ...env, PORT: String(port), HOST: '127.0.0.1' },
    logPath,
  );
  await waitUntil(async () => (await fetch(`${origin}/api/health`)).ok, child, name, logPath);
  return asServer(name, origin, child);
}

/**
 * The node arguments `npm start` gives the service (package.json `scripts.start`: `node <args> dist/main.js`),
 * so that the benchmark runs the service as production starts it.
 */
export function startScriptNodeArgs(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const match = /^node\s+(.*?)\s*dist\/main\.js$/.exec(scripts.start ?? '');
  if (!match)
    throw new Error(`package.json scripts.start is not "node … dist/main.js": ${scripts.start}`);
  return (match[1] ?? '').split(/\s+/).filter(Boolean);
}

/**
 * A reference server of bench/ as plain JavaScript: transpiled (type-only imports dropped) into
 * `.bench-build/` beside dist/, with the bench modules it imports, then run by node alone — no
 * TypeScript loader in the process, so its memory and start-up are those of the server itself.
 * Returns the script's path there.
 */
export function transpileReferenceServer(script: string): string {
  const outDir = join(ROOT, '.bench-build');
  mkdirSync(outDir, { recursive: true });
  const source = readFileSync(join(ROOT, 'bench', script), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
    fileName: script,
  });
  const outPath = join(outDir, script.replace(/\.ts$/, '.js'));
  writeFileSync(outPath, outputText);
  // The bench modules it imports (`./name.js`), the same way (the root package.json makes .js ESM).
  for (const [, imported] of outputText.matchAll(/from '\.\/([\w-]+)\.js'/g))
    transpileReferenceServer(`${imported}.ts`);
  return outPath;
}

/**
 * A reference server of bench/ (`bare-server.ts`, `fastify-alone.ts`, `fastify-plugins.ts`), given the
 * bare server's configuration file, started with `nodeArgs` before its script.
 */
export async function startReferenceServer(
  name: string,
  script: string,
  configPath: string,
  port: number,
  logPath: string,
  nodeArgs: string[] = [],
): Promise<Server> {
  const origin = `http://127.0.0.1:${port}`;
  const child = spawnLogged(
    name,
    [...nodeArgs, transpileReferenceServer(script), configPath, String(port)],
    {},
    logPath,
  );
  await waitUntil(async () => (await fetch(`${origin}/api/health`)).ok, child, name, logPath);
  return asServer(name, origin, child);
}

/** One load run in its own process (bench/load.ts); a result per origin. */
export function runLoad(spec: LoadSpec): Promise<LoadResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'bench', 'load.ts'), JSON.stringify(spec)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0)
        return reject(new Error(`load generator exited with ${code}: ${err.slice(-2000)}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as LoadResult[]);
      } catch {
        reject(
          new Error(`load generator printed no result: ${out.slice(-500)} ${err.slice(-2000)}`),
        );
      }
    });
  });
}
