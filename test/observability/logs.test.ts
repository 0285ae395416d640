import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.ts';
import { startTestApp } from '../helpers/app.ts';

/** A destination that keeps every line written to it. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('request logs', () => {
  it('writes no line for a health probe, and the usual lines for other requests', async () => {
    const out = capture();
    const t = await startTestApp({ LOG_LEVEL: 'info' }, { log: createLogger('info', out.stream) });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await t.request('GET', '/healthz')).status).toBe(200);
        expect((await t.request('GET', '/v1/health')).status).toBe(200);
      }
      expect((await t.request('GET', '/v1/meta')).status).toBe(200);
      await new Promise((r) => setImmediate(r));
      const requestLines = out.lines.filter((l) => l.includes('"req"') || l.includes('request completed'));
      // The probes' neighbour is logged (so the capture works) ...
      expect(requestLines.some((l) => l.includes('/v1/meta'))).toBe(true);
      // ... and the probes are not, neither the incoming nor the completed line.
      expect(out.lines.filter((l) => l.includes('/healthz') || l.includes('/v1/health'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('log format', () => {
  it('writes JSON lines unless told to be pretty', () => {
    const out = capture();
    createLogger('info', out.stream).info({ postId: 'pst_1' }, 'publish finished');
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ level: 30, msg: 'publish finished', postId: 'pst_1' });
  });

  it('pretty: one readable line per entry, secrets still censored', () => {
    const out = capture();
    const log = createLogger('info', out.stream, 'pretty');
    log.info({ postId: 'pst_1', nested: { a: [1, 2] } }, 'publish finished');
    log.child({ reqId: 'r1' }).warn({ accessToken: 'tok-secret' }, 'odd');
    expect(out.lines).toHaveLength(2);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: publish finished \{.*"postId":"pst_1"/);
    expect(out.lines[1]).toMatch(/WARN: odd/);
    expect(out.lines[1]).toContain('"reqId":"r1"');
    expect(out.lines.join('\n')).not.toContain('tok-secret');
    expect(() => JSON.parse(out.lines[0]!)).toThrow();
  });
});
