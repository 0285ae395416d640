import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerConsole } from '../../src/http/console.ts';

/** `npm run build:web` while the server runs: the new build is served without a restart. */
describe('console files are read at each request', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  async function serve(files: Record<string, string>) {
    const dir = mkdtempSync(join(tmpdir(), 'postkit-console-'));
    dirs.push(dir);
    const write = (more: Record<string, string>) => {
      for (const [name, body] of Object.entries(more)) {
        mkdirSync(join(dir, name, '..'), { recursive: true });
        writeFileSync(join(dir, name), body);
      }
    };
    write(files);
    const app = Fastify();
    await registerConsole(app, { dir });
    await app.ready();
    return { app, write };
  }

  it('serves assets written after start, and the new index.html', async () => {
    const { app, write } = await serve({
      'index.html': '<script src="/assets/index-aaa.js"></script>',
      'assets/index-aaa.js': 'old()',
    });
    expect((await app.inject('/assets/index-aaa.js')).body).toBe('old()');
    write({ 'index.html': '<script src="/assets/index-bbb.js"></script>', 'assets/index-bbb.js': 'new()' });
    expect((await app.inject('/')).body).toContain('index-bbb.js');
    const fresh = await app.inject('/assets/index-bbb.js');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toBe('new()');
    expect(fresh.headers['cache-control']).toContain('immutable');
    expect((await app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await app.inject('/assets/..%2Findex.html')).statusCode).toBe(404);
    expect((await app.inject('/assets/.hidden')).statusCode).toBe(404);
    await app.close();
  });

  it('says how to build when web/dist has no index.html yet, and serves it once built', async () => {
    const { app, write } = await serve({ 'assets/.keep': '' });
    expect((await app.inject('/')).body).toContain('The console is not built');
    write({ 'index.html': '<div id="root"></div>' });
    expect((await app.inject('/')).body).toContain('<div id="root">');
    await app.close();
  });
});
