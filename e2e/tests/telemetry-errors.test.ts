/**
 * Telemetry end to end, errors: Chromium against the stack with a recording upstream behind the
 * relay; each error is asserted on what the upstream received, once from each side that saw it.
 */
import { describe, expect, it } from 'vitest';
import { explainFailure } from '../harness/explain-failure.js';
import {
  exceptionValue,
  isNavigation,
  pathOf,
  sdkOf,
  tagsOf,
  traceOf,
  type Json,
} from '../harness/sentry-payloads.js';
import { navigateAndSettle, useTelemetryStackAndBrowser } from '../harness/telemetry-suite.js';

const { stack, watchedPage, tunnelLogOf, hydratedPage, reportsOfShownDigest } =
  useTelemetryStackAndBrowser();

describe('errors', () => {
  it('reports a server error a segment shows in its error view, once from each side, in the navigation trace', async () => {
    const page = await hydratedPage('/items');
    await navigateAndSettle(page, '/errors/segment');
    await expect.poll(() => page.textContent('body')).toContain('Something went wrong');
    const { withDigest, fromServer, fromBrowser } = await reportsOfShownDigest(page);
    const traceId = traceOf(fromServer.payload!).trace_id;
    expect(tagsOf(fromBrowser.payload!).trace_id).toBe(traceId);
    const [navigation] = await stack().upstream.waitFor(
      'transaction',
      (p) => isNavigation(p) && pathOf(p) === '/errors/segment',
    );
    expect(traceOf(navigation!.payload!).trace_id).toBe(traceId);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      stack().upstream.find('event', (p) => withDigest(p) && sdkOf(p).includes('browser')),
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
    await stack().upstream.waitFor('event', matches);
    // Give a duplicate time to arrive (it must not).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const events = stack().upstream.find('event', matches);
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
    const before = stack().upstream.find('event', matches).length;
    await page.getByRole('button').click();
    await expect
      .poll(() => page.textContent('body'))
      .toContain('a client-side exception has occurred');
    await explainFailure(stack().upstream.waitFor('event', matches, before + 1), () =>
      tunnelLogOf(page),
    );
    expect(failedOnce).toBe(true);
    // Give a duplicate time to arrive (it must not).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(stack().upstream.find('event', matches)).toHaveLength(before + 1);
    await page.close();
  });

  it('reports a server error from the browser and the render service with the same digest and trace', async () => {
    const page = await watchedPage();
    const response = await page.goto(`${stack().renderUrl}/errors/server`);
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
