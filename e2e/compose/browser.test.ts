/**
 * Debian's Chromium against the whole topology, through the gateway only: the first load
 * streams, client navigation, a server action (validation errors, then success), the account
 * area's full document load, and assets cached for a year.
 */
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHydrated, launchBrowser, openPage } from '../harness/browser.js';
import { startComposeStack, type ComposeStack } from './compose-stack.js';
import { startRecorder, type Recorder } from './recorder.js';

const DSN = 'http://strata0browser0key@127.0.0.1:8080/3';

let stack: ComposeStack;
let browser: Browser;
let recorder: Recorder;

beforeAll(async () => {
  recorder = await startRecorder();
  stack = await startComposeStack('browser', {
    env: { RELAY_DSNS: DSN, RELAY_UPSTREAM: recorder.upstreamForContainers },
    overrides: ['e2e/compose/relay-upstream.override.yml'],
  });
  browser = await launchBrowser();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await stack?.down();
  await recorder?.close();
}, 120_000);

/**
 * The Sentry browser SDK as one script (the render bundle does not ship it yet), exposing
 * `window.Sentry`.
 */
async function sentryBrowserBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import * as Sentry from '@sentry/browser'; globalThis.Sentry = Sentry;",
      resolveDir: new URL('.', import.meta.url).pathname,
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

const routerReady = (page: Page) =>
  page.waitForFunction(
    () => (window as unknown as { __strata_router?: unknown }).__strata_router !== undefined,
  );
const setMarker = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: string }).marker);

describe('through the gateway, in a browser', () => {
  it('first load of /slow: the loading view paints before the slow data, then it hydrates', async () => {
    const { page, problems } = await openPage(browser);
    // When each part first appears, on the page's own clock: the test's clock would also count
    // how late a busy machine lets the test process notice each one.
    await page.addInitScript(() => {
      const seen: Record<string, number> = {};
      (window as unknown as { seenAt: Record<string, number> }).seenAt = seen;
      new MutationObserver(() => {
        for (const selector of ['p.loading', 'p.headline']) {
          if (!(selector in seen) && document.querySelector(selector))
            seen[selector] = performance.now();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${stack.url}/slow`, { waitUntil: 'commit' });
    // The loading view is not waited for here: on a loaded machine the test may look only after
    // the data has replaced it. The observer records it either way.
    await page.waitForSelector('p.headline', { timeout: 10_000 });
    await page.waitForSelector('ul.more', { timeout: 10_000 });
    const seenAt = await page.evaluate(
      () => (window as unknown as { seenAt: Record<string, number> }).seenAt,
    );
    // Streaming is proved by the gap: the data comes >= 700 ms after the loading view.
    expect(seenAt['p.headline']! - seenAt['p.loading']!).toBeGreaterThan(700);
    // And the shell is prompt: its first byte, by the browser's own navigation timing (which
    // leaves out a cold Chromium's start-up: 1.1-1.6 s on a loaded 2-core box running the whole
    // stack), comes well before the slow segment's data.
    const firstByteAt = await page.evaluate(
      () =>
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
          ?.responseStart ?? Number.NaN,
    );
    expect(firstByteAt).toBeLessThan(600); // half the slow segment's 1,200 ms
    await page.waitForFunction(() =>
      Object.keys(document).some((key) => key.startsWith('__reactContainer$')),
    );
    expect(await isHydrated(page)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('navigates on the client: same document, payload requests only', async () => {
    const { page, problems } = await openPage(browser);
    const payloads: string[] = [];
    page.on('request', (request) => {
      if (request.headers()['strata-payload'] === '1')
        payloads.push(new URL(request.url()).pathname);
    });
    await page.goto(`${stack.url}/bench/items/1`);
    await routerReady(page);
    await setMarker(page);
    await page.click('a[href="/bench/items"]:has-text("Back to items")');
    await page.waitForSelector('h1:has-text("Items")');
    expect(page.url()).toBe(`${stack.url}/bench/items`);
    expect(await marker(page)).toBe('same document');
    expect(payloads).toContain('/bench/items');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('server action: validation messages first, then the item is created', async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${stack.url}/items/new`);
    await routerReady(page);
    const title = `Gateway item ${Date.now()}`;
    await page.fill('form.item-form input[name="title"]', title);
    await page.fill('form.item-form input[name="price"]', 'free');
    await page.click('form.item-form button[type="submit"]');
    await page.waitForSelector('.field-error:has-text("Enter a price like 12.99")');
    expect(page.url()).toBe(`${stack.url}/items/new`);
    await page.fill('form.item-form input[name="price"]', '19.99');
    await page.click('form.item-form button[type="submit"]');
    await page.waitForURL(/\/items\/\d+$/);
    await page.waitForSelector(`h1:has-text("${title}")`);
    expect(await page.textContent('body')).toContain('$19.99');
    // The other replica serves the new item too (data service and cache are shared).
    const id = new URL(page.url()).pathname.split('/').at(-1);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => fetch(`${stack.url}/api/items/${id}`).then((r) => r.json())),
    );
    expect(answers.map((item: { title?: string }) => item.title)).toEqual(Array(4).fill(title));
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses a server action posted from another origin', async () => {
    const response = await fetch(`${stack.url}/items/new`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: 'http://evil.example',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'title=x&price=1&categoryId=cat-1',
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it('loads the account area (another root layout) as a full document', async () => {
    const { page, problems } = await openPage(browser);
    await page.context().addCookies([{ name: 'strata_user', value: 'Ada', url: stack.url }]);
    await page.goto(`${stack.url}/items/4`);
    await routerReady(page);
    await setMarker(page);
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(href: string): void } }
      ).__strata_router.navigate('/account'),
    );
    await page.waitForSelector('body.account');
    expect(await marker(page)).toBeUndefined();
    expect(await page.textContent('p.greeting')).toBe('Signed in as Ada');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('serves the hashed client bundle through the gateway, compressed and immutable', async () => {
    const html = await (await fetch(`${stack.url}/bench/items`)).text();
    const script = /src="(\/assets\/client-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${stack.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
  });

  it('a browser error reaches the recording upstream through /monitoring (Sentry SDK tunnel)', async () => {
    const { page } = await openPage(browser);
    await page.goto(`${stack.url}/errors/client`);
    await routerReady(page);
    await page.addScriptTag({ content: await sentryBrowserBundle() });
    const message = `compose browser error ${Date.now()}`;
    const tunnelled = page.waitForResponse(
      (response) => response.url() === `${stack.url}/monitoring`,
    );
    await page.evaluate(
      ({ dsn, text }) => {
        const sentry = (globalThis as unknown as { Sentry: { init(options: object): void } })
          .Sentry;
        sentry.init({ dsn, tunnel: '/monitoring', sampleRate: 1 });
        setTimeout(() => {
          throw new Error(text);
        });
      },
      { dsn: DSN, text: message },
    );
    expect((await tunnelled).status()).toBe(200);
    await recorder.waitFor((requests) =>
      requests.some((r) => r.status === 200 && r.body.includes(message)),
    );
    const forwarded = recorder.requests.find((r) => r.body.includes(message))!;
    expect(forwarded.url).toMatch(/^\/api\/3\/envelope\/\?.*sentry_key=strata0browser0key/);
    await page.close();
  });
});
