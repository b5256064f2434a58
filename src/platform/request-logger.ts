/**
 * Per-request loggers made on first use. Fastify gives every request a child of the logger bound to
 * its request id; pino builds that child (copying and serialising the bindings) even when nothing is
 * ever logged, which at the usual production level (warn) is most requests. This factory hands out a
 * light stand-in that asks the parent whether a level is enabled and builds the real child only when a
 * line is actually written, so the request id is on every line that is logged.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
/** pino's loggers answer `isLevelEnabled`; Fastify's base logger type does not name it. */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class LazyRequestLogger {
  #real: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return this.parent.isLevelEnabled(level);
  }

  child(bindings: Bindings, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  silent(): void {}

  private real(): FastifyBaseLogger {
    this.#real ??= this.parent.child(this.bindings);
    return this.#real;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!this.parent.isLevelEnabled(level)) return;
    const real = this.real();
    Reflect.apply(real[level], real, args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child unless the route asks for its own level or serializers
 * (then the real child, which carries them), or when the logger cannot say which levels are on.
 */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  const parent = logger as ParentLogger;
  if (options.level || options.serializers || typeof parent.isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new LazyRequestLogger(parent, bindings);
};
