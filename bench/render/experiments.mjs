#!/usr/bin/env node
// Where the render service's CPU per request goes, by subtraction, under the anchor benchmark's
// load (anchors' autocannon, 50 connections, one server at a time, servers alternating per
// round). CPU ms/req from /proc (utime+stime of each server process) ÷ completed requests.
//
//   fastify-react     the anchors' minimal renderer (in-process data)
//   strata + data     the render service behind the data service over gRPC (as benchmarked)
//   strata, stub data the same render service with its data-service reads replaced by an
//                     in-process stub answering the same ListItemsResponse bytes (lib/stub-server.mjs)
//   strata, stub slim the stub sending only the 4 printed fields (what a list view would send)
//   base: strata + data  with BASE=<another built checkout>: that build's pair, in the same
//                     rotation, so a change is measured against its base in the same run
//
// Usage: node bench/render/experiments.mjs   (after `npm run build` and the anchors' npm ci)
// Env: ROUNDS (3) DURATION (8) WARMUP (3) CONNECTIONS (50) KINDS (html,nav) RATE (req/s, fixed)
//      SERVERS (name filter) NAME BASE (root of a built checkout to compare with; always kept)
//      NODE_ARGS (node flags for this build's render and data services), BASE_NODE_ARGS (BASE's)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { BENCH_DATA_ENV, benchRenderEnv } from './lib/service-env.mjs';
import {
  ANCHORS,
  HERE,
  REPO,
  autocannon,
  cpuTicks as ticks,
  resultsDir,
  sleep,
  untilOk,
} from './lib/bench-setup.mjs';

const env = process.env;
const ROUNDS = Number(env.ROUNDS || 3);
const DURATION = Number(env.DURATION || 8);
const WARMUP = Number(env.WARMUP || 3);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const KINDS = (env.KINDS || 'html,nav').split(',');
// RATE: a fixed overall request rate (autocannon overallRate) instead of as fast as possible,
// so every server is compared at the same load (CPU per request falls as batching grows).
const RATE = env.RATE ? Number(env.RATE) : undefined;
const load = (opts) =>
  autocannon({ ...opts, connections: CONNECTIONS, ...(RATE && { overallRate: RATE }) });
const OUT = resultsDir('experiments');
const NAME = path.basename(OUT);
const DATA_PORT = 50363;
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';

const t0 = Date.now();
const say = (m) =>
  console.log(`[experiments ${String(Math.round((Date.now() - t0) / 1000)).padStart(3)}s] ${m}`);
const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const machineBusy = () => {
  const [, user, nice, system, , , irq, softirq, steal] = fs
    .readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .map(Number);
  return user + nice + system + irq + softirq + (steal || 0);
};

const { payloadHash } = await import(path.join(REPO, 'packages/web/dist/index.js'));
const NAV = {
  path: `/bench/items?_p=${payloadHash({ tree: TREE, prefetch: undefined })}`,
  headers: { 'Strata-Payload': '1', 'Strata-Tree': TREE },
};
const HTML = { path: '/bench/items', headers: {} };

function launch(args, extraEnv, cwd = REPO) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...env, NODE_ENV: 'production', LOG_LEVEL: 'silent', ...extraEnv },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    exited,
    stop: async () => (
      child.kill('SIGTERM'),
      await Promise.race([exited, sleep(10_000)]),
      child.kill('SIGKILL')
    ),
  };
}

const portOpen = (port) =>
  new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/** The render service behind the data service, both from the build at `root`. */
async function startPair(root, renderPort, dataPort, nodeArgs = []) {
  const data = launch(
    [...nodeArgs, 'services/data/dist/main.js'],
    { ...BENCH_DATA_ENV, DATA_PORT: String(dataPort) },
    root,
  );
  while (!(await portOpen(dataPort))) await sleep(100);
  const render = launch(
    [...nodeArgs, 'services/render/dist/main.js'],
    benchRenderEnv({ renderPort, dataPort, root }),
    root,
  );
  return [render, data];
}

