/** Starts the service: validates the environment, builds the app, listens, and shuts down gracefully. */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { stopListening } from './platform/drain.js';

/** After the drain: how long the requests in flight may take before the process exits 1 anyway. */
const CLOSE_LIMIT_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  let stopping = false;
  let endDrainEarly: (() => void) | undefined;
  /**
   * Readiness turns 503 at once and every answer says `Connection: close`, but the process keeps
   * serving for the drain time while the load balancer notices; then it stops listening, lets the
   * work in flight finish (streams get their `error` event) and exits 0. A second signal ends the
   * drain at once (Ctrl-C twice in a terminal).
   */
  const shutdown = async (signal: string) => {
    if (stopping) {
      endDrainEarly?.();
      return;
    }
    stopping = true;
    app.ctx.drain.begin();
    app.log.info(
      { signal, drainMs: config.shutdownDrainMs },
      `shutting down: readiness answers 503; still serving for ${config.shutdownDrainMs} ms`,
    );
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, config.shutdownDrainMs);
      endDrainEarly = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    const force = setTimeout(() => process.exit(1), CLOSE_LIMIT_MS);
    force.unref();
    // The listener first, once the kernel has no connection queued for it (a close would reset those);
    // then Fastify's close, which answers 503 on connections still open and waits for those in flight.
    await stopListening(app.server);
    app.log.info({ signal }, 'drained: no longer listening; finishing the requests in flight');
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  const listening = await app.listen({ port: config.port, host: config.host });
  // The workers that read imports and format citations start now, building the common citation
  // styles' engines in the background, so that the first citation waits for none.
  app.ctx.workers.start();
  const services = app.ctx.platform.health.states();
  // Where it listens and the public address it hands out (links, avatars, OAuth callback), in one line.
  app.log.info(
    {
      listening,
      publicUrl: config.publicUrl,
      appOrigin: config.appOrigin,
      database: app.ctx.platform.database.kind,
      redis: Boolean(config.redisUrl),
      mail: app.ctx.platform.mailTransport.kind,
    },
    `Research Workspace ${config.version} ready at ${config.publicUrl} (listening on ${listening}, API reference ${config.publicUrl}/api/docs)`,
  );
  if (services.redis === 'disconnected') {
    app.log.warn(
      'Redis is unreachable: rate limits and caches are kept in this process until it answers (health reports it)',
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
