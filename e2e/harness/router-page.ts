/**
 * A page under the browser router: the requests it makes (payloads, prefetches, document loads),
 * the router it exposes as window.__strata_router, and a window marker that survives only as
 * long as the document does (so a test can tell a client navigation from a reload).
 */
import type { Page, Request } from 'playwright-core';

export const isPayload = (request: Request) => request.headers()['strata-payload'] === '1';
export const isPrefetch = (request: Request) =>
  isPayload(request) && request.headers()['strata-prefetch'] !== undefined;
export const pathOf = (request: Request) => new URL(request.url()).pathname;
/** A request, readably, for failure messages. */
export const describeRequest = (request: Request) =>
  `${request.method()} ${pathOf(request)}${isPrefetch(request) ? ' (prefetch)' : isPayload(request) ? ' (payload)' : ''}`;

/** Every request the page makes from now on, and the main-frame document loads among them. */
export function recordRequests(page: Page): { all: Request[]; documents: () => string[] } {
  const all: Request[] = [];
  page.on('request', (request) => all.push(request));
  return {
    all,
    documents: () =>
      all
        .filter((r) => r.isNavigationRequest() && r.frame() === page.mainFrame())
        .map(describeRequest),
  };
}

export const routerReady = (page: Page) =>
  page.waitForFunction(
    () => (window as unknown as { __strata_router?: unknown }).__strata_router !== undefined,
  );
export const setMarker = (page: Page) =>
  page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
export const marker = (page: Page) =>
  page.evaluate(() => (window as unknown as { marker?: string }).marker);
export const navigate = (page: Page, href: string) =>
  page.evaluate(
    (target) =>
      (
        window as unknown as { __strata_router: { navigate(h: string): void } }
      ).__strata_router.navigate(target),
    href,
  );
export const h1s = (page: Page) => page.locator('h1').allTextContents();

/** Opens `url` cold, waits for the router, and marks the window. */
export async function load(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await routerReady(page);
  await setMarker(page);
}
