/**
 * What a page sent through the telemetry tunnel and how each envelope was answered, for failure
 * messages: a report that never reached the upstream was either never sent, refused, or lost
 * on the way, and this tells which.
 */
import type { Page, Request } from 'playwright-core';

/** Starts recording the page's tunnel requests; the function returns the record so far. */
export function watchTunnel(page: Page, path = '/monitoring'): () => string {
  const started = Date.now();
  const lines: string[] = [];
  /** Each tunnel request's item types, read from its body once, when it is sent. */
  const typesOf = new WeakMap<Request, string>();
  const isTunnel = (request: Request) => new URL(request.url()).pathname === path;
  const note = (request: Request, what: string) =>
    lines.push(`  ${Date.now() - started} ms ${typesOf.get(request) ?? 'envelope'}: ${what}`);
  page.on('request', (request) => {
    if (!isTunnel(request)) return;
    typesOf.set(request, itemTypes(request));
    note(request, 'sent');
  });
  page.on('requestfinished', (request) => {
    if (!isTunnel(request)) return;
    // The page may close before its last answer is read: that is noted, never left unhandled.
    request.response().then(
      (response) => note(request, `answered ${response?.status()}`),
      () => note(request, 'answered, but the page closed before the answer was read'),
    );
  });
  page.on('requestfailed', (request) => {
    if (isTunnel(request)) note(request, `failed: ${request.failure()?.errorText}`);
  });
  return () => `the page's tunnel requests:\n${lines.join('\n') || '  none'}`;
}

/** The item types an envelope holds (its item header lines name them). */
function itemTypes(request: Request): string {
  const types = (request.postData() ?? '')
    .split('\n')
    .map((line) => /^\{"type":"([a-z_]+)"/.exec(line)?.[1])
    .filter((type) => type !== undefined);
  return types.join('+') || 'envelope';
}
