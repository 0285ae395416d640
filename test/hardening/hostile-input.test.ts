import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rpc } from '../mcp/helpers.ts';

/**
 * Hostile input from outside (issue 14): text PostgreSQL cannot store, requests that fail before
 * routing, JSON under the wrong content type, and malformed JSON-RPC. Every answer is a 4xx in
 * the API's error envelope; nothing is a 500 and nothing is stored altered.
 */
let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = (await t.signup()).apiKey;
});
afterAll(async () => {
  await t?.close();
});

/** The envelope every error answer uses. */
function expectEnvelope(body: any, code: string) {
  expect(body, JSON.stringify(body)).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(body.statusCode).toBeUndefined();
}

/** Sends raw bytes on a socket and returns what came back (the server closes after an error). */
function rawExchange(port: number, bytes: string): Promise<{ status: number; body: any; raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let raw = '';
    socket.on('data', (d) => (raw += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
      const text = raw.slice(raw.indexOf('\r\n\r\n') + 4);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      resolve({ status, body, raw });
    });
  });
}

describe('text PostgreSQL cannot store', () => {
  const cases: [string, string][] = [
    ['NUL', 'Launch day\u0000'],
    ['a lone high surrogate', 'Launch \ud800 day'],
    ['a lone low surrogate', '\udc00'],
  ];

  it.each(cases)('refuses %s in a body field with 400 naming the field', async (_label, bad) => {
    const res = await t.request('POST', '/v1/brands', { key, body: { name: 'Acme', themes: ['ok', bad] } });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 'invalid_request');
    expect(res.body.error.details).toEqual([{ path: 'themes[1]', message: expect.any(String) }]);
    const list = await t.request('GET', '/v1/brands', { key });
    expect(list.body.brands).toEqual([]);
  });

  it('refuses NUL in an object key and in a nested field', async () => {
    const res = await t.request('POST', '/v1/posts', {
      key,
      raw: '{"text":"hello","x\\u0000y":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('x\\u0000y');
  });

  it('refuses NUL in a path parameter and in a query parameter', async () => {
    const path = await t.request('GET', '/v1/posts/pst_%00', { key });
    expect(path.status).toBe(400);
    expectEnvelope(path.body, 'invalid_request');
    expect(path.body.error.details).toEqual([{ path: 'params.id', message: expect.any(String) }]);
    const query = await t.request('POST', '/v1/media?brandId=brd_%00', {
      key,
      raw: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      headers: { 'content-type': 'image/png' },
    });
    expect(query.status).toBe(400);
    expect(query.body.error.details).toEqual([{ path: 'querystring.brandId', message: expect.any(String) }]);
  });

  it('stores bidi controls and other valid Unicode exactly as sent', async () => {
    const name = 'Acme \u202eevil\u202c \u200b \ufffe 😀';
    const res = await t.request('POST', '/v1/brands', { key, body: { name, themes: [] } });
    expect(res.status).toBe(201);
    expect(res.body.brand.name).toBe(name);
  });

  it('refuses the same text in MCP tool arguments as a tool error naming the argument', async () => {
    const res = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_post', arguments: { text: 'hi \ud800' } },
      },
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBe(true);
    const body = JSON.parse(res.body.result.content[1].text);
    expectEnvelope(body, 'invalid_request');
    expect(body.error.details).toEqual([{ path: 'text', message: expect.any(String) }]);
    const getById = await rpc(
      t.url,
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_post', arguments: { id: 'pst_\u0000' } },
      },
      { authorization: `Bearer ${key}` },
    );
    expect(JSON.parse(getById.body.result.content[1].text).error.details[0].path).toBe('id');
  });
});

describe('errors raised before routing use the envelope', () => {
  const port = () => Number(new URL(t.url).port);

  it('a URL that cannot be decoded is 400 invalid_request with a request id', async () => {
    const res = await t.request('GET', '/v1/posts/%ZZ', { key });
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 'invalid_request');
    expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('an id longer than any the API issues is 414 in the envelope', async () => {
    const res = await t.request('GET', `/v1/posts/${'a'.repeat(10_000)}`, { key });
    expect(res.status).toBe(414);
    expectEnvelope(res.body, 'uri_too_long');
  });

  it('headers over the limit are 431 in the envelope', async () => {
    const res = await rawExchange(
      port(),
      `GET /v1/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expectEnvelope(res.body, 'headers_too_large');
  });

  it('a malformed chunked body is 400 in the envelope', async () => {
    const res = await rawExchange(
      port(),
      'POST /v1/brands HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expectEnvelope(res.body, 'invalid_request');
  });

  it('an unknown route is 404 in the envelope', async () => {
    const res = await t.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expectEnvelope(res.body, 'not_found');
  });
});

describe('content types', () => {
  it('JSON sent as text/plain is 415 naming application/json', async () => {
    const res = await t.request('POST', '/v1/brands', {
      key,
      raw: JSON.stringify({ name: 'Acme', themes: [] }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expectEnvelope(res.body, 'unsupported_media_type');
    expect(res.body.error.message).toMatch(/application\/json/);
  });

  it('XML is 415 too', async () => {
    const res = await t.request('POST', '/v1/brands', {
      key,
      raw: '<brand/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expectEnvelope(res.body, 'unsupported_media_type');
  });

  it('a DELETE without a body is not refused for its content type', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        `${t.url}/v1/brands/brd_missing`,
        { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' } },
        (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res).toBe(404);
  });
});

describe('malformed JSON-RPC on /mcp reads like the REST errors', () => {
  const auth = () => ({ authorization: `Bearer ${key}` });

  it('initialize with empty params is a JSON-RPC invalid-params error naming the fields', async () => {
    const res = await rpc(t.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, auth());
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.id).toBe(1);
    expect(res.body.error.message).toMatch(/protocolVersion/);
    expect(res.body.error.message).not.toMatch(/"code"|invalid_type|\[\s*\{/);
    expect(res.body.error.data).toMatchObject({
      code: 'invalid_request',
      details: expect.arrayContaining([{ path: 'params.protocolVersion', message: expect.any(String) }]),
    });
  });

  it('an empty batch is a JSON-RPC invalid-request error, not an empty 202', async () => {
    const res = await rpc(t.url, [], auth());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(res.body.error.message).toMatch(/empty/i);
  });
});
