import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

/** `npm run sandbox` runs src/sandbox/main.ts; start it the same way on a free port. */
let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  child = null;
});

describe('sandbox command', () => {
  it('starts, prints the variables that point Postkit at it, and serves the index page', async () => {
    child = spawn(
      './node_modules/.bin/node',
      ['src/sandbox/main.ts', '--port', '0', '--postkit-url', 'http://127.0.0.1:8181'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('npm start')) resolve();
      });
      child!.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const base = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!;
    expect(out).toContain('PLATFORMA_CLIENT_ID=sandbox-client');
    expect(out).toContain('PLATFORMA_CLIENT_SECRET=sandbox-secret');
    expect(out).toContain('PLATFORMA_REDIRECT_URI=http://127.0.0.1:8181/v1/channels/platformA/callback');
    expect(out).toContain(`PLATFORMA_AUTH_URL=${base}/oauth/v2`);
    expect(out).toContain(`PLATFORMA_API_URL=${base}`);
    expect(out).toContain('PLATFORMB_CLIENT_ID=sandbox-b-client');
    expect(out).toContain('PLATFORMB_REDIRECT_URI=http://127.0.0.1:8181/v1/channels/platformB/callback');
    expect(out).toContain(`PLATFORMB_AUTH_URL=${base}/i/oauth2`);
    expect(out).toContain(`PLATFORMB_TOKEN_URL=${base}/2/oauth2/token`);
    expect(out).toContain(`PLATFORMB_API_URL=${base}`);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('platformA posts');
    expect(html).toContain('platformB posts');
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
