import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { withLazyRequestChildren } from '../../src/http/lazy-logger.ts';
import { RequestLinesWhenWritten } from '../../src/http/request-lines.ts';
import { createLogger, scrub } from '../../src/lib/logger.ts';

describe('log scrubbing', () => {
  it('censors secret-named fields at any depth and keeps the rest', () => {
    const out = scrub({
      headers: { Authorization: 'Bearer kit_sk_x', accept: 'json' },
      tokens: [{ accessToken: 'a', refresh_token: 'r', scope: 's' }],
      webhook: { secret: 'whsec', url: 'https://x' },
    });
    expect(out).toEqual({
      headers: { Authorization: '[redacted]', accept: 'json' },
      tokens: [{ accessToken: '[redacted]', refresh_token: '[redacted]', scope: 's' }],
      webhook: { secret: '[redacted]', url: 'https://x' },
    });
  });

  it('is applied to every line the service logger and its children write', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = createLogger('info', sink);
    log.child({ reqId: 'r1' }).info({ channel: { refreshToken: 'rt-123', id: 'chn_1' } }, 'refreshed');
    log.warn({ headers: { authorization: 'Bearer kit_sk_abc' } }, 'odd request');
    const written = lines.join('');
    expect(written).not.toContain('rt-123');
    expect(written).not.toContain('kit_sk_abc');
    expect(written).toContain('chn_1');
    expect(written).toContain('"reqId":"r1"');
  });

  it("binds each request's id to its lines and keeps a route's level (lazy request children)", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({
      loggerInstance: withLazyRequestChildren(createLogger('info', sink)),
      genReqId: () => 'req_fixed',
    });
    app.get('/said', async (request) => {
      request.log.warn({ note: 1 }, 'inside a request');
      return {};
    });
    app.get('/quiet', { logLevel: 'error' }, async (request) => {
      request.log.warn('below the route level');
      return {};
    });
    await app.inject({ url: '/said' });
    await app.inject({ url: '/quiet' });
    await app.close();
    const written = lines.join('');
    expect(written).toContain('"reqId":"req_fixed","note":1,"msg":"inside a request"');
    expect(written).not.toContain('below the route level');
  });

  it('makes no logger per request for requests that write no line', async () => {
    const root = createLogger('warn', new Writable({ write: (_c, _e, done) => done() }));
    const child = root.child.bind(root);
    let made = 0;
    // pino's children inherit from their parent, so this counts children of children too.
    root.child = ((...args: Parameters<typeof child>) => {
      made++;
      return child(...args);
    }) as typeof root.child;
    const app = Fastify({ loggerInstance: withLazyRequestChildren(root) });
    app.get('/quiet', async (request) => {
      request.log.info('below the level');
      return {};
    });
    app.get('/said', async (request) => {
      request.log.warn('at the level');
      return {};
    });
    for (let i = 0; i < 5; i++) await app.inject({ url: '/quiet' });
    expect(made).toBe(0);
    await app.inject({ url: '/said' });
    // Fastify's own child of the service logger, then the request's.
    expect(made).toBe(2);
    await app.inject({ url: '/said' });
    expect(made).toBe(3);
    await app.close();
  });

  it("follows the service logger's level as it changes, and a child's own level", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const root = createLogger('info', sink);
    const lazy = withLazyRequestChildren(root);
    const request = lazy.child({ reqId: 'r1' }).child({ reqId: 'r2' });
    request.info('first');
    root.level = 'warn';
    request.info('hidden');
    expect((request as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled('info')).toBe(false);
    request.warn('second');
    const errorsOnly = lazy.child({ reqId: 'r3' }, { level: 'error' });
    errorsOnly.warn('below its own level');
    errorsOnly.error('third');
    const written = lines.join('');
    expect(written).toContain('"msg":"first"');
    expect(written).not.toContain('hidden');
    expect(written).toContain('"msg":"second"');
    expect(written).not.toContain('below its own level');
    expect(written).toContain('"msg":"third"');
  });

  it("writes Fastify's request lines when info is on, and builds none when it is off", async () => {
    for (const level of ['info', 'warn']) {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const app = Fastify({
        loggerInstance: withLazyRequestChildren(createLogger(level, sink)),
        logController: new RequestLinesWhenWritten(),
        genReqId: () => 'req_lines',
      });
      app.get('/ok', async () => ({}));
      await app.inject({ url: '/ok' });
      await app.close();
      const written = lines.join('');
      if (level === 'info') {
        expect(written).toContain('"reqId":"req_lines","req":{"method":"GET","url":"/ok"');
        expect(written).toContain('"msg":"incoming request"');
        expect(written).toContain('"reqId":"req_lines","responseTime":');
        expect(written).toContain('"res":{"statusCode":200},"msg":"request completed"');
      } else expect(written).toBe('');
    }
  });
});
