/**
 * Client mistakes are not server errors end to end: the built render service, reporting through
 * the relay to a recording upstream, answers each of them 4xx and reports none, while a real
 * server error sent after them is reported (so the upstream was listening all along).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionValue } from '../harness/sentry-payloads.js';
import { startTelemetryStack, type TelemetryStack } from '../harness/telemetry-stack.js';

let stack: TelemetryStack;
beforeAll(async () => {
  stack = await startTelemetryStack();
}, 120_000);
afterAll(() => stack?.stop());

/** One request with the target exactly as given (fetch would resolve `%2e%2e`). */
function status(
  target: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<number> {
  const { hostname, port } = new URL(stack.renderUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: hostname, port, path: target, method: init.method ?? 'GET', headers: init.headers },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}

const action = (type: string, body: Buffer | string) => ({
  method: 'POST',
  headers: { 'content-type': type, origin: stack.renderUrl, 'strata-action': 'f'.repeat(32) },
  body,
});

describe('client mistakes', () => {
  it('are answered 4xx (a forged page token: the first page) and never reported; a server error after them is', async () => {
    const answers = {
      'malformed category': await status('/items?category=BAD!'),
      'NUL in the search': await status('/items?q=a%00b'),
      'forged page token': await status('/items?page=forged.token'),
      'forged API page token': await status('/api/items?pageToken=forged.token'),
      'malformed API category': await status('/api/items?category=BAD!'),
      'path out of /assets': await status('/assets/%2e%2e/package.json'),
      'NUL in an asset path': await status('/assets/%00'),
      'unknown page': await status('/no/such/page'),
      'tree key outside the grammar': await status('/items?_p=x', {
        headers: { 'strata-payload': '1', 'strata-tree': '1;shop(b)' },
      }),
      'text/plain action': await status('/items/new', action('text/plain', 'note=x')),
      'oversized action': await status(
        '/items/new',
        action('application/json', Buffer.alloc(1.5 * 1024 * 1024, 'x')),
      ),
    };
    expect(answers).toEqual({
      'malformed category': 404,
      'NUL in the search': 404,
      'forged page token': 307,
      'forged API page token': 400,
      'malformed API category': 400,
      'path out of /assets': 403,
      'NUL in an asset path': 403,
      'unknown page': 404,
      'tree key outside the grammar': 400,
      'text/plain action': 415,
      'oversized action': 413,
    });

    expect(await status('/errors/server')).toBe(500);
    await stack.upstream.waitFor('event', (payload) =>
      exceptionValue(payload).includes('Deliberate server failure (errors/server)'),
    );
    // Anything reported for the mistakes would have been sent before the server error's report.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(stack.upstream.find('event').map((item) => exceptionValue(item.payload!))).toEqual([
      'Deliberate server failure (errors/server)',
    ]);
  });
});
