/**
 * The render service's Content-Security-Policy in Chromium, with telemetry on: pages hydrate,
 * stream, load the telemetry SDK chunk, prefetch, navigate client-side and run a server action
 * with no violation at all, and a script the page did not write itself is refused.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isHydrated, launchBrowser, openPage, type WatchedPage } from '../harness/browser.js';
import { isNavigation, pathOf } from '../harness/sentry-payloads.js';
import { startTelemetryStack, type TelemetryStack } from '../harness/telemetry-stack.js';

let stack: TelemetryStack;
let browser: Browser;
beforeAll(async () => {
  stack = await startTelemetryStack();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Violation {
  readonly directive: string;
  readonly blocked: string;
  readonly sample: string;
}

/** A page that records every CSP violation of every document it shows. */
async function watchedPage(): Promise<WatchedPage & { violations: Violation[] }> {
  const watched = await openPage(browser);
  const violations: Violation[] = [];
  await watched.page.exposeFunction('__recordViolation', (violation: Violation) =>
    violations.push(violation),
  );
  await watched.page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { __recordViolation(v: Violation): void }).__recordViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      }),
    ),
  );
  return { ...watched, violations };
}

async function hydrated(page: Page, path: string): Promise<void> {
  const response = await page.goto(`${stack.renderUrl}${path}`);
  expect(response?.headers()['content-security-policy']).toMatch(
    /script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/,
  );
  await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
}

/** Waits for the telemetry SDK chunk; true when it loaded and started. */
function telemetryReady(page: Page): Promise<boolean | undefined> {
  return page.evaluate(
    () =>
      (window as unknown as { __strata_telemetry?: { ready: Promise<boolean> } }).__strata_telemetry
        ?.ready,
  );
}

describe('Content-Security-Policy in the browser', () => {
  it('lets the runtime do everything it does with no violation', async () => {
    const { page, problems, violations } = await watchedPage();
    // A document sent whole (one pass), then a streamed one with deferred data.
    await hydrated(page, '/');
    expect(await telemetryReady(page)).toBe(true);
    const prefetched = page.waitForResponse((r) => !!r.request().headers()['strata-prefetch']);
    await hydrated(page, '/items/12');
    expect(await telemetryReady(page)).toBe(true);
    await (await prefetched).finished();
    await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'kept'));

    // A server action from the browser, applied in place.
    await page.fill('form.item-form input[name="price"]', '43.00');
    await page.click('form.item-form button[type="submit"]');
    await page.waitForSelector('p.price:has-text("$43.00")');

    // Intent prefetch, then a client navigation that commits it.
    await page.hover('nav a[href="/items"]');
    await page.click('nav a[href="/items"]');
    await page.waitForSelector('h1:has-text("Items")');
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
      'kept',
    );
    // The SDK posted the navigation through the same-origin tunnel.
    await stack.upstream.waitFor('transaction', (p) => isNavigation(p) && pathOf(p) === '/items');

    // A streamed document: React's own scripts reveal the content behind the loading view.
    await page.goto(`${stack.renderUrl}/slow`, { waitUntil: 'commit' });
    await page.waitForSelector('p.headline', { timeout: 10_000 });
    await page.waitForSelector('ul.more', { timeout: 10_000 });
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    expect(await telemetryReady(page)).toBe(true);

    await page.waitForTimeout(300);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps forms without JavaScript working: the referrer policy still sends their Origin', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${stack.renderUrl}/items/14`);
    await page.fill('form.item-form input[name="price"]', '44.00');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.click('form.item-form button[type="submit"]'),
    ]);
    expect(answer.request().headers()['origin']).toBe(stack.renderUrl);
    expect(answer.status()).toBe(303);
    await page.waitForSelector('p.price:has-text("$44.00")');
    await context.close();
  });

  it('refuses scripts injected into the HTML without this response’s nonce', async () => {
    const { page, violations } = await watchedPage();
    // An earlier response's nonce, as an attacker who loaded the page themselves would know it.
    const earlier = await fetch(`${stack.renderUrl}/bench/items/1`);
    const stale = nonceIn(earlier.headers.get('content-security-policy'));
    // Markup injected into the document on its way to the browser (a stored injection).
    const served: string[] = [];
    await page.route(`${stack.renderUrl}/bench/items/1`, async (route) => {
      const response = await route.fetch();
      const current = nonceIn(response.headers()['content-security-policy']);
      served.push(current);
      const injected =
        '<script>window.__injected = "ran"</script>' +
        `<script nonce="${stale}">window.__stale = "ran"</script>` +
        '<img src="/no-such-image.png" onerror="window.__handler = \'ran\'">' +
        `<script nonce="${current}">window.__current = "ran"</script>`;
      const body = (await response.text()).replace('</body>', `${injected}</body>`);
      await route.fulfill({ response, body });
    });
    await page.goto(`${stack.renderUrl}/bench/items/1`);
    await expect
      .poll(() => violations.map((v) => v.directive).sort())
      .toEqual(['script-src-attr', 'script-src-elem', 'script-src-elem']);
    expect(violations.every((v) => v.blocked === 'inline')).toBe(true);
    const ran = await page.evaluate(() => {
      const flags = window as unknown as Record<string, string | undefined>;
      return {
        injected: flags['__injected'],
        stale: flags['__stale'],
        handler: flags['__handler'],
        current: flags['__current'],
        // Browsers hide a header policy's nonce from the attribute (and from CSS selectors).
        attribute: document.querySelector('script[nonce]')?.getAttribute('nonce'),
      };
    });
    expect(served).toHaveLength(1);
    expect(served[0]).not.toBe(stale);
    expect(ran).toEqual({
      injected: undefined,
      stale: undefined,
      handler: undefined,
      current: 'ran',
      attribute: '',
    });
    await page.close();
  });
});

function nonceIn(policy: string | null | undefined): string {
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? '')?.[1];
  if (!nonce) throw new Error(`no nonce in ${policy}`);
  return nonce;
}
