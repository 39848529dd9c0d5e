// Relay benchmark: envelopes/s accepted and forwarded, p99 latency and memory under 10x overload,
// against a bare Fastify endpoint that reads and discards the body (the ceiling), in one run.
// Usage (from the repo root):
//   node bench/relay/run.mjs [--duration 10] [--connections 64] [--source] [--baseline DIR]
// The relay runs as `npm start` runs it: the built services/relay/dist/main.js (run `npm run
// build` first). --source runs services/relay/src/main.ts through tsx instead (how runs before
// 2026-11-23 evening were made). A "floor" row measures forward-floor.mjs: read, forward with
// undici, answer; nothing else. --baseline DIR adds a row for another copy of the relay (e.g. an
// older commit extracted with git archive; with --source) measured in the same run.
// Everything listens on 127.0.0.1; every load loop is bounded in time and stops by itself.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { rssMiB } from '../kit/memory.mjs';
import {
  cpuMs,
  fixture,
  postEnvelopes,
  relayBenchEnv,
  repo,
  startServer,
  stopServer,
} from './lib/processes.mjs';

// parseArgs refuses unknown options and a value-less --duration, rather than running a default.
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    baseline: { type: 'string' },
    source: { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const BASELINE = values.baseline;
const FROM_SOURCE = values.source;
const here = fileURLToPath(new URL('./', import.meta.url));

/** The relay of the checkout at `root`, built (as `npm start` runs it) or from source via tsx. */
function relayCommand(root) {
  if (FROM_SOURCE)
    return [
      '--conditions=@strata/source',
      '--import',
      'tsx',
      join(root, 'services/relay/src/main.ts'),
    ];
  const built = join(root, 'services/relay/dist/main.js');
  if (!existsSync(built))
    throw new Error(`${built} is missing: run npm run build there, or pass --source`);
  return [...RELAY_NODE_FLAGS, built];
}

const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function load(url, duration = DURATION) {
  const result = await postEnvelopes(url, { connections: CONNECTIONS, duration });
  return {
    rps: result.requests.average,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    seconds: duration,
  };
}

async function upstreamCount(url) {
  return (await (await fetch(`${url}/count`)).json()).count;
}

async function relayRun(
  name,
  { fsync = true, delayMs = 0, filters, memorySamples = false, root = repo, command } = {},
) {
  const upstream = await startServer([join(here, 'upstream-server.mjs')], {
    DELAY_MS: String(delayMs),
  });
  const spoolDir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  const env = {
    ...relayBenchEnv(upstream.url, spoolDir),
    RELAY_SPOOL_FSYNC: String(fsync),
    ...(filters === undefined ? {} : { RELAY_FILTERS: filters }),
  };
  const relay = await startServer(command ?? relayCommand(root), env);
  // Warm up (JIT, connection pools), then measure.
  await load(relay.url, 2);
  const before = await upstreamCount(upstream.url);
  const samples = [];
  const sampler = setInterval(() => samples.push(rssMiB(relay.child.pid)), 500);
  const cpuBefore = [cpuMs(relay.child.pid), cpuMs(upstream.child.pid)];
  const started = Date.now();
  const result = await load(relay.url);
  clearInterval(sampler);
  const cpuAfter = [cpuMs(relay.child.pid), cpuMs(upstream.child.pid)];
  const forwardedDuringLoad = (await upstreamCount(upstream.url)) - before;
  const loadSeconds = (Date.now() - started) / 1000;
  // Let the backlog drain (bounded) to report end-to-end forwarding; under overload the backlog
  // takes minutes at ~128/s, so only a short look.
  const drainDeadline = Date.now() + (delayMs > 0 ? 2_000 : 60_000);
  let forwarded = forwardedDuringLoad;
  while (Date.now() < drainDeadline) {
    forwarded = (await upstreamCount(upstream.url)) - before;
    if (forwarded >= result.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const drainSeconds = (Date.now() - started) / 1000;
  const row = {
    name,
    ...result,
    forwardedPerSecondDuringLoad: forwardedDuringLoad / loadSeconds,
    forwardedTotal: forwarded,
    endToEndSeconds: drainSeconds,
    relayCpuUsPerRequest: ((cpuAfter[0] - cpuBefore[0]) * 1000) / result.ok,
    upstreamCpuUsPerRequest:
      forwardedDuringLoad > 0 ? ((cpuAfter[1] - cpuBefore[1]) * 1000) / forwardedDuringLoad : 0,
    rssStartMb: samples[0],
    rssPeakMb: Math.max(...samples),
    rssEndMb: samples.at(-1),
    memorySamples: memorySamples ? samples.map((s) => Math.round(s)) : undefined,
  };
  await stopServer(relay.child);
  await stopServer(upstream.child);
  rmSync(spoolDir, { recursive: true, force: true });
  return row;
}

const rows = [];
const log = (row) =>
  console.error(`[bench] ${row.name}: ${Math.round(row.rps)} req/s, p99 ${row.p99} ms`);
{
  const ceiling = await startServer([join(here, 'discard-server.mjs')]);
  await load(ceiling.url, 2);
  const samples = [];
  const sampler = setInterval(() => samples.push(rssMiB(ceiling.child.pid)), 500);
  const cpuBefore = cpuMs(ceiling.child.pid);
  const result = await load(ceiling.url);
  rows.push({
    name: 'ceiling: bare Fastify, read+discard',
    ...result,
    relayCpuUsPerRequest: ((cpuMs(ceiling.child.pid) - cpuBefore) * 1000) / result.ok,
    rssPeakMb: Math.max(...samples),
  });
  log(rows.at(-1));
  clearInterval(sampler);
  await stopServer(ceiling.child);
}
const loadBefore = loadAverage();
rows.push(await relayRun('relay, filters on, fsync on'));
log(rows.at(-1));
// What forwarding alone costs on this machine: the bound for any relay that sends each
// envelope upstream as its own request.
rows.push(
  await relayRun('floor: bare Fastify + undici forward (no parsing, filters or spool)', {
    command: [join(here, 'forward-floor.mjs')],
  }),
);
log(rows.at(-1));
if (BASELINE) {
  rows.push(
    await relayRun(`baseline relay (${BASELINE}), filters on, fsync on`, { root: BASELINE }),
  );
  log(rows.at(-1));
}
rows.push(await relayRun('relay, filters off, fsync on', { filters: '' }));
log(rows.at(-1));
rows.push(await relayRun('relay, filters on, fsync off', { fsync: false }));
log(rows.at(-1));
// 10x overload: the upstream takes 500 ms per envelope, so 64 in flight forward ~128/s while
// the load offers an order of magnitude more; the spool absorbs the rest on disk.
rows.push(
  await relayRun('relay, 10x overload (upstream 500 ms)', { delayMs: 500, memorySamples: true }),
);
log(rows.at(-1));

const ceilingRps = rows[0].rps;
console.log(
  `\nrelay benchmark: ${DURATION}s per run, ${CONNECTIONS} connections, body ${fixture.length} bytes (browser-03-event)`,
);
console.log(
  `load average (1/5/15 min) after the ceiling run: ${loadBefore}; at the end: ${loadAverage()}\n`,
);
console.log(
  '| run | accepted req/s | ratio to ceiling | p50 ms | p99 ms | non-2xx | forwarded/s during load | server CPU µs/req | upstream CPU µs/req | RSS start/peak/end MB |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) {
  const ratio = `${((row.rps / ceilingRps) * 100).toFixed(0)} %`;
  const forwarded =
    row.forwardedPerSecondDuringLoad === undefined
      ? '–'
      : row.forwardedPerSecondDuringLoad.toFixed(0);
  const rss =
    row.rssStartMb === undefined
      ? `– / ${row.rssPeakMb?.toFixed(0)} / –`
      : `${row.rssStartMb.toFixed(0)} / ${row.rssPeakMb.toFixed(0)} / ${row.rssEndMb.toFixed(0)}`;
  const upstreamCpu = row.upstreamCpuUsPerRequest ? row.upstreamCpuUsPerRequest.toFixed(0) : '–';
  console.log(
    `| ${row.name} | ${row.rps.toFixed(0)} | ${ratio} | ${row.p50} | ${row.p99} | ${row.non2xx} | ${forwarded} | ${row.relayCpuUsPerRequest.toFixed(0)} | ${upstreamCpu} | ${rss} |`,
  );
}
const overload = rows.at(-1);
console.log(`\noverload RSS samples (MB, every 0.5 s): ${overload.memorySamples.join(' ')}`);
console.log(`\n${JSON.stringify(rows.map(({ memorySamples: _samples, ...rest }) => rest))}`);
