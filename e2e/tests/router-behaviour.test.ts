/**
 * The browser router's specified behaviour, observed in Chromium against the real services:
 * the 5-request prefetch cap, Save-Data, entry aging on the page clock, the 3800 ms fallback,
 * server actions that drop only the entries they revalidated, and both error screens.
 */
import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '../harness/browser.js';
import { useStackAndBrowser } from '../harness/suite.js';

const suite = useStackAndBrowser();

const isPayload = (request: Request) => request.headers()['strata-payload'] === '1';
const isPrefetch = (request: Request) =>
  isPayload(request) && request.headers()['strata-prefetch'] !== undefined;
const routerReady = (page: Page) =>
  page.waitForFunction(
    () => (window as unknown as { __strata_router?: unknown }).__strata_router !== undefined,
  );
const setMarker = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marker: string }).marker = 'kept'));
const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: string }).marker);

describe('prefetching', () => {
  it('keeps at most 5 prefetch requests in flight on a page with many links', async () => {
    const { page } = await openPage(suite.browser());
    let inFlight = 0;
    let peak = 0;
    let total = 0;
    await page.route('**/*', async (route: Route) => {
      if (!isPrefetch(route.request())) return route.continue();
      inFlight += 1;
      total += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
      inFlight -= 1;
    });
    await page.goto(`${suite.stack().renderUrl}/bench/items`);
    await routerReady(page);
    await page.waitForTimeout(2500);
    expect(total).toBeGreaterThan(5);
    expect(peak).toBe(5);
    await page.close();
  });

  it('does not prefetch with Save-Data on, nor on hover', async () => {
    const context = await suite.browser().newContext();
    await context.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', {
        value: { saveData: true, effectiveType: '4g' },
      }),
    );
    const page = await context.newPage();
    const prefetches: Request[] = [];
    page.on('request', (request) => isPrefetch(request) && prefetches.push(request));
    await page.goto(`${suite.stack().renderUrl}/bench/items`);
    await routerReady(page);
    await page.hover('a[href="/bench/items/2"]');
    await page.waitForTimeout(800);
    expect(prefetches).toEqual([]);
    await context.close();
  });

  it(`
      prefetch at 0 s ── click at 10 s: fresh entry reused (no request)
      prefetch at 0 s ── click at 40 s: stale auto entry, page fetched again (by hover or click)
    `, async () => {
    for (const [waitSeconds, expectRequest] of [
      [10, false],
      [40, true],
    ] as const) {
      const { page } = await openPage(suite.browser());
      await page.clock.install();
      const prefetched = page.waitForRequest(
        (r) => isPrefetch(r) && new URL(r.url()).pathname === '/bench/items',
      );
      await page.goto(`${suite.stack().renderUrl}/bench/items/1`);
      await routerReady(page);
      await prefetched;
      await page.waitForTimeout(300);
      await page.clock.fastForward(waitSeconds * 1000);
      const refetches: Request[] = [];
      page.on(
        'request',
        (r) => isPayload(r) && new URL(r.url()).pathname === '/bench/items' && refetches.push(r),
      );
      await page.click('a:has-text("Back to items")');
      await page.waitForSelector('h1:has-text("Items")');
      expect(refetches.length > 0).toBe(expectRequest);
      await page.close();
    }
  });
});

describe('navigation fallbacks', () => {
  it('loads the target as a document when its page takes longer than 3800 ms', async () => {
    const { page } = await openPage(suite.browser());
    // Slow every payload for the target before the list page loads: the list prefetches its
    // visible links, and a prefetch answered in time would make the navigation instant.
    await page.route('**/bench/items/5?*', async (route: Route) => {
      if (!isPayload(route.request())) return route.continue();
      await new Promise((resolve) => setTimeout(resolve, 6000));
      return route.continue().catch(() => undefined);
    });
    await page.goto(`${suite.stack().renderUrl}/bench/items`);
    await routerReady(page);
    await setMarker(page);
    const started = Date.now();
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate('/bench/items/5'),
    );
    await page.waitForSelector('h1:has-text("Item 5")', { timeout: 15_000 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3700);
    expect(elapsed).toBeLessThan(6000);
    expect(await marker(page)).toBeUndefined();
    await page.close();
  });
});

