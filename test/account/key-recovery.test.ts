import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * `npm run key:issue -- --email x`, run as an operator would: the script against the service's
 * database, the service stopped in between (the embedded database takes one process at a time).
 */
const run = promisify(execFile);
let env: Record<string, string>;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const server = await freshDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'postkit-key-issue-'));
  env = server ? { DATABASE_URL: server.url, DATA_DIR: dir } : { DATA_DIR: dir, DATABASE_URL: '' };
  cleanup = async () => {
    await server?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(async () => {
  await cleanup?.();
});

/** The script's exit code and output; a non-zero exit is an answer here, not a failure. */
async function issue(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['scripts/issue-key.ts', ...args], {
      env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs `work` with the service up on the shared database, then stops it (the database stays). */
async function withService<T>(work: (t: TestApp) => Promise<T>): Promise<T> {
  const t = await startTestApp(env);
  try {
    return await work(t);
  } finally {
    await t.close();
  }
}

describe('npm run key:issue', () => {
  it('issues a working key for a lost one, says what to do with it, and leaves the other keys alone', async () => {
    const email = 'Lost.Key@example.com';
    const first = await withService(async (t) => {
      const signup = await t.signup(email);
      // Signing up again with the same address says what to do instead.
      const again = await t.request('POST', '/v1/account', { body: { email: email.toLowerCase() } });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('email_taken');
      expect(again.body.error.message).toMatch(/npm run key:issue -- --email/);
      return signup;
    });
    const out = await issue('--email', 'lost.key@EXAMPLE.com');
    expect(out.code, out.stderr).toBe(0);
    const key = out.stdout.match(/kit_sk_\w+/)?.[0];
    expect(key).toBeDefined();
    expect(out.stdout).toMatch(/It is shown only now/);
    expect(out.stdout).toContain(first.accountId);
    await withService(async (t) => {
      const who = await t.request('GET', '/v1/account', { key });
      expect(who.status, who.text).toBe(200);
      expect(who.body.account.id).toBe(first.accountId);
      expect(who.body.key.scopes).toEqual(['read', 'write', 'publish']);
      // The first key still works too.
      expect((await t.request('GET', '/v1/account', { key: first.apiKey })).status).toBe(200);
    });
  });

  it('issues nothing for an unknown email, and refuses a call without one', async () => {
    const unknown = await issue('--email', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/No account has a member with the email nobody@example.com/);
    const missing = await issue();
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Usage: npm run key:issue -- --email/);
  });
});
