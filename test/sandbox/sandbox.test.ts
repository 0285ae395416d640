import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.ts';
import { mp4Bytes, pngBytes } from '../platforms/helpers.ts';

/** The emulator itself, over raw HTTP: it must refuse what the live platform refuses. */

let sandbox: Sandbox;
let token: string;
let author: string;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, platformA: { videoPartSize: 1000 } });
  const issued = sandbox.platformA.state.issueToken();
  token = issued.accessToken;
  author = `urn:li:person:${issued.sub}`;
});
afterEach(async () => {
  await sandbox.close();
});

const REST = () => ({
  authorization: `Bearer ${token}`,
  'linkedin-version': '202510',
  'x-restli-protocol-version': '2.0.0',
  'content-type': 'application/json',
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = REST()) {
  const res = await fetch(sandbox.url + path, {
    method,
    headers,
    body:
      body === undefined
        ? undefined
        : typeof body === 'string' || Buffer.isBuffer(body)
          ? body
          : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text?.startsWith('{') ? JSON.parse(text) : null,
  };
}

const postBody = (over: Record<string, unknown> = {}) => ({
  author,
  commentary: 'Hello',
  visibility: 'PUBLIC',
  distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
  lifecycleState: 'PUBLISHED',
  isReshareDisabledByAuthor: false,
  ...over,
});

async function uploadImage(bytes: Buffer) {
  const init = await call('POST', '/rest/images?action=initializeUpload', {
    initializeUploadRequest: { owner: author },
  });
  expect(init.status).toBe(200);
  const put = await fetch(init.json.value.uploadUrl, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}` },
    body: bytes,
  });
  expect(put.status).toBe(201);
  return init.json.value.image as string;
}

describe('sandbox: posts', () => {
  it('creates a post: 201, empty body, x-restli-id', async () => {
    const res = await call('POST', '/rest/posts', postBody());
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(res.headers.get('x-restli-id')).toMatch(/^urn:li:share:\d+$/);
  });

  it('refuses unescaped little text, unknown fields, a wrong author, bad shapes', async () => {
    const cut = await call('POST', '/rest/posts', postBody({ commentary: 'Hi (there)' }));
    expect(cut.status).toBe(422);
    expect(cut.json.message).toContain("unescaped '('");
    expect((await call('POST', '/rest/posts', postBody({ commentary: 'a \\q' }))).status).toBe(422);
    expect((await call('POST', '/rest/posts', postBody({ commentary: 'x'.repeat(3001) }))).status).toBe(422);
    expect((await call('POST', '/rest/posts', postBody({ commentary: 'x'.repeat(3000) }))).status).toBe(201);
    expect((await call('POST', '/rest/posts', postBody({ extra: 1 }))).json.message).toContain(
      'Unpermitted fields',
    );
    expect((await call('POST', '/rest/posts', postBody({ visibility: 'EVERYONE' }))).status).toBe(422);
    expect(
      (await call('POST', '/rest/posts', postBody({ distribution: { feedDistribution: 'MAIN_FEED' } })))
        .status,
    ).toBe(422);
    const other = await call('POST', '/rest/posts', postBody({ author: 'urn:li:person:someone-else' }));
    expect(other.status).toBe(403);
    expect(other.json.code).toBe('ACCESS_DENIED');
    expect((await call('POST', '/rest/posts', '{not json')).status).toBe(400);
    expect(sandbox.platformA.state.posts.size).toBe(1);
  });

  it('requires the version and protocol headers', async () => {
    const { 'linkedin-version': _, ...noVersion } = REST();
    const missing = await call('POST', '/rest/posts', postBody(), noVersion);
    expect(missing.status).toBe(426);
    expect(missing.json.code).toBe('VERSION_MISSING');
    const future = await call('POST', '/rest/posts', postBody(), { ...REST(), 'linkedin-version': '209912' });
    expect(future.json.code).toBe('NONEXISTENT_VERSION');
    const { 'x-restli-protocol-version': __, ...noProtocol } = REST();
    expect((await call('POST', '/rest/posts', postBody(), noProtocol)).status).toBe(400);
  });

  it('checks referenced media: exists, owned, available, right kind and count', async () => {
    const image = await uploadImage(pngBytes());
    expect((await call('POST', '/rest/posts', postBody({ content: { media: { id: image } } }))).status).toBe(
      201,
    );
    const missing = await call(
      'POST',
      '/rest/posts',
      postBody({ content: { media: { id: 'urn:li:image:nope' } } }),
    );
    expect(missing.status).toBe(422);
    // Bytes that are not an image fail processing, like on the platform.
    const junk = await uploadImage(Buffer.from('definitely not an image'));
    expect(sandbox.platformA.state.assets.get(junk)!.status).toBe('PROCESSING_FAILED');
    expect(
      (await call('POST', '/rest/posts', postBody({ content: { media: { id: junk } } }))).json.message,
    ).toContain('not available');
    const single = await call(
      'POST',
      '/rest/posts',
      postBody({ content: { multiImage: { images: [{ id: image }] } } }),
    );
    expect(single.status).toBe(422);
    const two = await call(
      'POST',
      '/rest/posts',
      postBody({ content: { multiImage: { images: [{ id: image }, { id: image }] } } }),
    );
    expect(two.status).toBe(201);
    expect(two.headers.get('x-restli-id')).toMatch(/^urn:li:ugcPost:/);
    const both = await call('POST', '/rest/posts', postBody({ content: { media: { id: image }, poll: {} } }));
    expect(both.status).toBe(422);
    // Another member cannot use this member's image.
    const stranger = sandbox.platformA.state.issueToken({ sub: sandbox.platformA.state.addMember().sub });
    const theft = await call(
      'POST',
      '/rest/posts',
      postBody({ author: `urn:li:person:${stranger.sub}`, content: { media: { id: image } } }),
      { ...REST(), authorization: `Bearer ${stranger.accessToken}` },
    );
    expect(theft.json.message).toContain('another owner');
  });

  it('deletes a post (204) and hides it from the author finder', async () => {
    const created = await call('POST', '/rest/posts', postBody({ commentary: 'to delete' }));
    const urn = created.headers.get('x-restli-id')!;
    const listed = await call('GET', `/rest/posts?author=${encodeURIComponent(author)}&q=author`);
    expect(listed.json.elements.map((e: { id: string }) => e.id)).toEqual([urn]);
    expect((await call('DELETE', `/rest/posts/${encodeURIComponent(urn)}`)).status).toBe(204);
    expect((await call('DELETE', `/rest/posts/${encodeURIComponent(urn)}`)).status).toBe(404);
    expect(
      (await call('GET', `/rest/posts?author=${encodeURIComponent(author)}&q=author`)).json.elements,
    ).toEqual([]);
  });
});

describe('sandbox: uploads', () => {
  it('video: parts must have their exact size; finalize needs every ETag in order', async () => {
    const init = await call('POST', '/rest/videos?action=initializeUpload', {
      initializeUploadRequest: {
        owner: author,
        fileSizeBytes: 1500,
        uploadCaptions: false,
        uploadThumbnail: false,
      },
    });
    const { video, uploadToken, uploadInstructions } = init.json.value;
    expect(
      uploadInstructions.map((i: { firstByte: number; lastByte: number }) => [i.firstByte, i.lastByte]),
    ).toEqual([
      [0, 999],
      [1000, 1499],
    ]);
    const bytes = mp4Bytes(1500);
    const wrong = await fetch(uploadInstructions[0].uploadUrl, {
      method: 'PUT',
      body: bytes.subarray(0, 10),
    });
    expect(wrong.status).toBe(400);
    const etags: string[] = [];
    for (const [i, part] of uploadInstructions.entries()) {
      const res = await fetch(part.uploadUrl, {
        method: 'PUT',
        body: bytes.subarray(i * 1000, part.lastByte + 1),
      });
      expect(res.status).toBe(200);
      etags.push(res.headers.get('etag')!);
    }
    const finalize = (ids: string[]) =>
      call('POST', '/rest/videos?action=finalizeUpload', {
        finalizeUploadRequest: { video, uploadToken, uploadedPartIds: ids },
      });
    expect((await finalize([...etags].reverse())).status).toBe(400);
    expect((await finalize(etags)).status).toBe(200);
    const status = () => call('GET', `/rest/videos/${encodeURIComponent(video)}`).then((r) => r.json.status);
    expect(await status()).toBe('PROCESSING');
    expect(await status()).toBe('AVAILABLE');
  });

  it('image uploads need the owner token', async () => {
    const init = await call('POST', '/rest/images?action=initializeUpload', {
      initializeUploadRequest: { owner: author },
    });
    const anonymous = await fetch(init.json.value.uploadUrl, { method: 'PUT', body: pngBytes() });
    expect(anonymous.status).toBe(401);
    const other = await call('POST', '/rest/images?action=initializeUpload', {
      initializeUploadRequest: { owner: 'urn:li:person:someone-else' },
    });
    expect(other.status).toBe(403);
  });
});

describe('sandbox: analytics', () => {
  it('needs the Rest.li entity with an url-encoded URN and answers empty elements for no data', async () => {
    const urn = (await call('POST', '/rest/posts', postBody())).headers.get('x-restli-id')!;
    sandbox.platformA.state.setMetrics(urn, { IMPRESSION: 12, LINK_CLICKS: null });
    const url = (entity: string, type = 'IMPRESSION') =>
      `/rest/memberCreatorPostAnalytics?q=entity&entity=${entity}&queryType=${type}&aggregation=TOTAL`;
    const good = await call('GET', url(`(share:${encodeURIComponent(urn)})`));
    expect(good.json.elements[0].count).toBe(12);
    expect(
      (await call('GET', url(`(share:${encodeURIComponent(urn)})`, 'LINK_CLICKS'))).json.elements,
    ).toEqual([]);
    expect((await call('GET', url(`(share:${urn})`))).status).toBe(400);
    expect((await call('GET', url(`(ugc:${encodeURIComponent(urn)})`))).status).toBe(400);
    expect((await call('GET', url(`(share:${encodeURIComponent(urn)})`, 'LIKES'))).status).toBe(400);
  });
});

describe('sandbox: fault controls over HTTP and the index page', () => {
  const admin = (path: string, body: unknown = {}) =>
    fetch(`${sandbox.url}/_sandbox/platformA/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('injects failures, revokes tokens, sets metrics and resets', async () => {
    expect((await admin('faults', { route: 'createPost', status: 503, times: 2 })).status).toBe(200);
    expect((await call('POST', '/rest/posts', postBody())).status).toBe(503);
    expect((await call('POST', '/rest/posts', postBody())).status).toBe(503);
    expect((await call('POST', '/rest/posts', postBody())).status).toBe(201);

    expect((await admin('faults', { route: 'nope', status: 500 })).status).toBe(400);
    expect((await admin('faults', { route: 'createPost', status: 200 })).status).toBe(400);

    await admin('duplicates');
    expect((await call('POST', '/rest/posts', postBody())).json.code).toBe('DUPLICATE_POST');

    await admin('faults', { route: '*', status: 429, always: true });
    expect((await call('GET', '/v2/userinfo')).status).toBe(429);
    await admin('reset');
    expect((await call('GET', '/v2/userinfo')).status).toBe(200);

    await admin('versions/retire', { version: '202510' });
    expect((await call('GET', '/v2/userinfo')).status).toBe(200);
    expect((await call('POST', '/rest/posts', postBody())).status).toBe(426);
    await admin('reset');

    const urn = (await call('POST', '/rest/posts', postBody({ commentary: 'metrics' }))).headers.get(
      'x-restli-id',
    )!;
    expect((await admin('metrics', { post: urn, counts: { REACTION: 4, COMMENT: null } })).status).toBe(200);
    expect(sandbox.platformA.state.posts.get(urn)!.metrics.REACTION).toBe(4);
    expect((await admin('metrics', { post: urn, counts: { LIKES: 1 } })).status).toBe(400);

    expect(await (await admin('tokens/revoke', { accessToken: token })).json()).toEqual({ revoked: 1 });
    const revoked = await call('GET', '/v2/userinfo');
    expect(revoked.status).toBe(401);
    expect(revoked.json).toMatchObject({ code: 'REVOKED_ACCESS_TOKEN', serviceErrorCode: 65601 });
  });

  it('expires tokens and drops connections on request', async () => {
    await admin('tokens/expire', { accessToken: token });
    expect((await call('GET', '/v2/userinfo')).json).toMatchObject({
      code: 'EXPIRED_ACCESS_TOKEN',
      serviceErrorCode: 65602,
    });
    await admin('faults', { route: 'userinfo', drop: true });
    await expect(fetch(`${sandbox.url}/v2/userinfo`)).rejects.toThrow();
  });

  it('lists published posts on / (HTML-escaped) and reports state as JSON', async () => {
    await call('POST', '/rest/posts', postBody({ commentary: 'Look \\<b\\>here\\</b\\> #sandbox' }));
    const page = await fetch(`${sandbox.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    const refreshTag = '<meta http-equiv="refresh" content="5">';
    const html = await page.text();
    expect(html).toContain('Look &lt;b&gt;here&lt;/b&gt; #sandbox');
    expect(html).not.toContain('<b>here');
    expect(html.indexOf(refreshTag)).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain(refreshTag);
    const state = (await (await fetch(`${sandbox.url}/_sandbox/platformA/state`)).json()) as {
      posts: { text: string }[];
    };
    expect(state.posts[0]!.text).toBe('Look <b>here</b> #sandbox');
    expect(JSON.stringify(state)).not.toContain(token);
  });

  it('still answers the admin paths without the platformA/ prefix that docs/sandbox.md gave first', async () => {
    const old = (path: string, body: unknown = {}) =>
      fetch(`${sandbox.url}/_sandbox/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await old('faults', { route: 'createPost', status: 503 })).status).toBe(200);
    expect((await call('POST', '/rest/posts', postBody())).status).toBe(503);
    await call('POST', '/rest/posts', postBody({ commentary: 'after the fault' }));
    const before = (await (await fetch(`${sandbox.url}/_sandbox/state`)).json()) as { posts: unknown[] };
    const after = (await (await fetch(`${sandbox.url}/_sandbox/platformA/state`)).json()) as {
      posts: unknown[];
    };
    expect(before).toEqual(after);
    expect(after.posts).toHaveLength(1);
    expect((await old('reset')).status).toBe(200);
    // platformB's controls are only under their own prefix: the old root never meant them.
    expect((await old('rate-limit')).status).toBe(404);
  });
});
