/**
 * Telemetry end to end: Chromium against the stack with a recording upstream behind
 * the relay. Errors, transactions and traces are asserted on what the upstream received.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainFailure } from '../harness/explain-failure.js';
import { isHydrated, launchBrowser, openPage } from '../harness/browser.js';
import {
  dropped,
  exceptionValue,
  isNavigation,
  pathOf,
  sdkOf,
  tagsOf,
  traceOf,
  type Json,
} from '../harness/sentry-payloads.js';
import { startTelemetryStack, type TelemetryStack } from '../harness/telemetry-stack.js';
import { startThirdParty, type ThirdPartyOrigin } from '../harness/third-party-origin.js';
import { watchTunnel } from '../harness/tunnel-log.js';

let stack: TelemetryStack;
let browser: Browser;
let thirdParty: ThirdPartyOrigin;
/** Each watched page's tunnel record, shown when a report from it does not arrive. */
const tunnelLogs = new WeakMap<Page, () => string>();

beforeAll(async () => {
  thirdParty = await startThirdParty();
  // The page's policy lets it reach the other origin, as an application calling one would.
  stack = await startTelemetryStack({
    CSP_CONNECT_SRC: thirdParty.origin,
    CSP_IMG_SRC: thirdParty.origin,
  });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => thirdParty?.server.close(resolve));
});

/** The digest the page shows, and the render service's and the browser's reports carrying it. */
async function reportsOfShownDigest(page: Page) {
  const digest = /Digest: ([0-9a-f]{10})/.exec((await page.textContent('body')) ?? '')?.[1];
  expect(digest).toMatch(/^[0-9a-f]{10}$/);
  const withDigest = (payload: Json) => tagsOf(payload).digest === digest;
  const [fromServer] = await stack.upstream.waitFor(
    'event',
    (p) => withDigest(p) && sdkOf(p).includes('node'),
  );
  const [fromBrowser] = await explainFailure(
    stack.upstream.waitFor('event', (p) => withDigest(p) && sdkOf(p).includes('browser')),
    () => tunnelLogs.get(page)?.() ?? "the page's tunnel requests were not watched",
  );
  return { withDigest, fromServer: fromServer!, fromBrowser: fromBrowser! };
}

/** A hydrated page whose Sentry SDK chunk has loaded (its fetches carry trace headers). */
async function hydratedPage(path: string): Promise<Page> {
  const { page } = await openPage(browser);
  tunnelLogs.set(page, watchTunnel(page));
  await page.goto(`${stack.renderUrl}${path}`);
  await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
  await page.evaluate(
    () =>
      (window as unknown as { __strata_telemetry?: { ready: Promise<boolean> } }).__strata_telemetry
        ?.ready,
  );
  return page;
}

