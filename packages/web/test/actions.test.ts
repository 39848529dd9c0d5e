/**
 * Server actions: id rules, origin check with trusted proxies, body limits, schema validation,
 * revalidation, fetch answers with refreshed segments, and forms without JavaScript.
 */
import { describe, expect, it } from 'vitest';
import { actionId } from '../src/server/index.js';
import { ACTION_SALT } from './fixtures/test-app.js';
import { buildTestServer } from './harness/build-test-server.js';

const ORIGIN = 'http://shop.test';

async function callAction(options: {
  id?: string;
  body?: unknown;
  headers?: Record<string, string>;
  remoteAddress?: string;
  raw?: string;
}) {
  const server = await buildTestServer();
  const response = await server.app.inject({
    method: 'POST',
    url: '/section/items',
    remoteAddress: options.remoteAddress ?? '192.0.2.10',
    headers: {
      'content-type': 'application/json',
      origin: ORIGIN,
      'strata-action': options.id ?? server.actionId,
      'strata-tree': '1;shop/section/items(s.q=)',
      ...options.headers,
    },
    payload: options.raw ?? JSON.stringify(options.body ?? { note: 'hello' }),
  });
  return {
    server,
    response,
    records: response.body
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return {};
        }
      }),
  };
}

describe('action ids', () => {
  it('derive from module, name and salt only: stable across builds and replicas', () => {
    expect(actionId(ACTION_SALT, { module: 'test/notes', name: 'saveNote' })).toBe(
      actionId(ACTION_SALT, { module: 'test/notes', name: 'saveNote' }),
    );
    expect(actionId('other-salt', { module: 'test/notes', name: 'saveNote' })).not.toBe(
      actionId(ACTION_SALT, { module: 'test/notes', name: 'saveNote' }),
    );
    expect(actionId(ACTION_SALT, { module: 'test/notes', name: 'saveNote' })).toMatch(
      /^[0-9a-f]{32}$/,
    );
  });
});

describe('action requests', () => {
  it('runs the action, reports revalidated tags, and refreshes the page’s segments', async () => {
    const { server, response, records } = await callAction({});
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(records[0]).toEqual({
      type: 'action',
      ok: true,
      result: { saved: 1 },
      revalidated: ['items'],
      v: 1,
    });
    expect(
      records.map((r) => `${String(r['type'])}${r['id'] ? `:${String(r['id'])}` : ''}`),
    ).toEqual(['action', 'route', 'segment:shop', 'segment:section', 'segment:items', 'end']);
    expect(server.services.saved).toEqual(['hello']);
    expect(server.revalidated).toEqual([['items']]);
  });

  it('returns field errors for input that breaks the schema, and runs nothing', async () => {
    const { server, records } = await callAction({ body: { note: 'x', extra: '<script>' } });
    expect(records[0]).toMatchObject({
      type: 'action',
      ok: false,
      fieldErrors: { note: ['Note must be at least 3 characters'] },
    });
    expect(server.services.saved).toEqual([]);
  });

  it('answers a redirect record when the action navigates', async () => {
    const { records } = await callAction({ body: { note: 'go home' } });
    expect(records[1]).toEqual({ type: 'redirect', location: '/section/items', status: 303, v: 1 });
  });

  it.each([
    ['a foreign origin', { origin: 'http://evil.test' }, undefined],
    ['no origin', { origin: '' }, undefined],
    ['an opaque origin', { origin: 'null' }, undefined],
    [
      'forged forwarding headers from an untrusted address',
      { origin: 'http://evil.test', 'x-forwarded-host': 'evil.test' },
      '192.0.2.10',
    ],
  ])('refuses %s with 403', async (_name, headers, remoteAddress) => {
    const { server, response } = await callAction({
      headers,
      ...(remoteAddress && { remoteAddress }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'ACTION_ORIGIN_REJECTED' } });
    expect(server.services.saved).toEqual([]);
  });

  it('refuses a malformed id with 400 and an unknown id with a 404 the client can tell apart', async () => {
    const malformed = await callAction({ id: '../../etc/passwd' });
    expect(malformed.response.statusCode).toBe(400);
    expect(malformed.response.json()).toMatchObject({ error: { code: 'ACTION_MALFORMED' } });
    const unknown = await callAction({ id: 'f'.repeat(32) });
    expect(unknown.response.statusCode).toBe(404);
    expect(unknown.response.headers['strata-action-not-found']).toBe('1');
    expect(unknown.response.json()).toMatchObject({ error: { code: 'ACTION_NOT_FOUND' } });
  });

  it('refuses a body over 1 MB with 413 before running anything', async () => {
    const { server, response } = await callAction({ body: { note: 'x'.repeat(1024 * 1024 + 10) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
    expect(server.services.saved).toEqual([]);
  });

  it('refuses a body that is not JSON with 400', async () => {
    const { response } = await callAction({ raw: '{"note": ' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'BAD_BODY' } });
  });

  it.each([
    ['text/plain', 'note=hello'],
    ['text/plain;charset=utf-8', '{"note":"hello"}'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\nhello\r\n--x--'],
    ['application/octet-stream', 'hello'],
  ])('refuses a %s body with 415 and runs nothing', async (type, raw) => {
    const { server, response } = await callAction({ raw, headers: { 'content-type': type } });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(server.services.saved).toEqual([]);
    expect(server.reported).toEqual([]);
  });

  it('refuses a text/plain form post (a cross-site form can send one) with 415', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'text/plain', origin: ORIGIN },
      payload: `$action=${server.actionId}\r\nnote=written\r\n`,
    });
    expect(response.statusCode).toBe(415);
    expect(server.services.saved).toEqual([]);
  });
});

