#!/usr/bin/env node
// The shared store's hit path, A/B: two built copies of the render service's Redis segment store
// (services/render/dist/segment-cache/redis-segment-store.js) read the same kind of entry (a
// 22 KB body with 3 tags, as the bench page's segment) from one Redis (the stack's redis.conf,
// started as the cache bench starts it), 32 reads in flight, one
// side then the other, alternating which goes first each round. Reports reads per second and the
// median of the B ÷ A pairs: what a change to the store's scripts costs a front-cache miss.
//
//   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules \
//     && (cd /tmp/base && npx tsc -p services/render/tsconfig.build.json)
//   npm run build
//   node bench/cache/store-ab.mjs --a /tmp/base --b . [--rounds 10] [--seconds 3]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { startRedis } from './stack.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { Redis } = createRequire(path.join(REPO, 'services/render/package.json'))('ioredis');
const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
  },
});
if (!values.a) throw new Error('--a <built checkout> is required');
const STORE = 'services/render/dist/segment-cache/redis-segment-store.js';
const load = async (root) =>
  (await import(pathToFileURL(path.resolve(root, STORE)).href)).createRedisSegmentStore;

const redisServer = await startRedis();
const redis = new Redis(redisServer.url);
try {
  const body = 'x'.repeat(22_000);
  const sides = [];
  for (const [label, root] of [
    ['A', values.a],
    ['B', values.b],
  ]) {
    const store = (await load(root))(redis, `bench:${label}:`);
    const stored = await store.put('build', 'key', body, ['t1', 't2', 't3'], 0, 600_000);
    if (!stored) throw new Error(`${label}: the entry was not stored`);
    if ((await store.get('build', 'key')) !== body) throw new Error(`${label}: read back differs`);
    sides.push({ label, root, store, rates: [] });
  }
  /** Reads for `seconds`, 32 in flight; returns reads per second. */
  const measure = async (store, seconds) => {
    let reads = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (performance.now() < until) {
          await store.get('build', 'key');
          reads++;
        }
      }),
    );
    return reads / seconds;
  };
  for (const side of sides) await measure(side.store, 1);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const side of round % 2 ? [...sides].reverse() : sides)
      side.rates.push(await measure(side.store, Number(values.seconds)));
    const [a, b] = sides.map((side) => side.rates.at(-1));
    console.log(
      `round ${round + 1}: A ${a.toFixed(0)}/s, B ${b.toFixed(0)}/s, B/A ${(b / a).toFixed(3)}`,
    );
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const pairs = sides[0].rates.map((a, i) => sides[1].rates[i] / a);
  console.log(`A ${sides[0].root}: median ${median(sides[0].rates).toFixed(0)} reads/s`);
  console.log(`B ${sides[1].root}: median ${median(sides[1].rates).toFixed(0)} reads/s`);
  console.log(
    `median of pairs B/A ${median(pairs).toFixed(3)} (min ${Math.min(...pairs).toFixed(3)}, max ${Math.max(...pairs).toFixed(3)})`,
  );
} finally {
  redis.disconnect();
  redisServer.stop();
}
