/**
 * Failure drills on the whole topology, each asserting what users see through the gateway and
 * that nothing is lost: a render replica stops, the data service stops (the render replicas
 * report not ready) and returns, Redis stops, the relay restarts under load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSum } from '@strata/testing';
import { run, startComposeStack, type ComposeStack } from './compose-stack.js';
import { fetchInside } from './metrics-scrape.js';
import { getPage, measureLoadWhile } from './page-load.js';
import { errorEnvelope, startRecorder, type Recorder } from './recorder.js';
import { until } from '../harness/until.js';

const DSN = 'http://strata0drill0key@127.0.0.1:8080/5';
/** redis-cli with the stack's password (docker-compose.yml runs its health check the same way). */
const REDIS_CLI = ['sh', '/usr/local/etc/redis/redis-auth.sh', 'redis-cli'];

let stack: ComposeStack;
let recorder: Recorder;

beforeAll(async () => {
  recorder = await startRecorder();
  stack = await startComposeStack('drills', {
    env: { RELAY_DSNS: DSN, RELAY_UPSTREAM: recorder.upstreamForContainers },
    overrides: ['e2e/compose/relay-upstream.override.yml'],
  });
}, 600_000);

afterAll(async () => {
  await stack?.down();
  await recorder?.close();
}, 120_000);

/** Sends GETs back to back (4 at a time) while `during` runs; returns every status seen. */
async function loadWhile<T>(path: string, during: () => Promise<T>): Promise<number[]> {
  return (await measureLoadWhile(() => `${stack.url}${path}`, during)).statuses;
}

/** The HTTP status of the first render replica's /readyz, asked from inside its container. */
async function readinessOf(): Promise<number> {
  const script =
    "fetch('http://127.0.0.1:3000/readyz').then((r) => console.log(r.status), () => console.log(0))";
  // A container id, not `compose exec`: the replacement drill leaves no replica with index 1.
  const [replica] = await stack.containersOf('render');
  return Number(await run(['docker', 'exec', replica!, 'node', '-e', script]));
}

/** Pages a render container has answered so far: its request-duration count for GET 200s. */
async function pagesServedBy(container: string): Promise<number> {
  const text = await fetchInside(container, 'http://127.0.0.1:3000/metrics');
  return sampleSum(text, 'http_request_duration_seconds_count', { status_code: '200' }) ?? 0;
}

