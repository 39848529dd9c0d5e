/**
 * The render service logs each request under the gateway's request id (X-Request-Id from a
 * trusted proxy), and under its own id when anyone else sends one; its data calls carry the id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
beforeAll(async () => {
  // The gateway is 10.0.0.2; inject's default peer (127.0.0.1) is not trusted here.
  stack = await startRender({ TRUSTED_PROXIES: '10.0.0.2' });
});
afterAll(() => stack.stop());

const GATEWAY = '10.0.0.2';
const gatewayId = () => crypto.randomUUID().replaceAll('-', '');

/** Requests a failing page and returns the reqId of the line that logged the failure. */
async function loggedIdFor(headers: Record<string, string>, remoteAddress: string) {
  const before = stack.logged.length;
  const response = await stack.app.inject({ url: '/errors/server', headers, remoteAddress });
  expect(response.statusCode).toBe(500);
  const line = stack.logged.slice(before).find((entry) => entry['msg'] === 'loader failed');
  expect(line).toBeDefined();
  return line?.['reqId'];
}

describe('request ids', () => {
  it('logs a request under the id the gateway sent', async () => {
    const id = gatewayId();
    expect(await loggedIdFor({ 'x-request-id': id }, GATEWAY)).toBe(id);
  });

  it('sends the id with the request’s data calls, beside its trace id', async () => {
    const id = gatewayId();
    const before = stack.callMetadata.length;
    const response = await stack.app.inject({
      url: '/items/12',
      headers: { 'x-request-id': id },
      remoteAddress: GATEWAY,
    });
    expect(response.statusCode).toBe(200);
    const calls = stack.callMetadata.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    for (const metadata of calls) {
      expect(metadata['x-request-id']).toBe(id);
      expect(metadata['strata-trace-id']).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('ignores an X-Request-Id from anyone but a trusted proxy', async () => {
    const id = gatewayId();
    const logged = await loggedIdFor({ 'x-request-id': id }, '203.0.113.9');
    expect(logged).toMatch(/^[0-9a-f]{32}$/);
    expect(logged).not.toBe(id);
  });

  it('ignores an id that is not the gateway’s format, even from the gateway', async () => {
    const logged = await loggedIdFor({ 'x-request-id': 'x"} forged' }, GATEWAY);
    expect(logged).toMatch(/^[0-9a-f]{32}$/);
  });

  it('keeps the id after a request body was read (an action refused by the origin check)', async () => {
    const form = (await stack.app.inject({ url: '/items/new' })).body;
    const actionId = /name="\$action" value="([0-9a-f]{32})"/.exec(form)?.[1];
    expect(actionId).toBeDefined();
    const id = gatewayId();
    const before = stack.logged.length;
    const response = await stack.app.inject({
      method: 'POST',
      url: '/items/new',
      headers: {
        'x-request-id': id,
        origin: 'http://elsewhere.test',
        'content-type': 'application/json',
        'strata-action': actionId!,
      },
      payload: JSON.stringify({ title: 'x' }),
      remoteAddress: GATEWAY,
    });
    expect(response.statusCode).toBe(403);
    const line = stack.logged
      .slice(before)
      .find((entry) => entry['msg'] === 'action refused by the origin check');
    expect(line?.['reqId']).toBe(id);
  });

  it('logs nothing with a request id outside requests', () => {
    stack.logged.length = 0;
    stack.app.log.info('between requests');
    expect(stack.logged[0]?.['reqId']).toBeUndefined();
  });
});
