import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLoggerFactory } from './request-logger.js';

/** Fastify's pino logger at `level` writing parsed lines to an array, and the children pino has made. */
function logger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const children: unknown[] = [];
  const { log: root } = Fastify({
    logger: {
      level,
      onChild: (child: unknown) => void children.push(child),
      stream: {
        write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
      },
    },
  });
  return { root, lines, children };
}

const requestLogger = (root: FastifyBaseLogger, options = {}) =>
  requestLoggerFactory.call(
    undefined as never,
    root,
    { reqId: 'req-1' },
    options,
    undefined as never,
  );

describe('requestLoggerFactory', () => {
  it('makes no pino child for a request that writes nothing at the logger’s level', () => {
    const { root, lines, children } = logger('warn');
    const log = requestLogger(root);
    log.info('not written');
    log.debug('not written');
    expect(children).toHaveLength(0);
    expect(lines).toEqual([]);
    expect(
      (log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info'),
    ).toBe(false);
  });

  it('writes through one pino child, with the request id, once a line is written', () => {
    const { root, lines, children } = logger('warn');
    const log = requestLogger(root);
    log.warn({ detail: 42 }, 'first');
    log.error(new Error('boom'), 'second');
    expect(children).toHaveLength(1);
    expect(lines.map((line) => [line.level, line.msg, line.reqId])).toEqual([
      [40, 'first', 'req-1'],
      [50, 'second', 'req-1'],
    ]);
    expect(lines[0]).toMatchObject({ detail: 42 });
    const child = log.child({ step: 'x' }) as FastifyBaseLogger & {
      bindings(): Record<string, unknown>;
    };
    expect(child.bindings()).toMatchObject({
      reqId: 'req-1',
      step: 'x',
    });
  });

  it('gives a route with its own level pino’s child at once', () => {
    const { root, lines, children } = logger('warn');
    const log = requestLogger(root, { level: 'debug' });
    expect(children).toHaveLength(1);
    log.debug('written at debug');
    expect(lines.map((line) => line.msg)).toEqual(['written at debug']);
  });
});
