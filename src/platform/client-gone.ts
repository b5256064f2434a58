/**
 * "The client went away": the connection closed before its reply was complete. Work done only for
 * that reply (provider calls, a PDF download) is stopped then.
 */
import type { FastifyReply } from 'fastify';

function clientWentAway(reply: FastifyReply): boolean {
  return reply.raw.destroyed && !reply.raw.writableFinished;
}

/** An AbortSignal that fires when the client goes away, or when `also` fires (the server's shutdown). */
export function abortWhenClientGoes(reply: FastifyReply, also?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  if (clientWentAway(reply) || also?.aborted) {
    controller.abort();
    return controller.signal;
  }
  const onAlso = () => controller.abort();
  also?.addEventListener('abort', onAlso, { once: true });
  // The response closes either way; unfinished, the client left.
  response.once('close', () => {
    also?.removeEventListener('abort', onAlso);
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