describe('failure drills', () => {
  it('one render replica stops and returns: the gateway keeps serving, with no reload', async () => {
    const [replica] = await stack.containersOf('render');
    const statuses = await loadWhile('/bench/items', async () => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await run(['docker', 'stop', '-t', '10', replica!]);
      await new Promise((resolve) => setTimeout(resolve, 1500));
    });
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Still serving with one replica, and the stopped one comes back.
    expect((await getPage(`${stack.url}/bench/items/7`)).status).toBe(200);
    await run(['docker', 'start', replica!]);
    await stack.waitHealthy(['render']);
    // The gateway finds it again by name (its address may have changed): it answers again
    // within the gateway's DNS TTL, and nothing fails meanwhile.
    const servedBefore = await pagesServedBy(replica!);
    const after = await loadWhile('/bench/items', () => new Promise((r) => setTimeout(r, 8000)));
    expect(after.filter((status) => status !== 200)).toEqual([]);
    expect(await pagesServedBy(replica!)).toBeGreaterThan(servedBefore);
  });

  it('replaces the render replicas one at a time under load without a failed request', async () => {
    // Each step is logged as it starts: on a loaded 2-core machine a step can take a while, and
    // a failure or a time-out should say which one.
    const started = Date.now();
    const step = async <T>(what: string, action: () => Promise<T>) => {
      console.log(`rolling replacement, ${Date.now() - started} ms: ${what}`);
      return action();
    };
    const original = await stack.containersOf('render');
    const load = await measureLoadWhile(
      () => `${stack.url}/bench/items`,
      async () => {
        // The documented procedure (docs/operations.md, "Upgrade without downtime"): add a
        // replica, wait until it is healthy, stop and remove an old one; no gateway reload.
        for (const old of original) {
          await step('add a replica', () => stack.scale('render', 3));
          await step('wait for it to be healthy', () => stack.waitHealthy(['render']));
          await step(`stop and remove ${old.slice(0, 12)}`, async () => {
            await run(['docker', 'stop', '-t', '15', old]);
            await run(['docker', 'rm', old]);
          });
        }
      },
    );
    const failed = load.statuses.filter((status) => status !== 200);
    console.log(
      `rolling replacement, ${Date.now() - started} ms: done; ${load.statuses.length} requests, ${failed.length} failed, slowest ${load.slowestMs} ms`,
    );
    const replaced = await stack.containersOf('render');
    expect(replaced).toHaveLength(2);
    expect(replaced.filter((id) => original.includes(id))).toEqual([]);
    expect(load.statuses.length).toBeGreaterThan(40);
    expect(failed).toEqual([]);
    // Two replacements, each with up to 2 minutes to become healthy on a loaded machine.
  }, 300_000);

  it('the data service stops: an error view with a digest, then recovery once it is back', async () => {
    await stack.compose('stop', '-t', '10', 'data');
    const stoppedAt = Date.now();
    try {
      // The render replicas say they cannot serve, so an orchestrator would route around them.
      await until('render to report not ready', async () =>
        (await readinessOf()) === 503 ? true : undefined,
      );
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      // A page nobody has visited, so no cache can answer for it.
      const response = await getPage(`${stack.url}/items/777`);
      // React separates adjacent text with <!-- -->.
      const html = response.text.replaceAll('<!-- -->', '');
      expect(response.status).toBe(500);
      expect(html).toMatch(/<section role="alert">.*Digest: [0-9a-f]{6,}/);
      // Only the digest: no gRPC status, address or stack reaches the browser.
      expect(html).not.toMatch(/UNAVAILABLE|ECONNREFUSED|50051|at [\w.]+ \(/);
    } finally {
      await stack.compose('start', 'data');
    }
    await stack.waitHealthy(['data']);
    const backAt = Date.now();
    await until('render to report ready', async () =>
      (await readinessOf()) === 200 ? true : undefined,
    );
    expect(Date.now() - backAt).toBeLessThan(10_000);
    const recovered = await until('/items/777 to render again', async () => {
      const { status, text } = await getPage(`${stack.url}/items/777`);
      return status === 200 && !text.includes('Digest:') ? text : undefined;
    });
    expect(recovered).toContain('<h1');
  });

  it('Redis stops: pages are still served (uncached), and caching resumes when it returns', async () => {
    await stack.compose('stop', '-t', '5', 'redis');
    try {
      const statuses = await loadWhile(
        '/items?category=cat-3',
        () => new Promise((r) => setTimeout(r, 2000)),
      );
      expect(statuses.length).toBeGreaterThan(4);
      const failed = statuses.filter((status) => status !== 200);
      // Empty when every page was served; otherwise the statuses and the replicas' last logs.
      const report = failed.length
        ? `${failed.join(', ')}\n${await stack.compose('logs', '--no-color', '--tail=30', 'render')}`
        : '';
      expect(report).toBe('');
      expect((await getPage(`${stack.url}/bench/items/11`)).status).toBe(200);
    } finally {
      await stack.compose('start', 'redis');
    }
    await stack.waitHealthy(['redis']);
    // The replicas reconnect on their own; new entries land in Redis again.
    const keys = await until('segment entries in Redis again', async () => {
      await getPage(`${stack.url}/items?category=cat-${5 + Math.floor(Math.random() * 10)}`);
      const count = Number(
        (await stack.compose('exec', '-T', 'redis', ...REDIS_CLI, 'dbsize')).trim(),
      );
      return count > 0 ? count : undefined;
    });
    expect(keys).toBeGreaterThan(0);
  });

  /** Container → the spool slot whose lease it holds (its host name in the slot's owner file). */
  async function relaySlots(): Promise<Record<string, string>> {
    const slots: Record<string, string> = {};
    for (const id of await stack.containersOf('relay')) {
      const script = 'grep -lx "$(hostname)" /spool/slot-*/owner';
      const [owned = ''] = (await run(['docker', 'exec', id, 'sh', '-c', script]))
        .trim()
        .split('\n');
      slots[id] = owned;
    }
    return slots;
  }

  it('the relay restarts under load: every acknowledged envelope reaches the upstream', async () => {
    const acknowledged: string[] = [];
    const refused: number[] = [];
    const stop = new AbortController();
    const senders = Array.from({ length: 4 }, async () => {
      while (!stop.signal.aborted) {
        const { eventId, body } = errorEnvelope(DSN, 'drill: relay restart');
        const status = await fetch(`${stack.url}/monitoring`, { method: 'POST', body }).then(
          async (response) => (await response.arrayBuffer(), response.status),
          () => 0,
        );
        if (status === 200) acknowledged.push(eventId);
        else refused.push(status);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const slotsBefore = await relaySlots();
    await stack.compose('restart', '-t', '10', 'relay');
    await stack.waitHealthy(['relay']);
    // Two replicas on the one volume, a slot each; restarted in their containers, each resumes
    // its own slot.
    expect(new Set(Object.values(slotsBefore)).size).toBe(2);
    expect(await relaySlots()).toEqual(slotsBefore);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop.abort();
    await Promise.all(senders);
    expect(acknowledged.length).toBeGreaterThan(20);
    // Refusals (the gateway's per-client limit, 503 while stopping, 502 while down) are fine:
    // the client was told.
    expect(refused.every((status) => [429, 502, 503, 504].includes(status))).toBe(true);
    await recorder.waitFor((requests) => {
      const delivered = new Set(
        requests
          .filter((r) => r.status === 200)
          .flatMap((r) => r.body.match(/[0-9a-f]{32}/g) ?? []),
      );
      return acknowledged.every((id) => delivered.has(id));
    }, 60_000);
    console.log(
      `relay restart under load: ${acknowledged.length} acknowledged (all delivered), ${refused.length} refused (${[...new Set(refused)].join(', ')})`,
    );
  });

  it('the upstream answers 429: the relay passes the limit to browsers through the gateway', async () => {
    // The drill before posted as fast as it could from this address: let the gateway's
    // per-client bucket (burst 50 at 10 a second, docs/operations.md) empty first.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    recorder.answerWith({
      status: 429,
      headers: { 'x-sentry-rate-limits': '60:error:key', 'retry-after': '60' },
    });
    try {
      const first = errorEnvelope(DSN, 'drill: limited upstream');
      expect(
        (await fetch(`${stack.url}/monitoring`, { method: 'POST', body: first.body })).status,
      ).toBe(200);
      await recorder.waitFor((requests) => requests.some((r) => r.body.includes(first.eventId)));
      const limited = await until('the relay to apply the limit', async () => {
        const response = await fetch(`${stack.url}/monitoring`, {
          method: 'POST',
          body: errorEnvelope(DSN, 'drill: refused').body,
          headers: { origin: 'http://127.0.0.1:8080' },
        });
        return response.status === 429 ? response : undefined;
      });
      // What a browser SDK reads to back off (exposed to scripts via CORS).
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(30);
      expect(limited.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:error:key/);
      expect(limited.headers.get('access-control-expose-headers')?.toLowerCase()).toContain(
        'x-sentry-rate-limits',
      );
    } finally {
      recorder.answerWith(undefined);
    }
  });
});
