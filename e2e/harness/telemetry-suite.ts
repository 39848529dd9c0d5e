/**
 * The setup the telemetry suites share: the telemetry stack (a recording upstream behind the
 * relay), an origin of another party the page's policy lets it reach, and one browser for the
 * file; and the page helpers the tests read reports through.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { isHydrated, launchBrowser, openPage } from './browser.js';
import { explainFailure } from './explain-failure.js';
import { sdkOf, tagsOf, type Json } from './sentry-payloads.js';
import { startTelemetryStack, type TelemetryStack } from './telemetry-stack.js';
import { startThirdParty, type ThirdPartyOrigin } from './third-party-origin.js';
import { watchTunnel } from './tunnel-log.js';

/** What a telemetry suite reaches its stack, browser and pages by. */
export interface TelemetrySuite {
  stack: () => TelemetryStack;
  browser: () => Browser;
  thirdParty: () => ThirdPartyOrigin;
  /** A new page whose tunnel requests are recorded for failure messages. */
  watchedPage(): Promise<Page>;
  /** What a watched page sent through the tunnel and how each request was answered. */
  tunnelLogOf(page: Page): string;
  /** A hydrated page whose Sentry SDK chunk has loaded (its fetches carry trace headers). */
  hydratedPage(path: string): Promise<Page>;
  /** The digest the page shows, and the render service's and the browser's reports carrying it. */
  reportsOfShownDigest(page: Page): Promise<ShownDigestReports>;
}

type Received = Awaited<ReturnType<TelemetryStack['upstream']['waitFor']>>[number];

export interface ShownDigestReports {
  readonly withDigest: (payload: Json) => boolean;
  readonly fromServer: Received;
  readonly fromBrowser: Received;
}

/** Starts the stack, the other party's origin and Chromium before the file's tests. */
export function useTelemetryStackAndBrowser(): TelemetrySuite {
  let stack: TelemetryStack | undefined;
  let browser: Browser | undefined;
  let thirdParty: ThirdPartyOrigin | undefined;
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

  const suite: TelemetrySuite = {
    stack: () => stack ?? notStarted('telemetry stack'),
    browser: () => browser ?? notStarted('browser'),
    thirdParty: () => thirdParty ?? notStarted('third-party origin'),
    async watchedPage() {
      const { page } = await openPage(suite.browser());
      tunnelLogs.set(page, watchTunnel(page));
      return page;
    },
    tunnelLogOf: (page) =>
      tunnelLogs.get(page)?.() ?? "the page's tunnel requests were not watched",
    async hydratedPage(path) {
      const page = await suite.watchedPage();
      await page.goto(`${suite.stack().renderUrl}${path}`);
      await expect.poll(() => isHydrated(page), { timeout: 10_000 }).toBe(true);
      await page.evaluate(
        () =>
          (window as unknown as { __strata_telemetry?: { ready: Promise<boolean> } })
            .__strata_telemetry?.ready,
      );
      return page;
    },
    async reportsOfShownDigest(page) {
      const digest = /Digest: ([0-9a-f]{10})/.exec((await page.textContent('body')) ?? '')?.[1];
      expect(digest).toMatch(/^[0-9a-f]{10}$/);
      const withDigest = (payload: Json) => tagsOf(payload).digest === digest;
      const { upstream } = suite.stack();
      const [fromServer] = await upstream.waitFor(
        'event',
        (p) => withDigest(p) && sdkOf(p).includes('node'),
      );
      const [fromBrowser] = await explainFailure(
        upstream.waitFor('event', (p) => withDigest(p) && sdkOf(p).includes('browser')),
        () => suite.tunnelLogOf(page),
      );
      return { withDigest, fromServer: fromServer!, fromBrowser: fromBrowser! };
    },
  };
  return suite;
}

type RouterWindow = Window & {
  __strata_router: { navigate(href: string): void; getSnapshot(): { pending: boolean } };
};

/** Navigates the client router through `hrefs` and waits until the last has settled. */
export async function navigateAndSettle(page: Page, ...hrefs: string[]): Promise<void> {
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

/** Hiding the page makes the browser SDK send its client report. */
export async function hideToFlushClientReports(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

function notStarted(name: string): never {
  throw new Error(`${name} not started`);
}