describe('errors', () => {
  it('reports a server error a segment shows in its error view, once from each side, in the navigation trace', async () => {
    const page = await hydratedPage('/items');
    await navigateAndSettle(page, '/errors/segment');
    await expect.poll(() => page.textContent('body')).toContain('Something went wrong');
    const { withDigest, fromServer, fromBrowser } = await reportsOfShownDigest(page);
    const traceId = traceOf(fromServer.payload!).trace_id;
    expect(tagsOf(fromBrowser.payload!).trace_id).toBe(traceId);
    const [navigation] = await stack.upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/errors/segment',
    );
    expect(traceOf(navigation!.payload!).trace_id).toBe(traceId);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      stack.upstream.find('event', (p) => withDigest(p) && sdkOf(p).includes('browser')),
    ).toHaveLength(1);
    await page.close();
  });

  it('reports a thrown client error once, with the client-side screen shown', async () => {
    const page = await hydratedPage('/errors/client');
    await page.getByRole('button').click();
    await expect
      .poll(() => page.textContent('body'))
      .toContain('a client-side exception has occurred');
    const matches = (payload: Json) =>
      exceptionValue(payload).includes('Deliberate client failure');
    await stack.upstream.waitFor('event', matches);
    // Give a duplicate time to arrive (it must not).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const events = stack.upstream.find('event', matches);
    expect(events).toHaveLength(1);
    expect(tagsOf(events[0]!.payload!)['error.side']).toBe('client');
    await page.close();
  });

  it('keeps a report whose send failed on the network and sends it again, once', async () => {
    const page = await hydratedPage('/errors/client');
    // The first envelope holding an event fails on the way, as when the network changes under
    // the request (Chromium's ERR_NETWORK_CHANGED) or the device goes offline.
    let failedOnce = false;
    await page.route('**/monitoring', async (route) => {
      if (!failedOnce && route.request().postData()?.includes('{"type":"event"')) {
        failedOnce = true;
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    const matches = (payload: Json) =>
      exceptionValue(payload).includes('Deliberate client failure');
    const before = stack.upstream.find('event', matches).length;
    await page.getByRole('button').click();
    await expect
      .poll(() => page.textContent('body'))
      .toContain('a client-side exception has occurred');
    await explainFailure(
      stack.upstream.waitFor('event', matches, before + 1),
      () => tunnelLogs.get(page)?.() ?? "the page's tunnel requests were not watched",
    );
    expect(failedOnce).toBe(true);
    // Give a duplicate time to arrive (it must not).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(stack.upstream.find('event', matches)).toHaveLength(before + 1);
    await page.close();
  });

  it('reports a server error from the browser and the render service with the same digest and trace', async () => {
    const { page } = await openPage(browser);
    tunnelLogs.set(page, watchTunnel(page));
    const response = await page.goto(`${stack.renderUrl}/errors/server`);
    expect(response?.status()).toBe(500);
    const { fromServer, fromBrowser } = await reportsOfShownDigest(page);
    const serverTrace = traceOf(fromServer.payload!).trace_id;
    expect(serverTrace).toMatch(/^[0-9a-f]{32}$/);
    expect(tagsOf(fromBrowser.payload!).trace_id).toBe(serverTrace);
    expect(traceOf(fromBrowser.payload!).trace_id).toBe(serverTrace);
    expect(tagsOf(fromServer.payload!).trace_id).toBe(serverTrace);
    await page.close();
  });
});

type RouterWindow = Window & {
  __strata_router: { navigate(href: string): void; getSnapshot(): { pending: boolean } };
};

async function navigateAndSettle(page: Page, ...hrefs: string[]): Promise<void> {
  await page.evaluate((targets) => {
    for (const href of targets) (window as unknown as RouterWindow).__strata_router.navigate(href);
  }, hrefs);
  const last = hrefs.at(-1)!;
  await page.waitForFunction(
    (path) =>
      location.pathname === path &&
      !(window as unknown as RouterWindow).__strata_router.getSnapshot().pending,
    last,
  );
}

// Hiding the page makes the browser SDK send its client report.
async function hideToFlushClientReports(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

describe('traces', () => {
  it('sends one navigation transaction whose trace holds the render and data spans', async () => {
    const page = await hydratedPage('/bench/items/1');
    await navigateAndSettle(page, '/bench/items/777');
    const [navigation] = await stack.upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/bench/items/777',
    );
    const nav = navigation!.payload!;
    expect(nav.transaction).toBe('/bench/items/:id');
    const traceId = traceOf(nav).trace_id;
    const inTrace = (p: Json) => traceOf(p).trace_id === traceId;
    // Prefetches the new page starts belong to the trace too; the page's own payload is this one.
    const [render] = await stack.upstream.waitFor(
      'transaction',
      (p) => inTrace(p) && p.transaction === 'GET /bench/items/:id',
    );
    expect(traceOf(render!.payload!).op).toBe('http.server');
    const grpcClient = ((render!.payload!.spans ?? []) as Json[]).find(
      (span) => span.op === 'grpc.client',
    );
    expect(grpcClient?.description).toBe('strata.catalog.v1.CatalogService/GetItem');
    const [data] = await stack.upstream.waitFor(
      'transaction',
      (p) => inTrace(p) && p.transaction === 'strata.catalog.v1.CatalogService/GetItem',
    );
    expect(traceOf(data!.payload!).op).toBe('grpc.server');
    expect(traceOf(data!.payload!).parent_span_id).toBe(grpcClient?.span_id);
    expect(stack.upstream.find('transaction', (p) => inTrace(p) && isNavigation(p))).toHaveLength(
      1,
    );
    await page.close();
  });

  it('reports a navigation made before the SDK arrived, and the page load by its own URL', async () => {
    const { page } = await openPage(browser);
    // Hold back the scripts the document does not load itself (the lazy SDK chunk), so the
    // navigation happens with only the facade in the page.
    const html = await (await fetch(`${stack.renderUrl}/bench/items/2`)).text();
    const documentScripts = new Set(
      [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
    );
    let releaseSdk!: () => void;
    const sdkHeld = new Promise<void>((resolve) => (releaseSdk = resolve));
    await page.route('**/assets/*.js', async (route) => {
      if (!documentScripts.has(new URL(route.request().url()).pathname)) await sdkHeld;
      await route.continue();
    });
    await page.goto(`${stack.renderUrl}/bench/items/2`, { waitUntil: 'domcontentloaded' });
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    const clickedAt = await page.evaluate(() => Date.now() / 1000);
    await navigateAndSettle(page, '/bench/items/778');
    releaseSdk();
    const [navigation] = await stack.upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/bench/items/778',
    );
    const nav = navigation!.payload!;
    expect(nav.transaction).toBe('/bench/items/:id');
    // Its real times, not the SDK's arrival.
    expect(Number(nav.start_timestamp)).toBeGreaterThanOrEqual(clickedAt - 0.05);
    expect(Number(nav.timestamp)).toBeLessThan(clickedAt + 5);
    const [pageload] = await stack.upstream.waitFor(
      'transaction',
      (p) => traceOf(p).op === 'pageload' && pathOf(p) === '/bench/items/2',
    );
    expect(pageload!.payload!.transaction).toBe('/bench/items/:id');
    await page.close();
  });

  it('never sends an overtaken navigation or a /404 transaction', async () => {
    // /items shares its root layout with the not-found page, so /no/such/page is a soft navigation.
    const page = await hydratedPage('/items');
    await navigateAndSettle(page, '/slow', '/items/3');
    await navigateAndSettle(page, '/no/such/page');
    await navigateAndSettle(page, '/items');
    // The navigations around the unsent ones arrive, so the unsent ones had their chance.
    for (const path of ['/items/3', '/items'])
      await stack.upstream.waitFor('transaction', (p) => isNavigation(p) && pathOf(p) === path);
    await hideToFlushClientReports(page);
    // The browser made both transactions and dropped them itself (its client report says so).
    await stack.upstream.waitFor('client_report', (p) => dropped(p, 'transaction') >= 2);
    const names = stack.upstream
      .find('transaction')
      .map((item) => String(item.payload!.transaction));
    expect(names.filter((name) => /(^|\s)\/404$/.test(name))).toEqual([]);
    expect(names).not.toContain('/slow');
    await page.close();
  });

  it('puts trace headers on same-origin payload requests and never on cross-origin ones', async () => {
    const page = await hydratedPage('/bench/items/6');
    const sent: { url: string; headers: Record<string, string> }[] = [];
    page.on('request', (request) => sent.push({ url: request.url(), headers: request.headers() }));
    await navigateAndSettle(page, '/bench/items/7');
    const payloads = sent.filter((request) => request.headers['strata-payload'] === '1');
    expect(payloads.length).toBeGreaterThan(0);
    for (const request of payloads) {
      expect(request.headers['sentry-trace']).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}(-[01])?$/);
      expect(request.headers['baggage']).toContain('sentry-trace_id=');
      expect(request.headers['baggage']!.length).toBeLessThanOrEqual(8192);
    }
    const before = thirdParty.requests.length;
    await page.evaluate(async (origin) => {
      await fetch(`${origin}/api/data`).then((response) => response.text());
      await new Promise((resolve) => {
        const image = new Image();
        image.addEventListener('load', resolve);
        image.addEventListener('error', resolve);
        image.src = `${origin}/pixel.gif`;
      });
    }, thirdParty.origin);
    const crossOrigin = thirdParty.requests.slice(before);
    expect(crossOrigin).toHaveLength(2);
    for (const headers of crossOrigin) {
      expect(headers['sentry-trace']).toBeUndefined();
      expect(headers['baggage']).toBeUndefined();
    }
    await page.close();
  });
});

describe('noise', () => {
  it('counts noise errors raised in the page as filtered and forwards none of them', async () => {
    const page = await hydratedPage('/bench/items/8');
    await page.evaluate((origin) => {
      setTimeout(() => {
        throw new Error('ResizeObserver loop completed with undelivered notifications.');
      });
      setTimeout(() => {
        throw new Error('STRATA_REDIRECT;/bench/items');
      });
      // A cross-origin script that throws: the browser only says "Script error."
      const script = document.createElement('script');
      script.src = `${origin}/throw.js`;
      document.body.append(script);
    }, thirdParty.origin);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await hideToFlushClientReports(page);
    const reports = await stack.upstream.waitFor('client_report', (p) => dropped(p, 'error') >= 3);
    expect(dropped(reports[0]!.payload!, 'error')).toBe(3);
    const noise = /ResizeObserver|Script error|STRATA_REDIRECT|third-party failure/;
    expect(
      stack.upstream.find('event', (p) => noise.test(JSON.stringify(p.exception ?? p.message))),
    ).toEqual([]);
    await page.close();
  });
});
