/**
 * The data service as two replicas behind one name (docker-compose.yml, `scale: 2`), driven
 * through the gateway: the render replicas spread their reads over both, lose no page when one
 * stops under load, and send reads to a replica added with `--scale` without a restart. Which
 * replica served a read is counted from its own log (`call ok` lines, at debug level).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startComposeStack, type ComposeStack } from './compose-stack.js';
import { fetchInside } from './metrics-scrape.js';
import { measureLoadWhile } from './page-load.js';

let stack: ComposeStack;

/**
 * Waits until every render replica reaches both data replicas: one that resolved the name while
 * only one data container was up learns of the other at its next resolution (within 10 s).
 */
async function untilRenderReachesBothReplicas(): Promise<void> {
  const renders = await stack.containersOf('render');
  expect(renders).toHaveLength(2);
  const reachable = async (id: string) =>
    (
      JSON.parse(await fetchInside(id, 'http://127.0.0.1:3000/readyz')) as {
        data: { reachable: number };
      }
    ).data.reachable;
  let seen: number[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(500)) {
    seen = await Promise.all(renders.map(reachable));
    if (seen.every((count) => count === 2)) return;
  }
  throw new Error(`render replicas reach ${seen.join(' and ')} data replicas, not 2 each`);
}

beforeAll(async () => {
  stack = await startComposeStack('data-replicas', { env: { DATA_LOG_LEVEL: 'debug' } });
  await untilRenderReachesBothReplicas();
}, 600_000);

afterAll(async () => {
  await stack?.down();
}, 120_000);

/** Calls each data container has answered so far, by container id. */
async function callsServed(): Promise<Map<string, number>> {
  const ids = await stack.containersOf('data');
  const counts = await Promise.all(
    ids.map(async (id) => {
      const logs = await run(['docker', 'logs', id]);
      return [id, logs.split('\n').filter((line) => line.includes('"msg":"call ok"')).length];
    }),
  );
  return new Map(counts as [string, number][]);
}

/** Calls served between two counts, per container. */
function servedSince(before: Map<string, number>, after: Map<string, number>) {
  return new Map([...after].map(([id, count]) => [id, count - (before.get(id) ?? 0)]));
}

let page = 0;
/** A listing no one asked for yet, so no segment cache can answer it: each is a data read. */
const freshListing = () => `${stack.url}/items?q=${encodeURIComponent(`replica drill ${++page}`)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** When each replica of `service` started. */
const startedAt = async (service: string) =>
  Promise.all(
    (await stack.containersOf(service)).map(async (id) =>
      (await run(['docker', 'inspect', '-f', '{{.State.StartedAt}}', id])).trim(),
    ),
  );

describe('two data replicas', () => {
  // Calls go to the replica with fewer in flight (ties rotate; the change feed, a stream held
  // open on one replica, is not counted), so under steady load the two share the reads.
  it('each serves 35–65% of the reads over 20 s of load through the gateway', async () => {
    const before = await callsServed();
    const load = await measureLoadWhile(freshListing, () => sleep(20_000));
    const served = servedSince(before, await callsServed());
    expect(load.statuses.filter((status) => status !== 200)).toEqual([]);
    const total = [...served.values()].reduce((sum, count) => sum + count, 0);
    console.log(
      `${load.statuses.length} pages, ${total} reads: ${[...served.values()].join(' / ')}`,
    );
    expect(served.size).toBe(2);
    expect(total).toBeGreaterThan(100);
    for (const [id, count] of served)
      expect(`${id.slice(0, 12)}: ${Math.round((count / total) * 100)}%`).toMatch(
        /: (3[5-9]|[45]\d|6[0-5])%$/,
      );
  }, 120_000);

  it('one replica stops under load: no page request fails', async () => {
    const [, leaving] = await stack.containersOf('data');
    const load = await measureLoadWhile(freshListing, async () => {
      await sleep(1000);
      await run(['docker', 'stop', '-t', '10', leaving!]);
      await sleep(3000);
    });
    expect(load.statuses.length).toBeGreaterThan(20);
    expect(load.statuses.filter((status) => status !== 200)).toEqual([]);
    await run(['docker', 'start', leaving!]);
    await stack.waitHealthy(['data']);
  }, 120_000);

  it('a replica added with --scale gets reads within 30 s, with no render restart', async () => {
    const renderStarts = await startedAt('render');
    const existing = new Set(await stack.containersOf('data'));
    await stack.scale('data', 3);
    const added = (await stack.containersOf('data')).filter((id) => !existing.has(id));
    expect(added).toHaveLength(1);
    await stack.waitHealthy(['data']);
    const healthyAt = Date.now();
    const before = await callsServed();
    let reached = false;
    while (!reached && Date.now() - healthyAt < 30_000) {
      await measureLoadWhile(freshListing, () => sleep(2000));
      reached = (servedSince(before, await callsServed()).get(added[0]!) ?? 0) > 0;
    }
    console.log(`the added replica got reads ${Date.now() - healthyAt} ms after it was healthy`);
    expect(reached).toBe(true);
    expect(await startedAt('render')).toEqual(renderStarts);
  }, 180_000);
});
