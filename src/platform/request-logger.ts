/**
 * Per-request loggers made on first use. Fastify gives every request a child of the logger bound to
 * its request id; pino builds that child (copying and serialising the bindings) even when nothing is
 * ever logged, which at the usual production level (warn) is most requests. This factory hands out a
 * light stand-in that asks the parent whether a level is enabled and builds the real child only when a
 * line is actually written, so the request id is on every line that is logged. A route's own level
 * (`logLevel`, e.g. the health route's `warn`) is kept by the stand-in too: with it pino would build a
 * child and rebuild its log methods for the new level on every request.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
/** pino's loggers answer `isLevelEnabled` and list their levels' values; Fastify's base logger type names neither. */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean; levels?: { values: Record<string, number> } };
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

class LazyRequestLogger {
  #real: FastifyBaseLogger | null = null;

  /** The route's own level as a number (`silent`: nothing), when it has one. */
  readonly #threshold: number | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly ownLevel?: string,
  ) {
    this.#threshold = ownLevel === undefined ? undefined : ownLevel === 'silent' ? Number.POSITIVE_INFINITY : parent.levels?.values[ownLevel];
  }

  get level(): string {
    return this.ownLevel ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    if (this.#threshold === undefined) return this.parent.isLevelEnabled(level);
    return (this.parent.levels?.values[level] ?? Number.NEGATIVE_INFINITY) >= this.#threshold;
  }

  child(bindings: Bindings, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  silent(): void {}

  private real(): FastifyBaseLogger {
    this.#real ??= this.parent.child(this.bindings, this.ownLevel === undefined ? undefined : { level: this.ownLevel });
    return this.#real;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
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
 * Fastify's `childLoggerFactory`: a lazy child, with the route's own level if it has one, unless the
 * route asks for its own serializers (then the real child, which carries them), or when the logger
 * cannot say which levels are on (or what a route's level is worth).
 */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  const parent = logger as ParentLogger;
  const levelKnown = !options.level || options.level === 'silent' || parent.levels?.values[options.level] !== undefined;
  if (options.serializers || !levelKnown || typeof parent.isLevelEnabled !== 'function') return logger.child(bindings, options);
  return new LazyRequestLogger(parent, bindings, options.level || undefined);
};
