import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

export const SCREENSHOTS = new URL('./.screenshots/', import.meta.url).pathname;

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A new page of `browser` (en-US, 1280 x 900), signed in to the console at `url` with `key` and opened at `route`
 * (a hash route such as `/posts?status=canceled`) once `heading` shows. Errors the page throws
 * are pushed to `errors`.
 */
export async function openSignedIn(
  browser: Browser,
  opts: {
    url: string;
    key: string;
    route: string;
    heading: string;
    errors: string[];
    /** An IANA zone for the browser's clock (default: the machine's). */
    timezoneId?: string;
    viewport?: { width: number; height: number };
  },
): Promise<Page> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: opts.viewport ?? { width: 1280, height: 900 },
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => opts.errors.push(err.message));
  page.setDefaultTimeout(15_000);
  await page.goto(opts.url);
  await page.evaluate((k) => localStorage.setItem('postkit.apiKey', k), opts.key);
  // A hash change alone keeps the signed-out state the page started with: reload.
  await page.goto(`${opts.url}/#${opts.route}`);
  await page.reload();
  await page.getByRole('heading', { name: opts.heading }).waitFor();
  return page;
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
}

/** A loopback port that was free a moment ago (the app's callback address must name it up front). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Controls (inputs, selects, textareas, buttons, links) on the page with no accessible name. */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page
    .locator('input:not([type=hidden]):not([hidden]), select, textarea, button, a[href]')
    .evaluateAll((els) =>
      els
        .filter((el) => {
          const e = el as typeof el & { labels?: ArrayLike<unknown> | null; title?: string };
          if (e.getAttribute('aria-label')?.trim()) return false;
          if (e.getAttribute('aria-labelledby')) return false;
          if (e.labels && e.labels.length > 0) return false;
          if (e.title?.trim()) return false;
          if ((el.tagName === 'BUTTON' || el.tagName === 'A') && el.textContent?.trim()) return false;
          return true;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
}

/** A real (small) PNG: a bar chart on white, so media previews show something. */
export function chartPng(width = 240, height = 160): Buffer {
  const rows: Buffer[] = [];
  const bars = [0.35, 0.55, 0.45, 0.8, 0.95];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3, 255);
    for (let x = 0; x < width; x++) {
      const bar = Math.floor((x / width) * bars.length);
      const inBar = x % (width / bars.length) > 8 && height - y < bars[bar]! * height;
      if (inBar) row.set([37, 99, 235], 1 + x * 3);
    }
    row[0] = 0;
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
