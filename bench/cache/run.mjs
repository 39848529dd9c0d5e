#!/usr/bin/env node
// Benchmark of the render service's segment cache, everything on 127.0.0.1:
//  1. Throughput: the payload request for /bench/items (Strata-Payload: 1, Strata-Tree:
//     1;bench-root/bench-section/bench-item(p.id=1), matching _p) against two render services
//     over one data service, one with the cache (Redis, warm) and one with SEGMENT_CACHE=false,
//     in the same run, alternating which goes first, ROUNDS rounds: requests/s and p99.
//  2. Mixed load: 90 % of requests to 20 hot item pages, 10 % spread over the other 980, from a
//     cold cache, against each service in turn: data-service reads counted from the data
//     service's own log, per request, with and without the cache.
// Knobs (env): DURATION=8 WARMUP=2 (s) CONCURRENCY=32 ROUNDS=4 MIXED_DURATION=20 (s) OUT=path
//
//   npm run build          (at the repo root: the bench runs the built dist/)
//   node bench/cache/run.mjs
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { payloadHash } from '@strata/web';
import { closedLoop, get, seededRandom } from './load.mjs';
import { writeOutputs } from '../kit/out.mjs';
import { root, startData, startRedis, startRender } from './stack.mjs';
import http from 'node:http';

const knob = (name, fallback) => Number(process.env[name] ?? fallback);
const knobs = {
  DURATION: knob('DURATION', 8),
  WARMUP: knob('WARMUP', 2),
  CONCURRENCY: knob('CONCURRENCY', 32),
  ROUNDS: knob('ROUNDS', 4),
  MIXED_DURATION: knob('MIXED_DURATION', 20),
};
const log = (...args) => console.error('[bench]', ...args);
const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

const LIST_TREE = '1;bench-root/bench-section/bench-item(p.id=1)';
const ITEM_TREE = '1;bench-root/bench-section/bench-items';
const payload = (path, tree) => ({
  path: `${path}?_p=${payloadHash({ tree, prefetch: undefined })}`,
  headers: { 'strata-payload': '1', 'strata-tree': tree },
});
const listRequest = payload('/bench/items', LIST_TREE);

/** A good payload answer: route, one segment with data, end. */
function goodPayload(answer) {
  return (
    answer.status === 200 &&
    answer.body.startsWith('{"type":"route"') &&
    answer.body.includes('"type":"segment"') &&
    answer.body.endsWith('{"type":"end","v":1}\n')
  );
}

function segmentData(body) {
  return body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .find((record) => record.type === 'segment')?.data;
}

