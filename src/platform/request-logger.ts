/**
 * Each request's logger, through Fastify's `childLoggerFactory`: pino's child bound to the request id,
 * made when the request first writes a line at a level the logger writes. Fastify asks for that child
 * on every request, and pino builds it at once (the bindings serialised, its formatters rebuilt) even
 * when nothing is ever logged, which at production's level (warn) is almost every request: 7.4k of
 * the 160k instructions a `GET /api/health` took, 3.8k saved once Fastify's check of a factory's
 * logger on every request is paid (docs/performance.md, Health). Every line a request writes still
 * goes through pino's child, with the request id, the serializers and redaction. A route with a level
 * or serializers of its own gets pino's child at once, as without this factory.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Record<string, unknown>;
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
/** pino's loggers say whether a level is written; Fastify's base logger type does not name it. */
type LevelAwareLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAwareLogger,
    private readonly bindings: Bindings,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.child$().level = level;
  }

  isLevelEnabled(level: string): boolean {
    const child = this.#child as LevelAwareLogger | undefined;
    return (child ?? this.parent).isLevelEnabled(level);
  }

  child(...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger {
    return this.child$().child(...args);
  }

  silent(): void {}

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

  private child$(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  private write(level: LevelName, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    const child = this.child$();
    Reflect.apply(child[level], child, args);
  }
}

export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => {
  const parent = logger as Partial<LevelAwareLogger> & FastifyBaseLogger;
  if (options.level || options.serializers || typeof parent.isLevelEnabled !== 'function')
    return logger.child(bindings, options);
  return new RequestLogger(parent as LevelAwareLogger, bindings);
};
