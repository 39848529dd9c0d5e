/**
 * Traces to any OpenTelemetry backend: with RELAY_OTLP_TRACES_URL, a real browser's page load
 * arrives at an OTLP/HTTP endpoint as one trace spanning the browser (its `pageload`), the
 * render service (the `http.server` span that rendered the document, the browser's parent) and
 * the data service (a `grpc.server` span under one of render's spans).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isHydrated, launchBrowser, openPage } from '../harness/browser.js';
import { startRecordingOtlp, type RecordingOtlp } from '../harness/recording-otlp.js';
import { startTelemetryStack, type TelemetryStack } from '../harness/telemetry-stack.js';
import { until } from '../harness/until.js';

let collector: RecordingOtlp;
let stack: TelemetryStack;
let browser: Browser;

beforeAll(async () => {
  collector = await startRecordingOtlp();
  stack = await startTelemetryStack({}, { RELAY_OTLP_TRACES_URL: collector.url });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await collector?.close();
});

it('receives a page load as one trace from browser through render to data', async () => {
  const { page } = await openPage(browser);
  await page.goto(`${stack.renderUrl}/bench/items`, { waitUntil: 'domcontentloaded' });
  await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);

  // The browser sends its page load once the page has settled.
  const pageload = await until(
    'the browser’s pageload span at the collector',
    async () =>
      collector.spans.find((span) => span.service === 'browser' && span.op === 'pageload'),
    30_000,
  );
  const inTrace = () => collector.spans.filter((span) => span.traceId === pageload.traceId);

  const render = () => inTrace().filter((span) => span.service === 'render');
  const dataServer = () =>
    inTrace().filter((span) => span.service === 'data' && span.op === 'grpc.server');
  // Each service sends its own transactions, in whatever order they end.
  await until(
    'render’s document span and a data grpc.server span under a render span in that trace',
    async () => {
      const renderIds = new Set(render().map((span) => span.spanId));
      const complete =
        renderIds.has(pageload.parentSpanId ?? '') &&
        dataServer().some((span) => renderIds.has(span.parentSpanId ?? ''));
      return complete || undefined;
    },
    15_000,
  );

  const documentSpan = render().find((span) => span.spanId === pageload.parentSpanId);
  expect(documentSpan?.op, 'the browser continues the span that rendered its document').toBe(
    'http.server',
  );
  expect(documentSpan?.kind).toBe(2); // SERVER
  const renderSpanIds = new Set(render().map((span) => span.spanId));
  const underRender = dataServer().filter((span) => renderSpanIds.has(span.parentSpanId ?? ''));
  expect(
    underRender.length,
    'a data grpc.server span whose parent is a render span',
  ).toBeGreaterThan(0);
  expect(underRender.every((span) => span.kind === 2)).toBe(true);
  await page.close();
});
