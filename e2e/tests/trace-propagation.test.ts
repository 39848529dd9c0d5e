/**
 * Trace context from the first byte: with the Sentry SDK chunk held back for 2 s after a cold
 * load, every payload request (the viewport prefetches go out right after hydration) still
 * carries `sentry-trace` and `traceparent` in the page load's trace, and the render service's
 * transactions for them arrive at the recording upstream inside that trace.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isHydrated, launchBrowser, openPage } from '../harness/browser.js';
import { pathOf, traceOf } from '../harness/sentry-payloads.js';
import { startTelemetryStack, type TelemetryStack } from '../harness/telemetry-stack.js';

const SDK_DELAY_MS = 2000;
const SENTRY_TRACE = /^([0-9a-f]{32})-([0-9a-f]{16})-[01]$/;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

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

it('puts every payload request of a cold load in the page-load trace, before and after the SDK arrives', async () => {
  const { page } = await openPage(browser);
  const html = await (await fetch(`${stack.renderUrl}/bench/items`)).text();
  const documentScripts = new Set(
    [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]),
  );
  // Scripts the document does not load itself: the lazy SDK chunk.
  let sdkReleasedAt = Infinity;
  await page.route('**/assets/*.js', async (route) => {
    if (!documentScripts.has(new URL(route.request().url()).pathname)) {
      await new Promise((resolve) => setTimeout(resolve, SDK_DELAY_MS));
      sdkReleasedAt = Math.min(sdkReleasedAt, Date.now());
    }
    await route.continue();
  });
  const payloads: { path: string; at: number; headers: Record<string, string> }[] = [];
  page.on('request', (request) => {
    const headers = request.headers();
    if (headers['strata-payload'] === '1')
      payloads.push({ path: new URL(request.url()).pathname, at: Date.now(), headers });
  });

  await page.goto(`${stack.renderUrl}/bench/items`, { waitUntil: 'domcontentloaded' });
  await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
  await page.evaluate(
    () =>
      (window as unknown as { __strata_telemetry?: { ready: Promise<boolean> } }).__strata_telemetry
        ?.ready,
  );
  // A navigation once the SDK runs: its payload request carries the SDK's headers.
  await page.evaluate(() =>
    (
      window as unknown as { __strata_router: { navigate(to: string): void } }
    ).__strata_router.navigate('/bench/items/777'),
  );
  await page.waitForFunction(() => location.pathname === '/bench/items/777');

  const [pageload] = await stack.upstream.waitFor(
    'transaction',
    (p) => traceOf(p).op === 'pageload' && pathOf(p) === '/bench/items',
  );
  const traceId = traceOf(pageload!.payload!).trace_id;
  const early = payloads.filter((request) => request.at < sdkReleasedAt);
  expect(early.length, 'prefetches made before the SDK arrived').toBeGreaterThan(0);
  expect(payloads.length).toBeGreaterThan(early.length);

  const beforeNavigation = payloads.filter((request) => request.path !== '/bench/items/777');
  for (const request of payloads) {
    const sentryTrace = SENTRY_TRACE.exec(request.headers['sentry-trace'] ?? '');
    const traceparent = TRACEPARENT.exec(request.headers['traceparent'] ?? '');
    expect(
      sentryTrace,
      `sentry-trace on ${request.path}: ${JSON.stringify(request.headers)}`,
    ).not.toBeNull();
    expect(traceparent, `traceparent on ${request.path}`).not.toBeNull();
    expect(traceparent![1]).toBe(sentryTrace![1]);
    expect(traceparent![2]).toBe(sentryTrace![2]);
  }
  // The page load's own requests are in its trace; the navigation starts a trace of its own.
  for (const request of beforeNavigation)
    expect(SENTRY_TRACE.exec(request.headers['sentry-trace']!)![1]).toBe(traceId);

  // The render service continued each early request's trace, under the span it was sent with.
  for (const request of early) {
    const parentSpanId = SENTRY_TRACE.exec(request.headers['sentry-trace']!)![2];
    await stack.upstream.waitFor(
      'transaction',
      (p) =>
        traceOf(p).op === 'http.server' &&
        traceOf(p).trace_id === traceId &&
        traceOf(p).parent_span_id === parentSpanId,
    );
  }
  const served = stack.upstream.find(
    'transaction',
    (p) => traceOf(p).op === 'http.server' && traceOf(p).trace_id === traceId,
  );
  expect(served.length).toBeGreaterThanOrEqual(beforeNavigation.length);
  await page.close();
});
