import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { freshDatabase } from '../helpers/app.ts';

const NODE = join(process.cwd(), 'node_modules', '.bin', 'node');

function run(env: Record<string, string>) {
  const child = spawn(NODE, ['src/main.ts'], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

describe('configuration', () => {
  it('names each bad variable', () => {
    expect(() => parseConfig({ PORT: 'eighty', KIT_ROLE: 'boss', KIT_VAULT_KEY: 'short' })).toThrow(
      ConfigError,
    );
    try {
      parseConfig({ PORT: 'eighty', KIT_ROLE: 'boss', KIT_VAULT_KEY: 'short', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      const vars = (err as ConfigError).issues.map((i) => i.variable).sort();
      expect(vars).toEqual(['DATABASE_URL', 'KIT_ROLE', 'KIT_VAULT_KEY', 'PORT']);
    }
  });

  it('applies the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      PORT: 8080,
      HOST: '127.0.0.1',
      DATA_DIR: './data',
      KIT_ROLE: 'all',
      LLM_PROVIDER: 'heuristic',
      SWEEP_INTERVAL_MS: 60000,
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_ALLOW_LOOPBACK: false,
      RATE_LIMIT_REQUESTS_PER_MIN: 600,
      RATE_LIMIT_MODEL_PER_MIN: 30,
      RATE_LIMIT_SIGNUPS_PER_HOUR: 10,
      FREE_PLAN_MODEL_QUOTA: 200,
      MEDIA_MAX_IMAGE_MB: 10,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.REDIS_URL).toBeUndefined();
  });

  it('stops startup with a message naming the variable', async () => {
    const p = run({ PORT: 'not-a-port' });
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain('PORT');
  }, 60_000);
});

describe('process lifecycle', () => {
  it('starts on the embedded defaults under DATA_DIR, keeps data across restarts, and drains on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'postkit-'));
    try {
      const first = run({ PORT: '0', DATA_DIR: dataDir });
      const url = await waitForUrl(first);
      const signup = await fetch(`${url}/v1/account`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'persist@example.com' }),
      });
      expect(signup.status).toBe(201);
      const { apiKey } = (await signup.json()) as { apiKey: string };
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);

      const second = run({ PORT: '0', DATA_DIR: dataDir });
      const url2 = await waitForUrl(second);
      const me = await fetch(`${url2}/v1/account`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(me.status).toBe(200);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.runIf(Boolean(process.env.DATABASE_URL))(
    'migrates once when several processes start together',
    async () => {
      const db = await freshDatabase();
      try {
        const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ url: db!.url, poolMax: 2 })));
        for (const d of opened) await d.ping();
        await Promise.all(opened.map((d) => d.close()));
      } finally {
        await db!.drop();
      }
    },
  );
});

async function waitForUrl(p: ReturnType<typeof run>): Promise<string> {
  for (let i = 0; i < 1200; i++) {
    const match = /"url":"(http:\/\/[^"]+)"/.exec(p.out());
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`service did not start: ${p.err()} ${p.out()}`);
}