describe('forms without JavaScript', () => {
  it('run the action and answer 303 back to the page', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: `%24action=${server.actionId}&note=written`,
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/account');
    expect(server.services.saved).toEqual(['written']);
  });

  it('show the page again with the errors and the typed values (422)', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: `%24action=${server.actionId}&note=ab`,
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(
      '<p class="field-error">Note must be at least 3 characters</p>',
    );
    expect(response.body).toContain('value="ab"');
  });

  it('trust X-Forwarded-Host only from a configured proxy (with PUBLIC_ORIGINS set)', async () => {
    const server = await buildTestServer();
    const viaProxy = await server.app.inject({
      method: 'POST',
      url: '/account',
      remoteAddress: '10.1.2.3',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: ORIGIN,
        'x-forwarded-host': 'shop.test',
      },
      payload: `%24action=${server.actionId}&note=proxied`,
    });
    expect(viaProxy.statusCode).toBe(303);
  });
});

describe('the origin check without PUBLIC_ORIGINS (the server’s own origin)', () => {
  // The server listens as internal:3000; browsers know it as shop.test through a proxy at
  // 10.1.2.3 (TRUSTED_PROXIES 10.0.0.0/8 in the test server).
  async function post(remoteAddress: string, headers: Record<string, string>) {
    const server = await buildTestServer({ publicOrigins: [] });
    const response = await server.app.inject({
      method: 'POST',
      url: '/account',
      remoteAddress,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'internal:3000',
        ...headers,
      },
      payload: `%24action=${server.actionId}&note=written`,
    });
    return { status: response.statusCode, saved: server.services.saved };
  }

  it('takes the origin from X-Forwarded-Host and -Proto sent by a configured proxy', async () => {
    const viaProxy = await post('10.1.2.3', {
      origin: 'https://shop.test',
      'x-forwarded-host': 'shop.test',
      'x-forwarded-proto': 'https',
    });
    expect(viaProxy).toEqual({ status: 303, saved: ['written'] });
  });

  it('takes the origin from Host when a configured proxy forwards none', async () => {
    expect(await post('10.1.2.3', { origin: 'http://internal:3000' })).toEqual({
      status: 303,
      saved: ['written'],
    });
  });

  it('ignores X-Forwarded-Host from anyone else, so a forged one cannot match its Origin', async () => {
    const forged = await post('192.0.2.10', {
      origin: 'http://evil.test',
      'x-forwarded-host': 'evil.test',
    });
    expect(forged).toEqual({ status: 403, saved: [] });
    // Host still decides for a direct client.
    expect(await post('192.0.2.10', { origin: 'http://internal:3000' })).toEqual({
      status: 303,
      saved: ['written'],
    });
  });

  it('ignores X-Forwarded-Proto from anyone else', async () => {
    const forged = await post('192.0.2.10', {
      origin: 'https://internal:3000',
      'x-forwarded-proto': 'https',
    });
    expect(forged).toEqual({ status: 403, saved: [] });
  });
});