const BASE = env.BASE ? path.resolve(env.BASE) : undefined;
// Node flags for each build's services (e.g. a V8 heap setting against the same BASE).
const NODE_ARGS = (env.NODE_ARGS || '').split(' ').filter(Boolean);
const BASE_NODE_ARGS = (env.BASE_NODE_ARGS || '').split(' ').filter(Boolean);
const BASE_NAME = 'base: strata + data';

const SERVERS = [
  {
    name: 'fastify-react',
    port: 3108,
    kinds: ['html'],
    start: () => [
      launch(
        [path.join(ANCHORS, 'fastify-react/server.mjs')],
        { MODE: 'react', PORT: '3108' },
        ANCHORS,
      ),
    ],
  },
  {
    name: 'strata + data',
    port: 3208,
    kinds: ['html', 'nav'],
    start: () => startPair(REPO, 3208, DATA_PORT, NODE_ARGS),
  },
  ...(BASE
    ? [
        {
          name: BASE_NAME,
          port: 3212,
          kinds: ['html', 'nav'],
          start: () => startPair(BASE, 3212, DATA_PORT + 2, BASE_NODE_ARGS),
        },
      ]
    : []),
  {
    name: 'strata, stub data',
    port: 3207,
    kinds: ['html', 'nav'],
    start: () => [launch([path.join(HERE, 'lib/stub-server.mjs')], { RENDER_PORT: '3207' })],
  },
  {
    name: 'strata, stub slim',
    port: 3209,
    kinds: ['html', 'nav'],
    start: () => [
      launch([path.join(HERE, 'lib/stub-server.mjs')], { RENDER_PORT: '3209', STUB_VIEW: 'slim' }),
    ],
  },
];

// SERVERS: comma-separated substrings selecting servers, or =name for exactly that one
// (fastify-react and the base pair are always kept: the ratios need them).
if (env.SERVERS) {
  const want = env.SERVERS.split(',');
  SERVERS.splice(
    0,
    SERVERS.length,
    ...SERVERS.filter(
      (s) =>
        s.name === 'fastify-react' ||
        s.name === BASE_NAME ||
        want.some((w) => (w.startsWith('=') ? s.name === w.slice(1) : s.name.includes(w))),
    ),
  );
}
const records = [];
say(
  `load average ${loadavg()}; ${ROUNDS} rounds, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s`,
);
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? SERVERS : [...SERVERS].reverse();
  for (const server of order) {
    if (await portOpen(server.port))
      throw new Error(`port ${server.port} (${server.name}) is in use`);
    const procs = await server.start();
    const base = `http://127.0.0.1:${server.port}`;
    try {
      await untilOk(base + HTML.path);
      for (const kind of server.kinds.filter((k) => KINDS.includes(k))) {
        const req = kind === 'nav' ? NAV : HTML;
        await load({ url: base + req.path, headers: req.headers, duration: WARMUP });
        const a = procs.map((p) => ticks(p.child.pid));
        const m0 = machineBusy();
        const r = await load({ url: base + req.path, headers: req.headers, duration: DURATION });
        const b = procs.map((p) => ticks(p.child.pid));
        const n = r.requests.total;
        const rec = {
          round,
          server: server.name,
          kind,
          requests: n,
          reqPerSec: n / r.duration,
          renderCpuMsPerReq: ((b[0] - a[0]) * 10) / n,
          dataCpuMsPerReq: procs[1] ? ((b[1] - a[1]) * 10) / n : null,
          machineCores: (machineBusy() - m0) / 100 / r.duration,
          failed: r.errors + r.timeouts + r.non2xx,
        };
        records.push(rec);
        say(
          `round ${round} ${server.name} ${kind}: ${Math.round(rec.reqPerSec)} req/s, render ${rec.renderCpuMsPerReq.toFixed(2)} CPU ms/req` +
            (rec.dataCpuMsPerReq !== null ? `, data ${rec.dataCpuMsPerReq.toFixed(2)}` : '') +
            `, machine ${rec.machineCores.toFixed(2)} cores${rec.failed ? `, FAILED ${rec.failed}` : ''}`,
        );
      }
    } finally {
      for (const p of procs) await p.stop();
    }
    await sleep(500);
  }
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  return v.length
    ? v.length % 2
      ? v[v.length >> 1]
      : (v[v.length / 2 - 1] + v[v.length / 2]) / 2
    : null;
};
const fr = (round) =>
  records.find((r) => r.round === round && r.server === 'fastify-react')?.renderCpuMsPerReq;
