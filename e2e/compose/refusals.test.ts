/**
 * The render service's refusals and redirects as a browser gets them through the nginx gateway
 * of the production topology: an over-large or wrongly typed body keeps its 413/415 (nginx sends
 * the whole body before it reads the answer, so a service that closed early made it a 502),
 * a path that leaves /assets keeps its 403, and a redirect stays on the site. nginx's own
 * answers carry security headers too, without doubling the render service's.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startComposeStack, type ComposeStack } from './compose-stack.js';

let stack: ComposeStack;

beforeAll(async () => {
  stack = await startComposeStack('refusals');
}, 600_000);

afterAll(async () => {
  await stack?.down();
}, 120_000);

const BIG = Buffer.alloc(1.5 * 1024 * 1024, 'x');
/** Just under the gateway's 5 writes a second per client address. */
const WRITE_INTERVAL_MS = 250;

/** One request with the target exactly as given (fetch would resolve `..` and `%2e%2e`). */
function raw(
  target: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  location: string | undefined;
  body: string;
  headers: IncomingHttpHeaders;
}> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    httpRequest({ host: hostname, port, path: target, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location,
          body,
          headers: response.headers,
        }),
      );
    })
      .on('error', reject)
      .end();
  });
}

describe('refusals through the gateway', () => {
  it.each([
    ['a 1.5 MiB action body', '/items/new', 'application/json', 413, 'BODY_TOO_LARGE'],
    ['a 1.5 MiB /api body', '/api/items', 'application/json', 413, 'BODY_TOO_LARGE'],
    ['a 1.5 MiB text/plain action body', '/items/new', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])('keep their status for %s, every time', async (_name, path, type, status, code) => {
    // The early answer raced the upload: one try in a few answered 502. Twenty in a row, at the
    // gateway's write rate per client (docs/operations.md, "Gateway limits"): faster, its own
    // 429 would answer some of them.
    const answers = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, WRITE_INTERVAL_MS));
      const response = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': type,
          origin: stack.url,
          'strata-action': 'f'.repeat(32),
        },
        body: BIG,
      });
      answers.push(`${response.status} ${(await response.text()).includes(code) ? code : ''}`);
    }
    expect(answers).toEqual(Array.from({ length: 20 }, () => `${status} ${code}`));
  });

  it('keep the static files’ 403 for a path that leaves /assets', async () => {
    const response = await raw('/assets/%2e%2e/package.json');
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Forbidden.' },
    });
  });

  it.each(['/assets/%2E%2E/%2e%2e/etc/passwd', '/assets/%00'])(
    'never answer %s with a server error (nginx refuses it with 400 itself)',
    async (target) => {
      expect((await raw(target)).status).toBe(400);
    },
  );

  it('answer a forged page token on /api with 400, and send /items to the first page', async () => {
    const api = await fetch(`${stack.url}/api/items?pageToken=forged.token`);
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ error: { code: 'INVALID_QUERY' } });
    const page = await raw('/items?category=cat-2&page=forged.token');
    expect(page.status).toBe(307);
    expect(page.location).toBe('/items?category=cat-2');
  });

  it('keep the _p correction on the site for /.//evil.example/x', async () => {
    const response = await raw('/.//evil.example/x', {
      'strata-payload': '1',
      'strata-tree': '1;',
    });
    expect(response.status).toBe(307);
    expect(response.location).toMatch(/^\/evil\.example\/x\?_p=[0-9a-z]{14}$/);
  });
});

describe('security headers through the gateway', () => {
  it("are on nginx's own answers: a 400, a 413 and its health check", async () => {
    const answers = [
      await raw('/assets/%00'),
      await raw('/items/new', { 'content-length': String(3 * 1024 * 1024) }),
      await raw('/gateway/healthz'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([400, 413, 200]);
    for (const { headers } of answers) {
      expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['referrer-policy']).toBe('no-referrer');
      expect(headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("leave the render service's own on a page, once each", async () => {
    const { status, headers } = await raw('/items');
    expect(status).toBe(200);
    expect(headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers['content-security-policy']).not.toContain("default-src 'none'");
    // Node joins a repeated header's values with ", ".
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
