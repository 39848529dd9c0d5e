/**
 * Who the gateway takes for the client: the peer by default (a client's own X-Forwarded-For is
 * ignored, so nobody can pick the address the per-client limits count), and behind a load
 * balancer or ingress named in GATEWAY_TRUSTED_PROXIES the client its X-Forwarded-For names.
 * The gateway runs alone here (the image, nginx.conf and start.sh as the stack runs them); its
 * access log says which address it used.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, run } from './compose-stack.js';
import { freePort } from '../harness/processes.js';
import { until } from '../harness/until.js';

const CLIENT = '203.0.113.7';
const started: string[] = [];

afterAll(async () => {
  for (const id of started) await run(['docker', 'rm', '-f', id]).catch(() => undefined);
});

/** Starts a gateway with `env`; returns its URL and container id. */
async function startGateway(env: Record<string, string>) {
  const port = await freePort();
  const id = (
    await run([
      'docker',
      'run',
      '-d',
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--user',
      '101:101',
      '-p',
      `127.0.0.1:${port}:8080`,
      '-v',
      `${ROOT}infra/gateway/nginx.conf:/etc/nginx/nginx.conf:ro`,
      '-v',
      `${ROOT}infra/gateway/browser-headers.conf:/etc/nginx/browser-headers.conf:ro`,
      '-v',
      `${ROOT}infra/gateway/start.sh:/etc/nginx/start.sh:ro`,
      // Nothing listens there: the page answers 502, and the access log still names the client.
      '-e',
      'GATEWAY_RENDER_ADDRESS=localhost:3000',
      '-e',
      'GATEWAY_RELAY_ADDRESS=localhost:3100',
      ...Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
      'nginx:stable-bookworm',
      'sh',
      '/etc/nginx/start.sh',
    ])
  ).trim();
  started.push(id);
  const url = `http://127.0.0.1:${port}`;
  await until('the gateway to answer', async () =>
    (await fetch(`${url}/gateway/healthz`)).status === 200 ? true : undefined,
  );
  return { url, id };
}

/** The remote_addr of the access-log line of the request to `path`. */
async function clientSeenFor(id: string, path: string): Promise<string> {
  return until(`the access log line of ${path}`, async () => {
    const log = await run(['docker', 'logs', id]);
    return new RegExp(`"remote_addr":"([^"]+)","method":"GET","uri":"${path}"`).exec(log)?.[1];
  });
}

describe('the client address at the gateway', () => {
  let peer = '';

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    const gateway = await startGateway({});
    const response = await fetch(`${gateway.url}/items`, {
      headers: { 'x-forwarded-for': CLIENT },
    });
    expect(response.status).toBe(502);
    peer = await clientSeenFor(gateway.id, '/items');
    expect(peer).not.toBe(CLIENT);
    expect(peer).toMatch(/^[0-9.]+$/);
  });

  it('is the one a trusted proxy names in X-Forwarded-For', async () => {
    const gateway = await startGateway({ GATEWAY_TRUSTED_PROXIES: `192.0.2.1,${peer}/32` });
    await fetch(`${gateway.url}/items?via=proxy`, { headers: { 'x-forwarded-for': CLIENT } });
    expect(await clientSeenFor(gateway.id, '/items\\?via=proxy')).toBe(CLIENT);
    // A client's own entry before the proxy's is not believed: the last untrusted one counts.
    await fetch(`${gateway.url}/items?via=forged`, {
      headers: { 'x-forwarded-for': `198.51.100.9, ${CLIENT}` },
    });
    expect(await clientSeenFor(gateway.id, '/items\\?via=forged')).toBe(CLIENT);
  });
});