describe('server actions from the browser', () => {
  it('apply the refreshed page without a reload and drop only the revalidated cache entries', async () => {
    const { page, problems } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}/items/12`);
    await routerReady(page);
    await setMarker(page);
    // Warm two entries: one the edit makes stale (tag "items"), one it does not touch
    // (the home page, tag "categories").
    await page.evaluate(() => {
      const router = (
        window as unknown as { __strata_router: { prefetch(h: string, k: string): void } }
      ).__strata_router;
      router.prefetch('/items', 'full');
      router.prefetch('/', 'full');
    });
    await page.waitForTimeout(500);
    await page.fill('form.item-form input[name="price"]', '42.00');
    await page.click('form.item-form button[type="submit"]');
    await page.waitForSelector('p.price:has-text("$42.00")');
    expect(await marker(page)).toBe('kept');
    const fetched: string[] = [];
    page.on('request', (r) => isPayload(r) && fetched.push(new URL(r.url()).pathname));
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate('/'),
    );
    await page.waitForSelector('h1:has-text("Catalogue")');
    expect(fetched.filter((path) => path === '/')).toEqual([]);
    expect(await marker(page)).toBe('kept');
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate('/items'),
    );
    await page.waitForSelector('h1:has-text("Items")');
    expect(fetched).toContain('/items');
    expect(await marker(page)).toBe('kept');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('show validation messages from the server next to the fields', async () => {
    const { page } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}/items/13`);
    await routerReady(page);
    await page.fill('form.item-form input[name="price"]', 'free');
    await page.click('form.item-form button[type="submit"]');
    await page.waitForSelector('.field-error:has-text("Enter a price like 12.99")');
    expect(page.url()).toBe(`${suite.stack().renderUrl}/items/13`);
    await page.close();
  });
});

describe('error screens', () => {
  it('shows the client-side text when rendering fails in the browser', async () => {
    const { page } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}/errors/client`);
    await routerReady(page);
    await page.click('button.break');
    await page.waitForSelector('#__strata_client_error');
    expect(await page.textContent('#__strata_client_error')).toContain(
      'Application error: a client-side exception has occurred (see the browser console for more information).',
    );
    await page.close();
  });

  it('keeps the page on screen when a hovered link’s page fails as it renders ahead, and fails on the click', async () => {
    const { page } = await openPage(suite.browser());
    const prefetched = page.waitForResponse(
      (r) => isPrefetch(r.request()) && new URL(r.url()).pathname === '/errors/render',
    );
    await page.goto(`${suite.stack().renderUrl}/errors/client`);
    await routerReady(page);
    await (await prefetched).finished();
    await page.hover('a[href="/errors/render"]');
    await page.waitForFunction(
      () =>
        (
          window as unknown as { __strata_router: { getSnapshot(): { speculation: unknown } } }
        ).__strata_router.getSnapshot().speculation !== null,
    );
    await page.waitForTimeout(300);
    expect(await page.locator('#__strata_client_error').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe('Client error drill');

    await page.click('a[href="/errors/render"]');
    await page.waitForSelector('#__strata_client_error');
    expect(await page.textContent('#__strata_client_error')).toContain(
      'Application error: a client-side exception has occurred',
    );
    await page.close();
  });

  it('shows the server-side text and digest when a page’s data fails on the server', async () => {
    const { page } = await openPage(suite.browser());
    await page.goto(`${suite.stack().renderUrl}/`);
    await routerReady(page);
    await page.evaluate(() =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate('/errors/server'),
    );
    await page.waitForSelector('text=Application error: a server-side exception has occurred');
    expect(await page.textContent('body')).toMatch(/Digest: [0-9a-f]{10}/);
    const document = await fetch(`${suite.stack().renderUrl}/errors/server`);
    expect(document.status).toBe(500);
    expect(await document.text()).toContain(
      'Application error: a server-side exception has occurred (see the server logs for more information).',
    );
    await page.close();
  });
});
