import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startSandbox } from '../src/sandbox/sandbox.ts';
import { freePort, launchChromium } from '../test/console/browser.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { ensureConsoleBuilt } from './ensure-console.ts';
import { startWebhookInbox } from './lib/webhook-inbox.ts';

/**
 * `node scripts/console-screenshots.ts`: the screenshots in docs/console/, taken in Debian's
 * Chromium (/usr/bin/chromium) from a throwaway account on the sandbox platforms: both channels
 * connected, 60 imported history posts, three posts scheduled for the same hour tomorrow, three
 * published and measured, a brand, a webhook endpoint and a second key. One screenshot a page at
 * 1366 x 900 (the top of the page, as a visitor first sees it; the calendar and Analytics
 * taller), and Insights at 390 px. Then issue 33's flows, each at 1366 and at 390 px (`-phone`):
 * one post to two channels, a post's page with its metrics, Settings, Bulk upload and the demo's
 * webhook receiver with a test event it got (served as `npm run demo` serves it).
 * `node scripts/console-screenshots.ts analytics` takes one.
 */
const OUT = new URL('../docs/console/', import.meta.url).pathname;
const DAY = 86_400_000;
/** Names given on the command line (`analytics calendar`) take only those screenshots. */
const only = process.argv.slice(2);

async function main() {
  if (!ensureConsoleBuilt(() => {})) throw new Error('the console did not build');
  const sandbox = await startSandbox({ autoApprove: true });
  const inbox = await startWebhookInbox();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/v1/channels`;
  const t = await startTestApp({
    PORT: String(port),
    KIT_VAULT_KEY: randomBytes(32).toString('base64'),
    LLM_PROVIDER: 'heuristic',
    // As `npm run demo` runs: receivers on this machine let in, and the demo's own one offered.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    WEBHOOK_DEMO_RECEIVER_URL: inbox.url,
    ...sandbox.platformA.env(`${base}/platformA/callback`),
    ...sandbox.platformB.env(`${base}/platformB/callback`),
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, path, { key, body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const key = (await t.signup('writer@example.com')).apiKey;
  for (const platform of ['platformB', 'platformA']) {
    const { url } = await call('POST', `/v1/channels/${platform}/connect`);
    const consent = await fetch(url, { redirect: 'manual' });
    await fetch(consent.headers.get('location')!, { redirect: 'manual' });
  }
  const channels: { id: string; platform: string }[] = (await call('GET', '/v1/channels')).channels;
  const channel = (p: string) => channels.find((c) => c.platform === p)!.id;

  // Sixty past posts: Tuesday mornings (Paris) did best.
  const monday = Date.UTC(2026, 0, 5, 9);
  const items = Array.from({ length: 60 }, (_, i) =>
    i < 8
      ? {
          text: `Tuesday note ${i}: what we shipped`,
          publishedAt: monday + (i * 7 + 1) * DAY,
          reactions: 180 + i * 5,
        }
      : {
          text: `Afternoon note ${i}`,
          publishedAt: monday + i * DAY + (4 + ((i * 5) % 8)) * 3_600_000,
          reactions: 14 + (i % 12),
        },
  );
  await call('POST', '/v1/history', { items });
  const tomorrow = new Date(Date.now() + DAY);
  const at = Date.UTC(tomorrow.getUTCFullYear(), tomorrow.getUTCMonth(), tomorrow.getUTCDate(), 9);
  for (const [p, text] of [
    ['platformB', 'Release notes for 4.2: three fixes you asked for.'],
    ['platformB', 'On-call this week: what we changed in the rota.'],
    ['platformA', 'We are hiring a platform engineer. Here is the team.'],
  ] as const)
    await call('POST', '/v1/posts', { text, channelId: channel(p), runAt: at });
  let measured = '';
  for (const [i, likes] of [12, 40, 3].entries()) {
    const { post } = await call('POST', '/v1/posts', {
      text: `Deploys, week ${i + 1}: what a month of measurements showed.`,
      channelId: channel('platformB'),
    });
    const published = (await call('POST', `/v1/posts/${post.id}/publish`)).post;
    await call('POST', `/v1/posts/${post.id}/score`);
    sandbox.platformB.state.setMetrics(published.platformPostId, { like_count: likes });
    await call('POST', `/v1/posts/${post.id}/metrics/refresh`);
    // A second snapshot, so the post's page draws a line.
    sandbox.platformB.state.setMetrics(published.platformPostId, { like_count: likes * 2 });
    await call('POST', `/v1/posts/${post.id}/metrics/refresh`);
    measured ||= post.id;
  }
  await call('POST', '/v1/brands', {
    name: 'Acme Platform',
    description: 'Developer tools for small teams.',
  });
  await call('POST', '/v1/webhooks', {
    url: 'https://hooks.example.com/postkit',
    events: ['post.published'],
  });
  await call('POST', '/v1/keys', { name: 'CI publisher' });
  const receiver = (await call('POST', '/v1/webhooks', { url: inbox.url })).webhook;
  await call('POST', `/v1/webhooks/${receiver.id}/test`);

  mkdirSync(OUT, { recursive: true });
  const browser = await launchChromium();
  const shoot = async (
    route: string,
    heading: string | RegExp,
    name: string,
    width = 1366,
    height = 900,
    prepare?: (page: Page) => Promise<void>,
  ) => {
    const context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'Europe/Paris',
      viewport: { width, height },
    });
    const page = await context.newPage();
    await page.goto(t.url);
    await page.evaluate((k) => localStorage.setItem('postkit.apiKey', k), key);
    await page.goto(`${t.url}/#${route}`);
    await page.reload();
    await page
      .getByRole('heading', {
        name: heading,
        ...(typeof heading === 'string' ? { exact: true } : {}),
        level: 1,
      })
      .waitFor();
    await page.waitForFunction("document.querySelectorAll('.working').length === 0");
    if (route === '/calendar') {
      await page.getByRole('button', { name: 'Week', exact: true }).click();
      if ((await page.locator('.fc-event').count()) < 3) await page.locator('.fc-next-button').click();
    }
    if (route === '/analytics') await page.locator('.recharts-scatter-symbol').first().waitFor();
    await prepare?.(page);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${OUT}${name}.png` });
    await context.close();
    console.log(`docs/console/${name}.png`);
  };
  // The calendar taller, so the morning's posts show under its header; Analytics down to the
  // score-against-engagement chart.
  for (const [route, heading, name] of [
    ['/channels', 'Channels', 'channels'],
    ['/calendar', 'Calendar', 'calendar'],
    ['/posts', 'Posts', 'posts'],
    ['/queue', 'Queue', 'queue'],
    ['/media', 'Media library', 'media'],
    ['/analytics', 'Analytics', 'analytics'],
    ['/plan', 'Plan', 'plan'],
    ['/brands', 'Brands & voices', 'brands'],
    ['/connected-apps', 'Connected apps', 'connected-apps'],
    ['/history', 'History', 'history'],
    ['/insights', 'Insights', 'insights'],
    ['/keys', 'API keys', 'keys'],
    ['/model', 'Language model', 'model'],
    ['/authorize', 'Connect an app to Postkit', 'authorize'],
  ])
    if (only.length === 0 || only.includes(name!))
      await shoot(
        route!,
        heading!,
        name!,
        1366,
        route === '/calendar' ? 1500 : route === '/analytics' ? 2000 : 900,
      );
  if (only.length === 0 || only.includes('insights-phone'))
    await shoot('/insights', 'Insights', 'insights-phone', 390, 1400);

  // Issue 33's flows, at a desktop's width and a phone's.
  const twoChannels = async (page: Page) => {
    const select = page.getByRole('combobox', { name: /^Channel/ });
    await select.selectOption(
      (await select.locator('option', { hasText: '(platformA)' }).getAttribute('value'))!,
    );
    await page
      .getByLabel('Post', { exact: true })
      .fill(
        'We cut our nightly build from 41 minutes to 6.\n\nThe cache alone saved 22 minutes: restores take 40 seconds now.\n\nIf your build is slow, time each step before you buy bigger machines.',
      );
    await page
      .getByRole('group', { name: 'Also post to' })
      .getByRole('checkbox', { name: /\(platformB\)/ })
      .check();
    await page.getByRole('tablist', { name: 'Channels of this post' }).waitFor();
  };
  const postChart = async (page: Page) => {
    await page.locator('.recharts-surface').first().waitFor();
  };
  const receiverGot = async (page: Page) => {
    await page
      .locator('li.card', { hasText: inbox.url })
      .getByRole('button', { name: 'Send test event' })
      .click();
    await page
      .getByRole('region', { name: 'What the demo receiver got' })
      .getByRole('listitem')
      .first()
      .waitFor();
    await page.getByRole('region', { name: 'What the demo receiver got' }).scrollIntoViewIfNeeded();
  };
  const flows: [string, string | RegExp, string, ((page: Page) => Promise<void>)?][] = [
    ['/compose', 'Compose', 'compose-group', twoChannels],
    [`/post?id=${measured}`, /^Post: Deploys, week 1/, 'post-page', postChart],
    ['/settings', 'Settings', 'settings'],
    ['/bulk', 'Bulk upload', 'bulk'],
    ['/webhooks', 'Webhooks', 'webhooks', receiverGot],
  ];
  for (const [route, heading, name, prepare] of flows)
    for (const [width, suffix] of [
      [1366, ''],
      [390, '-phone'],
    ] as const)
      if (only.length === 0 || only.includes(name) || only.includes(`${name}${suffix}`))
        await shoot(route, heading, `${name}${suffix}`, width, width === 390 ? 1200 : 900, prepare);
  await browser.close();
  await t.close();
  await sandbox.close();
  await inbox.close();
}

await main();
