/**
 * A redis-server of a test's own, on a free port in a temp directory and without persistence, so
 * that a test can freeze it (SIGSTOP), thaw it, kill it and restart it empty without touching the
 * machine's shared Redis (which other tests use).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';

const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** Why a redis-server cannot be started here (null when it can); in CI a missing binary is an error. */
export function ownRedisSkipReason(): string | null {
  if (spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0) return null;
  const reason = 'redis-server not found: test skipped';
  if (inCi) throw new Error(`In CI the Redis fault tests must run: ${reason}`);
  return reason;
}

export interface OwnRedis {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** SIGSTOP: the server keeps its connections open and answers nothing. */
  freeze(): void;
  /** SIGCONT */
  thaw(): void;
  /** Kills the server (its data is lost: no persistence). */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
  /** A command through redis-cli (for assertions); its output trimmed. */
  cli(...args: string[]): string;
  destroy(): Promise<void>;
}

/** Resolves once the port answers PING with PONG, within `timeoutMs`. */
async function waitForPong(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const done = (value: boolean) => {
        socket.destroy();
        resolve(value);
      };
      socket.setTimeout(500, () => done(false));
      socket.once('error', () => done(false));
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer within ${timeoutMs} ms`);
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'rw-own-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      {
        stdio: 'ignore',
      },
    );
    await waitForPong(port, 10_000);
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGKILL');
    await exited;
  };
  const signal = (name: NodeJS.Signals) => {
    if (!child) throw new Error('redis-server is not running');
    child.kill(name);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    kill,
    start,
    cli: (...args) =>
      spawnSync('redis-cli', ['-p', String(port), ...args], {
        encoding: 'utf8',
        timeout: 5000,
      }).stdout.trim(),
    async destroy() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