const rows = [];
for (const s of SERVERS)
  for (const kind of s.kinds.filter((k) => KINDS.includes(k))) {
    const rs = records.filter((r) => r.server === s.name && r.kind === kind);
    rows.push({
      server: s.name,
      kind,
      reqPerSec: median(rs.map((r) => r.reqPerSec)),
      render: median(rs.map((r) => r.renderCpuMsPerReq)),
      data: median(rs.map((r) => r.dataCpuMsPerReq)),
      vsFastify: median(rs.map((r) => r.renderCpuMsPerReq / fr(r.round))),
      perRound: rs.map((r) => r.renderCpuMsPerReq),
    });
  }
// With BASE: each server's per-round ratios to the base pair (same round, same request kind).
const baseRecord = (r) =>
  records.find((b) => b.round === r.round && b.kind === r.kind && b.server === BASE_NAME);
const vsBase = [];
if (BASE)
  for (const row of rows.filter((r) => r.server !== BASE_NAME && r.server !== 'fastify-react')) {
    const rs = records.filter((r) => r.server === row.server && r.kind === row.kind);
    const ratio = (pick) => median(rs.map((r) => pick(r) / pick(baseRecord(r))));
    vsBase.push({
      server: row.server,
      kind: row.kind,
      render: ratio((r) => r.renderCpuMsPerReq),
      data: ratio((r) => r.dataCpuMsPerReq),
      both: ratio((r) => r.renderCpuMsPerReq + r.dataCpuMsPerReq),
      reqPerSec: ratio((r) => r.reqPerSec),
      perRound: rs.map((r) => [
        r.renderCpuMsPerReq / baseRecord(r).renderCpuMsPerReq,
        r.dataCpuMsPerReq / baseRecord(r).dataCpuMsPerReq,
      ]),
    });
  }
const fmt = (x, d = 2) => (x === null || !Number.isFinite(x) ? '–' : x.toFixed(d));
const md = [
  `${NAME}: ${ROUNDS} rounds, ${CONNECTIONS} connections${RATE ? `, fixed overall rate ${RATE} req/s` : ''}, ${WARMUP} s warm-up + ${DURATION} s, servers alternating; load average at end ${loadavg()}.`,
  '',
  '| server | request | req/s | render CPU ms/req | data CPU ms/req | render ÷ fastify-react (per-round median) | render CPU ms/req per round |',
  '|---|---|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.server} | ${r.kind} | ${fmt(r.reqPerSec, 0)} | ${fmt(r.render)} | ${fmt(r.data)} | ${fmt(r.vsFastify)} | ${r.perRound.map((x) => fmt(x)).join(' / ')} |`,
  ),
  '',
  ...(BASE
    ? [
        `Against the base build (${BASE}), medians of per-round ratios:`,
        '',
        '| server | request | render CPU ÷ base | data CPU ÷ base | render + data ÷ base | req/s ÷ base | per round (render / data) |',
        '|---|---|---:|---:|---:|---:|---|',
        ...vsBase.map(
          (r) =>
            `| ${r.server} | ${r.kind} | ${fmt(r.render)} | ${fmt(r.data)} | ${fmt(r.both)} | ${fmt(r.reqPerSec)} | ${r.perRound.map(([a, b]) => `${fmt(a)} / ${fmt(b)}`).join(', ')} |`,
        ),
        '',
      ]
    : []),
].join('\n');
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'experiments.md'), md);
fs.writeFileSync(
  path.join(OUT, 'experiments.json'),
  JSON.stringify({ base: BASE ?? null, records, rows, vsBase }, null, 2) + '\n',
);
console.log('\n' + md);
