/**
 * The whole production topology (docker-compose.yml), driven from code through the gateway:
 * images built from our Dockerfiles, start order by health, streaming through nginx, the
 * /monitoring tunnel to the relay and on to a recording upstream, and only the gateway
 * published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startComposeStack, timeStream, type ComposeStack } from './compose-stack.js';
import { errorEnvelope, startRecorder, type Recorder } from './recorder.js';

const DSN = 'http://strata0smoke0key@127.0.0.1:8080/7';

let stack: ComposeStack;
let recorder: Recorder;

beforeAll(async () => {
  recorder = await startRecorder();
  stack = await startComposeStack('smoke', {
    env: { RELAY_DSNS: DSN, RELAY_UPSTREAM: recorder.upstreamForContainers },
    overrides: ['e2e/compose/relay-upstream.override.yml'],
  });
}, 600_000);

afterAll(async () => {
  await stack?.down();
  await recorder?.close();
}, 120_000);

describe('the stack behind the gateway', () => {
  it('serves the benchmark page with the build id and a request id', async () => {
    const response = await fetch(`${stack.url}/bench/items`);
    expect(response.status).toBe(200);
    expect(response.headers.get('strata-build')).toMatch(/^\S+$/);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/);
    expect(await response.text()).toContain('</html>');
  });

  it('streams /slow through nginx: the shell arrives before the slow segment resolves', async () => {
    // fetch asks for gzip, so this also proves compression does not hold chunks back.
    const timing = await timeStream(`${stack.url}/slow`, [
      'Loading the slow page',
      "Today's picks",
      'Free shipping over $50',
    ]);
    expect(timing.status).toBe(200);
    expect(timing.headers.get('content-encoding')).toBe('gzip');
    const loading = timing.markers['Loading the slow page'];
    const data = timing.markers["Today's picks"];
    const deferred = timing.markers['Free shipping over $50'];
    expect(loading).toBeDefined();
    expect(data).toBeDefined();
    expect(deferred).toBeDefined();
    // The loader waits 1.2 s, its deferred part 1.2 s more.
    expect(timing.firstByteMs).toBeLessThan(800);
    expect(loading!).toBeLessThan(800);
    expect(data! - loading!).toBeGreaterThan(900);
    expect(deferred! - data!).toBeGreaterThan(900);
    console.log(
      `/slow through nginx: first byte ${timing.firstByteMs.toFixed(0)} ms, loading view ${loading!.toFixed(0)} ms, ` +
        `data ${data!.toFixed(0)} ms, deferred part ${deferred!.toFixed(0)} ms, total ${timing.totalMs.toFixed(0)} ms`,
    );
  });

  it('spreads pages over both render replicas', async () => {
    await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${stack.url}/slow`).then((r) => r.text())),
    );
    const log = await stack.compose('logs', '--no-color', 'gateway');
    const upstreams = new Set(
      [...log.matchAll(/"uri":"\/slow".*?"upstream":"([^"]+)"/g)].map((match) => match[1]),
    );
    expect(upstreams.size).toBe(2);
  });

  it('takes an envelope at /monitoring, acknowledges it and forwards it upstream', async () => {
    const { eventId, body } = errorEnvelope(DSN, 'compose smoke test error');
    const response = await fetch(`${stack.url}/monitoring`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: eventId });
    await recorder.waitFor((requests) =>
      requests.some((request) => request.body.includes(eventId)),
    );
    const forwarded = recorder.requests.find((request) => request.body.includes(eventId))!;
    expect(forwarded.url).toMatch(/^\/api\/7\/envelope\/\?.*sentry_key=strata0smoke0key/);
  });

  it('refuses an envelope for a DSN it does not know', async () => {
    const { body } = errorEnvelope('http://someone0else@127.0.0.1:8080/9', 'foreign');
    const response = await fetch(`${stack.url}/monitoring`, { method: 'POST', body });
    expect(response.status).toBe(403);
  });

  it('limits request bodies: 2 MiB for pages and /api, 20 MiB (the relay limit) for /monitoring', async () => {
    const big = await fetch(`${stack.url}/api/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
    // A 3 MiB envelope passes the gateway and is judged by the relay (an oversized event item).
    const { body } = errorEnvelope(DSN, 'y'.repeat(3 * 1024 * 1024));
    const envelope = await fetch(`${stack.url}/monitoring`, { method: 'POST', body });
    expect(envelope.status).toBe(413);
    expect(await envelope.json()).toMatchObject({ error: { code: 'RELAY_ITEM_TOO_LARGE' } });
  });

  it('keeps metrics and probes of the services inside the stack', async () => {
    const statuses = await Promise.all(
      ['/metrics', '/healthz', '/readyz', '/gateway/healthz'].map(
        async (path) => `${path} ${(await fetch(`${stack.url}${path}`)).status}`,
      ),
    );
    expect(statuses).toEqual([
      '/metrics 404',
      '/healthz 404',
      '/readyz 404',
      '/gateway/healthz 200',
    ]);
  });

  it('publishes only the gateway, on 127.0.0.1', async () => {
    const services = ['gateway', 'render', 'data', 'relay', 'redis', 'postgres'];
    const published = Object.fromEntries(
      await Promise.all(
        services.map(async (service) => {
          const ports = await Promise.all((await stack.containersOf(service)).map(publishedPorts));
          return [service, ports.flat()];
        }),
      ),
    );
    const port = new URL(stack.url).port;
    expect(published).toEqual({
      gateway: [{ HostIp: '127.0.0.1', HostPort: port }],
      render: [],
      data: [],
      relay: [],
      redis: [],
      postgres: [],
    });
    // And compose agrees.
    expect((await stack.compose('port', 'gateway', '8080')).trim()).toBe(`127.0.0.1:${port}`);
  });
});

async function publishedPorts(id: string): Promise<unknown[]> {
  const json = await run(['docker', 'inspect', '-f', '{{json .NetworkSettings.Ports}}', id]);
  const ports = JSON.parse(json) as Record<string, unknown[] | null>;
  return Object.values(ports).flatMap((bindings) => bindings ?? []);
}
