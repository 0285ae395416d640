import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIdOf } from '../../src/http/openapi-document.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/*
 * The OpenAPI document passes a standard linter (issue 37 item 6): Redocly's CLI with its
 * recommended rules, run offline on the document the service serves. Any error fails, and so
 * does an operation without an operationId (a warning in those rules), since generated clients
 * in other languages name their methods from it.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

let t: TestApp;
let doc: Record<string, any>;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.request('GET', '/v1/openapi.json')).body;
});
afterAll(async () => {
  await t?.close();
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
    ([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        key: `${method.toUpperCase()} ${path}`,
        id: op.operationId,
      })),
  );

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}

describe('the OpenAPI document', () => {
  it('passes redocly lint with the recommended rules: no error, no operation without an operationId', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'postkit-openapi-')), 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const cli = join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
    const lint = await run(
      join(ROOT, 'node_modules/.bin/node'),
      [cli, 'lint', file, '--extends', 'recommended', '--format', 'json', '--max-problems', '1000'],
      {
        cwd: ROOT,
        // Offline: no usage report, no update check.
        env: {
          PATH: process.env.PATH ?? '',
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string; stderr?: string }) => ({
      stdout: err.stdout ?? '',
      stderr: err.stderr ?? '',
    }));
    const json = lint.stdout.slice(lint.stdout.indexOf('{'));
    const { problems } = JSON.parse(json) as { problems: Problem[] };
    const failing = problems.filter(
      (p) => p.severity === 'error' || p.ruleId.startsWith('operation-operationId'),
    );
    expect(
      failing.map((p) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? '?'}`),
      lint.stderr,
    ).toEqual([]);
    // The warnings the recommended rules give are fixed too; a new one is reported here.
    expect(problems.map((p) => `${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}`)).toEqual([]);
  }, 120_000);

  it('names every operation once, in camelCase, with servers and a license', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(50);
    for (const op of ops) expect(op.id, op.key).toMatch(/^[a-z][a-zA-Z0-9]+$/);
    const ids = ops.map((o) => o.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    // The transport's 405s are not REST operations.
    expect(doc.paths['/mcp'].get).toBeUndefined();
    expect(doc.paths['/mcp'].delete).toBeUndefined();
  });

  it('derives the names from the method and path, so they stay as routes are added', () => {
    const named = Object.fromEntries(operations().map((o) => [o.key, o.id]));
    expect(named).toMatchObject({
      'GET /v1/posts': 'listPosts',
      'POST /v1/posts': 'createPost',
      'GET /v1/posts/{id}': 'getPost',
      'PATCH /v1/posts/{id}': 'updatePost',
      'DELETE /v1/posts/{id}': 'deletePost',
      'POST /v1/posts/{id}/schedule': 'schedulePost',
      'POST /v1/posts/bulk-schedule': 'bulkSchedulePosts',
      'POST /v1/score': 'scorePost',
      'POST /v1/members/{id}/keys': 'createMemberKey',
      'DELETE /v1/history': 'clearHistory',
      'GET /v1/webhooks/{id}/deliveries': 'listWebhookDeliveries',
    });
    expect(operationIdOf('GET', '/v1/post-groups/:id')).toBe('getPostGroup');
    expect(operationIdOf('POST', '/v1/invitations/{id}/accept')).toBe('acceptInvitation');
    expect(operationIdOf('GET', '/v1/account/settings')).toBe('getAccountSettings');
  });

  it('keeps only the components an operation reaches', () => {
    const text = JSON.stringify(doc.paths);
    const schemas = doc.components.schemas as Record<string, unknown>;
    const reached = new Set<string>();
    const visit = (s: string) => {
      for (const [, name] of s.matchAll(/#\/components\/schemas\/([\w.-]+)/g))
        if (!reached.has(name!)) {
          reached.add(name!);
          visit(JSON.stringify(schemas[name!] ?? {}));
        }
    };
    visit(text);
    expect(Object.keys(schemas).filter((name) => !reached.has(name))).toEqual([]);
    expect(Object.keys(schemas)).toContain('Post');
  });
});
