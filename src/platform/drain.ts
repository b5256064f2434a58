/**
 * A process told to stop keeps serving for a while (config.shutdownDrainMs, see main.ts) so that a
 * load balancer sees its readiness fail and sends it nothing new before it stops listening. While it
 * drains, readiness answers 503 and every answer says `Connection: close`: a kept-alive client opens
 * a new connection (to another process, once the balancer knows) for its next request instead of
 * sending it on one that is about to be closed under it.
 *
 * Then it stops listening (`stopListening`). The kernel completes a client's connection before the
 * process accepts it, and closing a listening socket resets every connection still in its accept
 * queue: a client with nothing in front of the process would get ECONNRESET for a connection it saw
 * open, perhaps after sending its request. So the listener is closed only at a moment its queue is
 * seen empty (nor a handshake pending), straight after the look; later attempts find no listener and are refused
 * (ECONNREFUSED), which a client can tell from a request that may have been served.
 */
import { openSync, readSync, closeSync } from 'node:fs';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

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

const netServerClose = NetServer.prototype.close;

/** How long `stopListening` waits for an empty accept queue before it closes the listener anyway. */
const EMPTY_QUEUE_WAIT_MS = 2000;
/** Enough of /proc/net/tcp{,6} for every socket of an ordinary host (about 150 bytes a socket). */
const PROC_READ_BYTES = 4 * 1024 * 1024;
/** The listening sockets come first in /proc/net/tcp: this much holds them on an ordinary host. */
const PROC_LISTENERS_BYTES = 16 * 1024;
const TCP_LISTEN_STATE = '0A';
const TCP_SYN_RECV_STATE = '03';
let procBuffer: Buffer | undefined;

/**
 * What the kernel holds for the listening socket at `port` that the process has not accepted (Linux,
 * /proc/net/tcp{,6}): `queued`, connections completed and waiting in the accept queue (a listening
 * socket's `rx_queue`), and `halfOpen`, handshakes still pending (SYN_RECV; a client may see such a
 * connection open already when the queue was full as its last ACK came). Undefined where that
 * cannot be read. `listenerOnly` reads just the start of the files, where the listening sockets are
 * (a quicker look, `halfOpen` then 0).
 */
function acceptQueueOf(
  port: number,
  listenerOnly = false,
): { queued: number; halfOpen: number } | undefined {
  const portSuffix = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  procBuffer ??= Buffer.allocUnsafe(PROC_READ_BYTES);
  const limit = listenerOnly ? PROC_LISTENERS_BYTES : PROC_READ_BYTES;
  let found: { queued: number; halfOpen: number } | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let length = 0;
    try {
      const fd = openSync(file, 'r');
      try {
        for (let n = -1; n !== 0 && length < limit; length += n)
          n = readSync(fd, procBuffer, length, limit - length, null);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue;
    }
    for (const line of procBuffer.toString('latin1', 0, length).split('\n')) {
      // "sl local_address rem_address st tx_queue:rx_queue …"
      const [, local, , state, queues] = line.trim().split(/\s+/);
      if (!local?.endsWith(portSuffix)) continue;
      found ??= { queued: 0, halfOpen: 0 };
      if (state === TCP_LISTEN_STATE)
        found.queued += Number.parseInt(queues?.split(':')[1] ?? '0', 16);
      else if (state === TCP_SYN_RECV_STATE) found.halfOpen += 1;
    }
  }
  return found;
}

/**
 * Lowers the listening socket's backlog to 0: Linux then queues at most one completed connection and
 * drops the SYN of others (their client sends it again after a second, and finds the listener gone:
 * ECONNREFUSED), so that a busy listener's queue empties between two turns of the event loop. Node
 * has no public call for it; its listening handle's `listen` (what `server.listen` calls) calls
 * listen(2) again, which on a listening socket only changes the backlog. Nothing happens where the
 * handle has no such method.
 */
function admitAtMostOneQueued(server: Server): void {
  const handle = (server as unknown as { _handle?: { listen?: (backlog: number) => number } })
    ._handle;
  if (typeof handle?.listen === 'function') handle.listen(0);
}

/**
 * Closes the listening socket at a moment the kernel holds no connection for it that the process has
 * not accepted: each turn of the event loop accepts what is queued (libuv accepts until the queue is
 * empty), then this looks at the queue and closes the listener in the same breath when it is empty.
 * Only a connection completed in the microseconds between the look and the close could still be
 * reset. Where the queue cannot be read (not Linux), or it never empties within EMPTY_QUEUE_WAIT_MS,
 * it closes at once. Connections already accepted are not touched (server.close ends the idle ones).
 */
export function stopListening(server: Server): Promise<void> {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : undefined;
  const giveUpAt = Date.now() + EMPTY_QUEUE_WAIT_MS;
  admitAtMostOneQueued(server);
  return new Promise((resolve) => {
    const attempt = () => {
      if (!server.listening) return resolve();
      if (
        port === undefined ||
        (acceptQueueOf(port, true)?.queued ?? 0) === 0 ||
        Date.now() > giveUpAt
      ) {
        // net's close, not http's: that one also ends the idle connections, which include those just
        // accepted whose request is not read yet (a reset). Their request is read in the next turn.
        netServerClose.call(server);
        return setImmediate(resolve);
      }
      // After the next poll phase, in which libuv accepts the queued connections.
      setImmediate(attempt);
    };
    setImmediate(attempt);
  });
}