async function metric(port, name) {
  const agent = new http.Agent();
  const text = (await get(agent, port, { path: '/metrics', headers: {} })).body;
  agent.destroy();
  return text
    .split('\n')
    .filter((line) => line.startsWith(name))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

const results = {
  command: `${Object.keys(knobs)
    .filter((k) => process.env[k] !== undefined)
    .map((k) => `${k}=${process.env[k]} `)
    .join('')}node bench/cache/run.mjs`,
  startedAt: new Date().toISOString(),
  commit: (() => {
    try {
      return execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
    } catch {
      return undefined;
    }
  })(),
  knobs,
  machine: {
    nproc: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    node: process.version,
    loadavgBefore: os.loadavg(),
  },
  throughput: { rounds: [] },
  mixed: {},
};

const stops = [];
const cleanup = () => {
  for (const stop of stops.reverse()) {
    try {
      stop();
    } catch {
      // already gone
    }
  }
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

try {
  const redis = await startRedis();
  stops.push(redis.stop);
  const data = await startData();
  stops.push(data.stop);
  const cached = await startRender('cached', {
    DATA_SERVICE_ADDRESS: data.address,
    REDIS_URL: redis.url,
  });
  stops.push(cached.stop);
  const uncached = await startRender('uncached', {
    DATA_SERVICE_ADDRESS: data.address,
    SEGMENT_CACHE: 'false',
  });
  stops.push(uncached.stop);

  // Both answer the same data; the cached one then serves it from its warm cache.
  const agent = new http.Agent({ keepAlive: true });
  const a = await get(agent, cached.port, listRequest);
  const b = await get(agent, uncached.port, listRequest);
  if (!goodPayload(a) || !goodPayload(b)) throw new Error(`bad answer: ${a.status} ${b.status}`);
  if (JSON.stringify(segmentData(a.body)) !== JSON.stringify(segmentData(b.body)))
    throw new Error('cached and uncached answers differ');
  if (segmentData(a.body).items.length !== 100) throw new Error('expected 100 items');
  results.throughput.answerBytes = Buffer.byteLength(a.body);
  for (let i = 0; i < 50; i++) await get(agent, cached.port, listRequest);
  agent.destroy();

  const run = (target) =>
    closedLoop({
      port: target.port,
      next: () => listRequest,
      check: goodPayload,
      concurrency: knobs.CONCURRENCY,
      warmupMs: knobs.WARMUP * 1000,
      durationMs: knobs.DURATION * 1000,
    });
  for (let round = 1; round <= knobs.ROUNDS; round++) {
    const order = round % 2 === 1 ? [cached, uncached] : [uncached, cached];
    const entry = { round, order: order.map((t) => t.name).join('>') };
    for (const target of order) {
      entry[target.name] = await run(target);
      log(
        `round ${round} ${target.name}: ${fixed(entry[target.name].rps, 0)} req/s, p99 ${fixed(entry[target.name].p99, 2)} ms, errors ${entry[target.name].errors}`,
      );
    }
    results.throughput.rounds.push(entry);
  }
  results.throughput.cachedMetrics = {
    hits: await metric(cached.port, 'strata_segment_cache_hits_total'),
    staleHits: await metric(cached.port, 'strata_segment_cache_stale_hits_total'),
    misses: await metric(cached.port, 'strata_segment_cache_misses_total'),
    regenerations: await metric(cached.port, 'strata_segment_cache_regenerations_total'),
    errors: await metric(cached.port, 'strata_segment_cache_errors_total'),
  };

  // Mixed load from a cold cache, data-service reads counted from its own log.
  const counted = await startData({ countReads: true });
  stops.push(counted.stop);
  const mixedCached = await startRender('mixed-cached', {
    DATA_SERVICE_ADDRESS: counted.address,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: 'bench-mixed:',
  });
  stops.push(mixedCached.stop);
  const mixedUncached = await startRender('mixed-uncached', {
    DATA_SERVICE_ADDRESS: counted.address,
    SEGMENT_CACHE: 'false',
  });
  stops.push(mixedUncached.stop);
  for (const target of [mixedCached, mixedUncached]) {
    const random = seededRandom(42);
    let sent = 0;
    const readsBefore = counted.reads();
    const outcome = await closedLoop({
      port: target.port,
      next: () => {
        sent += 1;
        const hot = random() < 0.9;
        const id = hot ? 1 + Math.floor(random() * 20) : 21 + Math.floor(random() * 980);
        return payload(`/bench/items/${id}`, ITEM_TREE);
      },
      check: goodPayload,
      concurrency: knobs.CONCURRENCY,
      warmupMs: 0,
      durationMs: knobs.MIXED_DURATION * 1000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // let the log catch up
    const reads = counted.reads() - readsBefore;
    results.mixed[target.name] = { ...outcome, sent, reads, readsPerRequest: reads / sent };
    log(`mixed ${target.name}: ${sent} requests, ${reads} data-service reads`);
  }
  results.mixed.readReduction =
    1 -
    results.mixed['mixed-cached'].readsPerRequest / results.mixed['mixed-uncached'].readsPerRequest;
} finally {
  cleanup();
}

const rounds = results.throughput.rounds;
const mean = (name, field) => rounds.reduce((sum, r) => sum + r[name][field], 0) / rounds.length;
results.summary = {
  cachedRps: mean('cached', 'rps'),
  uncachedRps: mean('uncached', 'rps'),
  speedup: mean('cached', 'rps') / mean('uncached', 'rps'),
  cachedP99: mean('cached', 'p99'),
  uncachedP99: mean('uncached', 'p99'),
  readReduction: results.mixed.readReduction,
};
results.machine.loadavgAfter = os.loadavg();
const json = `${JSON.stringify(results, null, 2)}\n`;
const file = `run-${results.startedAt.replace(/[:.]/g, '-').slice(0, 19)}.json`;
let out = process.env.OUT;
if (out) {
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, json);
} else out = join(writeOutputs('cache', { [file]: json }), file);

console.log(`| round | order | cached req/s | cached p99 ms | uncached req/s | uncached p99 ms |`);
console.log(`|---|---|---|---|---|---|`);
for (const r of rounds)
  console.log(
    `| ${r.round} | ${r.order} | ${fixed(r.cached.rps, 0)} | ${fixed(r.cached.p99, 2)} | ${fixed(r.uncached.rps, 0)} | ${fixed(r.uncached.p99, 2)} |`,
  );
const s = results.summary;
console.log(
  `\nmean: cached ${fixed(s.cachedRps, 0)} req/s (p99 ${fixed(s.cachedP99, 2)} ms), uncached ${fixed(s.uncachedRps, 0)} req/s (p99 ${fixed(s.uncachedP99, 2)} ms): ${fixed(s.speedup, 2)}x`,
);
for (const name of ['mixed-cached', 'mixed-uncached']) {
  const m = results.mixed[name];
  console.log(
    `${name}: ${m.sent} requests, ${m.reads} data-service reads (${fixed(m.readsPerRequest, 3)}/request), ${fixed(m.rps, 0)} req/s, p99 ${fixed(m.p99, 2)} ms`,
  );
}
console.log(`data-service reads reduced by ${fixed(100 * s.readReduction, 1)} %`);
console.log(`written to ${out}`);
