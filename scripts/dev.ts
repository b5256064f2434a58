/**
 * `npm run dev`: the service (tsx watch: restarts on change) and the web app's Vite dev server (hot
 * reload), side by side. Open the Vite address (http://localhost:5173): it proxies /api, /share,
 * /storage and /auth/callback to the service, so the app and its cookies stay same-origin. The links
 * the service hands out (reset mail, OAuth callback, share URLs) point at the Vite address too, unless
 * APP_ORIGIN / PUBLIC_URL say otherwise. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const servicePort = process.env.PORT ?? '3000';
const webPort = process.env.WEB_DEV_PORT ?? '5173';
const webOrigin = `http://localhost:${webPort}`;

const children: ChildProcess[] = [];
function run(name: string, args: string[], env: Record<string, string>): void {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = (chunk: Buffer) =>
    chunk
      .toString()
      .split(/\r?\n/)
      .filter((line) => line.length > 0)
      .map((line) => `[${name}] ${line}\n`)
      .join('');
  child.stdout?.on('data', (chunk: Buffer) => process.stdout.write(prefix(chunk)));
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(prefix(chunk)));
  child.on('exit', (code, signal) => {
    console.log(`[${name}] exited (${signal ?? code})`);
    stop(code ?? 1);
  });
  children.push(child);
}

let stopping = false;
function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

run('service', [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'watch', 'src/main.ts'], {
  PORT: servicePort,
  APP_ORIGIN: process.env.APP_ORIGIN ?? webOrigin,
  PUBLIC_URL: process.env.PUBLIC_URL ?? webOrigin,
  // No load balancer in front: a reload on a change restarts at once.
  SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '0',
});
run(
  'web',
  [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--config', 'web/vite.config.ts'],
  {
    SERVICE_URL: `http://127.0.0.1:${servicePort}`,
    WEB_DEV_PORT: webPort,
  },
);
console.log(`Open ${webOrigin} (the service itself listens on port ${servicePort}).`);
