// The shared store's hit path as a kit A/B scenario: two built copies of the render service's
// Redis segment store (services/render/dist/segment-cache/redis-segment-store.js) read the same
// kind of entry (a 22 KB body with 3 tags, as the bench page's segment) from one Redis (the
// stack's redis.conf, started as the cache bench starts it), `connections` reads in flight. Both
// stores run in this process, so one side is measured at a time.
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO } from '../kit/out.mjs';
import { startRedis } from './stack.mjs';

export const name = 'cache-store';
export const metrics = [{ key: 'readsPerSecond', label: 'reads/s', better: 'higher' }];

const STORE = 'services/render/dist/segment-cache/redis-segment-store.js';
const BODY = 'x'.repeat(22_000);
const TAGS = ['t1', 't2', 't3'];

/** One side from the environment: <L> the built checkout (default this one). */
export const sideFromEnv = (env, label, defaultRoot) => ({
  root: resolve(env[label] || defaultRoot),
});

/** A side as the guard would compare it: the checkout and nothing else. */
export const plainSide = (root) => ({ root: resolve(root) });

/** Reads the entry for `seconds` with `inFlight` reads at a time; reads per second. */
async function readsPerSecond(store, seconds, inFlight) {
  let reads = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) {
        await store.get('build', 'key');
        reads++;
      }
    }),
  );
  return reads / seconds;
}

/** Starts Redis, loads each side's store, writes and checks its entry, and warms both. */
export async function open(sides, { duration, connections = 32, warmup = 1 }) {
  const { Redis } = createRequire(join(REPO, 'services/render/package.json'))('ioredis');
  const redisServer = await startRedis();
  const redis = new Redis(redisServer.url);
  const close = async () => {
    redis.disconnect();
    redisServer.stop();
  };
  const stores = {};
  try {
    for (const [label, side] of Object.entries(sides)) {
      const module = await import(pathToFileURL(join(side.root, STORE)).href);
      const store = module.createRedisSegmentStore(redis, `bench:${label}:`);
      if (!(await store.put('build', 'key', BODY, TAGS, 0, 600_000)))
        throw new Error(`${label}: the entry was not stored`);
      if ((await store.get('build', 'key')) !== BODY)
        throw new Error(`${label}: the entry read back differs`);
      await readsPerSecond(store, warmup, connections);
      stores[label] = store;
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    measure: async (label) => ({
      readsPerSecond: await readsPerSecond(stores[label], duration, connections),
    }),
    close,
  };
}
