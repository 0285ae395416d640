import type { FastifyBaseLogger as Logger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: Record<string, number> = {
  fatal: 60,
  error: 50,
  warn: 40,
  info: 30,
  debug: 20,
  trace: 10,
  silent: Infinity,
};

/** A logger's level as a number: pino keeps it as `levelVal`; other loggers by their label. */
const levelValueOf = (logger: Logger): number =>
  (logger as { levelVal?: number }).levelVal ?? LEVELS[logger.level] ?? 0;

/**
 * Fastify makes a child logger for every request (bound to its request id); pino's `child`
 * serialises the bindings and builds a logger object each time, which was a measurable share of
 * a cached request's CPU. This one makes the real child only when a line at an enabled level is
 * written, so a request that logs nothing (every request below LOG_LEVEL) costs one small object.
 */
class LazyChild {
  readonly #parent: Logger | LazyChild;
  readonly #bindings: Record<string, unknown>;
  readonly #options: { level?: string } | undefined;
  #real: Logger | null = null;

  constructor(parent: Logger | LazyChild, bindings: Record<string, unknown>, options?: { level?: string }) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #logger(): Logger {
    if (!this.#real) {
      const parent = this.#parent instanceof LazyChild ? this.#parent.#logger() : this.#parent;
      this.#real = parent.child(this.#bindings, this.#options as never);
    }
    return this.#real;
  }

  /**
   * The lowest level value written, read as a number through the chain (Fastify calls `info`
   * twice per request, for the request's own lines, even when info is off): no label lookups.
   */
  #threshold(): number {
    if (this.#real) return levelValueOf(this.#real);
    const own = this.#options?.level;
    if (own) return LEVELS[own] ?? 0;
    const parent = this.#parent;
    return parent instanceof LazyChild ? parent.#threshold() : levelValueOf(parent);
  }

  #enabled(level: Level): boolean {
    return LEVELS[level]! >= this.#threshold();
  }

  #write(level: Level, value: number, args: unknown[]) {
    if (value >= this.#threshold()) (this.#logger()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#real?.level ?? this.#options?.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#logger().level = level;
  }
  isLevelEnabled(level: string) {
    return this.#enabled(level as Level);
  }
  fatal(...args: unknown[]) {
    this.#write('fatal', 60, args);
  }
  error(...args: unknown[]) {
    this.#write('error', 50, args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', 40, args);
  }
  info(...args: unknown[]) {
    this.#write('info', 30, args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', 20, args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', 10, args);
  }
  silent() {}
  /**
   * Lazy too: Fastify makes one child of the logger it is given (with its serializers) and each
   * request's logger from that child, so a real child here would be one pino child per request.
   */
  child(bindings: Record<string, unknown>, options?: { level?: string }): Logger {
    return new LazyChild(this, bindings, options) as unknown as Logger;
  }
}

/**
 * The logger handed to Fastify (`loggerInstance`): the service's logger, except that `child`,
 * which Fastify calls for every request with its id, returns a LazyChild. Fastify's own child
 * factory then calls it; a custom `childLoggerFactory` would instead have Fastify check the
 * returned logger's methods on every request. Everything else is the service logger's own
 * (the object inherits from it, as pino's children do).
 */
export function withLazyRequestChildren(root: Logger): Logger {
  const logger = Object.create(root) as Logger;
  logger.child = (bindings, options) =>
    new LazyChild(
      root,
      bindings as Record<string, unknown>,
      options as { level?: string } | undefined,
    ) as unknown as Logger;
  return logger;
}
