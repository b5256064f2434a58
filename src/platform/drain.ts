/**
 * A process told to stop keeps serving for a while (config.shutdownDrainMs, see main.ts) so that a
 * load balancer sees its readiness fail and sends it nothing new before it stops listening. While it
 * drains, readiness answers 503 and every answer says `Connection: close`: a kept-alive client opens
 * a new connection (to another process, once the balancer knows) for its next request instead of
 * sending it on one that is about to be closed under it.
 */
import type { Server } from 'node:http';

export interface Drain {
  /** True from `begin()` on. */
  readonly draining: boolean;
  begin(): void;
}

export function createDrain(server: Pick<Server, 'prependListener'>): Drain {
  let draining = false;
  // Before Fastify's own listener, so the header is set before any handler (or Fastify's closing 503) writes.
  server.prependListener('request', (request, response) => {
    if (draining && request.httpVersionMajor === 1) response.setHeader('connection', 'close');
  });
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
}
