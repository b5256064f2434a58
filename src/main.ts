/** Starts the service: validates the environment, builds the app, listens, and shuts down gracefully. */
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

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
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  const listening = await app.listen({ port: config.port, host: config.host });
  const services = app.ctx.platform.health.states();
  // Where it listens and the public address it hands out (links, avatars, OAuth callback), in one line.
  app.log.info(
    {
      listening,
      publicUrl: config.publicUrl,
      appOrigin: config.appOrigin,
      database: app.ctx.platform.database.kind,
      redis: Boolean(config.redisUrl),
      mail: app.ctx.platform.mailer.kind,
    },
    `Research Workspace ${config.version} ready at ${config.publicUrl} (listening on ${listening}, API reference ${config.publicUrl}/api/docs)`,
  );
  if (services.redis === 'disconnected') {
    app.log.warn('Redis is unreachable: rate limits and caches are kept in this process until it answers (health reports it)');
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
