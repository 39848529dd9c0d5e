/**
 * Telemetry end to end, traces and noise: Chromium against the stack with a recording upstream
 * behind the relay; transactions, trace headers and filtered noise are asserted on what the
 * upstream received.
 */
import { describe, expect, it } from 'vitest';
import { isHydrated, openPage } from '../harness/browser.js';
import { dropped, isNavigation, pathOf, traceOf, type Json } from '../harness/sentry-payloads.js';
import {
  hideToFlushClientReports,
  navigateAndSettle,
  useTelemetryStackAndBrowser,
} from '../harness/telemetry-suite.js';

const { stack, browser, thirdParty, hydratedPage } = useTelemetryStackAndBrowser();

describe('traces', () => {
  it('sends one navigation transaction whose trace holds the render and data spans', async () => {
    const page = await hydratedPage('/bench/items/1');
    await navigateAndSettle(page, '/bench/items/777');
    const [navigation] = await stack().upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/bench/items/777',
    );
    const nav = navigation!.payload!;
    expect(nav.transaction).toBe('/bench/items/:id');
    const traceId = traceOf(nav).trace_id;
    const inTrace = (p: Json) => traceOf(p).trace_id === traceId;
    // Prefetches the new page starts belong to the trace too; the page's own payload is this one.
    const [render] = await stack().upstream.waitFor(
      'transaction',
      (p) => inTrace(p) && p.transaction === 'GET /bench/items/:id',
    );
    expect(traceOf(render!.payload!).op).toBe('http.server');
    const grpcClient = ((render!.payload!.spans ?? []) as Json[]).find(
      (span) => span.op === 'grpc.client',
    );
    expect(grpcClient?.description).toBe('strata.catalog.v1.CatalogService/GetItem');
    const [data] = await stack().upstream.waitFor(
      'transaction',
      (p) => inTrace(p) && p.transaction === 'strata.catalog.v1.CatalogService/GetItem',
    );
    expect(traceOf(data!.payload!).op).toBe('grpc.server');
    expect(traceOf(data!.payload!).parent_span_id).toBe(grpcClient?.span_id);
    expect(stack().upstream.find('transaction', (p) => inTrace(p) && isNavigation(p))).toHaveLength(
      1,
    );
    await page.close();
  });

  it('reports a navigation made before the SDK arrived, and the page load by its own URL', async () => {
    const { page } = await openPage(browser());
    // Hold back the scripts the document does not load itself (the lazy SDK chunk), so the
    // navigation happens with only the facade in the page.
    const html = await (await fetch(`${stack().renderUrl}/bench/items/2`)).text();
    const documentScripts = new Set(
      [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
    );
    let releaseSdk!: () => void;
    const sdkHeld = new Promise<void>((resolve) => (releaseSdk = resolve));
    await page.route('**/assets/*.js', async (route) => {
      if (!documentScripts.has(new URL(route.request().url()).pathname)) await sdkHeld;
      await route.continue();
    });
    await page.goto(`${stack().renderUrl}/bench/items/2`, { waitUntil: 'domcontentloaded' });
    await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
    const clickedAt = await page.evaluate(() => Date.now() / 1000);
    await navigateAndSettle(page, '/bench/items/778');
    releaseSdk();
    const [navigation] = await stack().upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/bench/items/778',
    );
    const nav = navigation!.payload!;
    expect(nav.transaction).toBe('/bench/items/:id');
    // Its real times, not the SDK's arrival.
    expect(Number(nav.start_timestamp)).toBeGreaterThanOrEqual(clickedAt - 0.05);
    expect(Number(nav.timestamp)).toBeLessThan(clickedAt + 5);
    const [pageload] = await stack().upstream.waitFor(
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
      await stack().upstream.waitFor('transaction', (p) => isNavigation(p) && pathOf(p) === path);
    await hideToFlushClientReports(page);
    // The browser made both transactions and dropped them itself (its client report says so).
    await stack().upstream.waitFor('client_report', (p) => dropped(p, 'transaction') >= 2);
    const names = stack()
      .upstream.find('transaction')
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
    const before = thirdParty().requests.length;
    await page.evaluate(async (origin) => {
      await fetch(`${origin}/api/data`).then((response) => response.text());
      await new Promise((resolve) => {
        const image = new Image();
        image.addEventListener('load', resolve);
        image.addEventListener('error', resolve);
        image.src = `${origin}/pixel.gif`;
      });
    }, thirdParty().origin);
    const crossOrigin = thirdParty().requests.slice(before);
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
    }, thirdParty().origin);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await hideToFlushClientReports(page);
    const reports = await stack().upstream.waitFor(
      'client_report',
      (p) => dropped(p, 'error') >= 3,
    );
    expect(dropped(reports[0]!.payload!, 'error')).toBe(3);
    const noise = /ResizeObserver|Script error|STRATA_REDIRECT|third-party failure/;
    expect(
      stack().upstream.find('event', (p) => noise.test(JSON.stringify(p.exception ?? p.message))),
    ).toEqual([]);
    await page.close();
  });
});
