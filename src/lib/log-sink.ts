import { write as fsWrite } from 'node:fs';

/**
 * Where log lines go: a file descriptor (stdout) written asynchronously, one write at a time,
 * that never blocks the process and never throws.
 *
 * pino's default destination writes synchronously and, when the pipe is full (a log reader that
 * stopped reading), spins retrying; on exit it flushes synchronously the same way. A service
 * whose log pipe stalls then never reaches its SIGTERM handler. Here:
 * - a full pipe (EAGAIN) is retried on a timer, while lines queue in memory up to a cap; past
 *   the cap lines are dropped and counted, and a note says how many once writing resumes;
 * - a pipe whose reader is gone (EPIPE, EBADF, any other error) ends logging for good: the
 *   lines are dropped, the process carries on;
 * - `drain(timeoutMs)` waits for the queue to empty, but never longer than asked, so shutdown
 *   can give logs a moment without depending on them.
 */
const MAX_QUEUED_BYTES = 4 * 1024 * 1024;
const RETRY_MS = 50;

export class LogSink {
  readonly #fd: number;
  #queue: string[] = [];
  #queuedBytes = 0;
  #writing = false;
  #broken = false;
  #dropped = 0;
  #drained: (() => void)[] = [];

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Lines dropped so far (queue full or the reader gone). */
  get dropped() {
    return this.#dropped;
  }

  write(line: string): boolean {
    if (this.#broken || this.#queuedBytes + line.length > MAX_QUEUED_BYTES) {
      this.#dropped++;
      return true;
    }
    this.#queue.push(line);
    this.#queuedBytes += line.length;
    if (!this.#writing) this.#pump();
    return true;
  }

  /** pino's `logger.flush(cb)`: waits a bounded time for queued lines. */
  flush(cb?: (err?: Error) => void) {
    void this.drain(1_000).then(() => cb?.());
  }

  drain(timeoutMs: number): Promise<void> {
    if (!this.#writing) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.#drained.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #pump() {
    if (!this.#queue.length || this.#broken) {
      this.#writing = false;
      for (const done of this.#drained.splice(0)) done();
      return;
    }
    this.#writing = true;
    const text = this.#queue.join('');
    this.#queue = [];
    this.#send(Buffer.from(text), 0, text.length);
  }

  /** Writes `buf` from `offset`; `queued` is what it counts against the cap until written. */
  #send(buf: Buffer, offset: number, queued: number) {
    fsWrite(this.#fd, buf, offset, buf.length - offset, null, (err, written) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINTR') {
          // The reader is alive but behind: try again later, without blocking anything.
          setTimeout(() => this.#send(buf, offset, queued), RETRY_MS).unref();
          return;
        }
        // The reader is gone: logging stops, the service does not.
        this.#broken = true;
        this.#dropped += this.#queue.length;
        this.#queue = [];
        this.#queuedBytes = 0;
        this.#pump();
        return;
      }
      if (offset + written < buf.length) {
        this.#send(buf, offset + written, queued);
        return;
      }
      this.#queuedBytes -= queued;
      if (this.#dropped > 0 && !this.#broken) {
        const note = `${JSON.stringify({ level: 40, time: Date.now(), msg: `${this.#dropped} log lines dropped while the log output was not being read` })}\n`;
        this.#dropped = 0;
        this.#queue.unshift(note);
        this.#queuedBytes += note.length;
      }
      this.#pump();
    });
  }
}

const sinks = new Set<LogSink>();

/** The process's stdout sink, created once. */
export function stdoutSink(): LogSink {
  for (const sink of sinks) return sink;
  const sink = new LogSink(1);
  sinks.add(sink);
  return sink;
}

/** Gives queued log lines up to `timeoutMs` to be written; never longer. */
export async function drainLogs(timeoutMs: number): Promise<void> {
  await Promise.all([...sinks].map((s) => s.drain(timeoutMs)));
}
