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
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, loadAverage, machineTicks } from '../kit/cpu.mjs';
import { load as autocannon, warmUp } from '../kit/load.mjs';
import { REPO, runName, writeOutputs } from '../kit/out.mjs';
import { freePort } from '../kit/ports.mjs';
import { busyTicks, USER_HZ } from '../kit/proc-stat.mjs';
import { startService } from '../kit/service.mjs';
import { median as medianOf } from '../kit/stats.mjs';
import { startPair as startServices } from './lib/pair.mjs';

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
const NAME = env.NAME || runName('experiments');
const HERE = path.dirname(fileURLToPath(import.meta.url));
if (!env.ANCHORS)
  throw new Error('ANCHORS must name the benchmark anchors (bench/anchors/README.md)');
const ANCHORS = path.resolve(env.ANCHORS);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';

const t0 = Date.now();
const say = (m) =>
  console.log(`[experiments ${String(Math.round((Date.now() - t0) / 1000)).padStart(3)}s] ${m}`);
const { payloadHash } = await import(path.join(REPO, 'packages/web/dist/index.js'));
const NAV = {
  path: `/bench/items?_p=${payloadHash({ tree: TREE, prefetch: undefined })}`,
  headers: { 'Strata-Payload': '1', 'Strata-Tree': TREE },
};
const HTML = { path: '/bench/items', headers: {} };

/** A server of the rotation on a free port, ready once /bench/items answers. */
async function launch(script, extraEnv, root = REPO) {
  const port = await freePort();
  const service = await startService({
    root,
    script,
    env: { LOG_LEVEL: 'silent', PORT: String(port), RENDER_PORT: String(port), ...extraEnv },
    ready: { http: `http://127.0.0.1:${port}${HTML.path}` },
    // Its own process group, as the anchors' driver runs its servers.
    detached: true,
  });
  return { base: service.url.replace(HTML.path, ''), procs: [service] };
}

/** The render service behind the data service, both from the build at `root`. */
async function startPair(root, nodeArgs = []) {
  // Only NODE_ARGS, not the deployed flags: the rows in RESULTS.md were measured so.
  const side = { baseFlags: [], flags: nodeArgs, env: { LOG_LEVEL: 'silent' }, detached: true };
  const pair = await startServices({ root, data: side, render: side });
  return { base: pair.render.url, procs: [pair.render, pair.data] };
}

const BASE = env.BASE ? path.resolve(env.BASE) : undefined;
// Node flags for each build's services (e.g. a V8 heap setting against the same BASE).
const NODE_ARGS = (env.NODE_ARGS || '').split(' ').filter(Boolean);
const BASE_NODE_ARGS = (env.BASE_NODE_ARGS || '').split(' ').filter(Boolean);
const BASE_NAME = 'base: strata + data';

const SERVERS = [
  {
    name: 'fastify-react',
    kinds: ['html'],
    start: () => launch('fastify-react/server.mjs', { MODE: 'react' }, ANCHORS),
  },
  {
    name: 'strata + data',
    kinds: ['html', 'nav'],
    start: () => startPair(REPO, NODE_ARGS),
  },
  ...(BASE
    ? [
        {
          name: BASE_NAME,
          kinds: ['html', 'nav'],
          start: () => startPair(BASE, BASE_NODE_ARGS),
        },
      ]
    : []),
  {
    name: 'strata, stub data',
    kinds: ['html', 'nav'],
    start: () => launch(path.join(HERE, 'lib/stub-server.mjs'), {}),
  },
  {
    name: 'strata, stub slim',
    kinds: ['html', 'nav'],
    start: () => launch(path.join(HERE, 'lib/stub-server.mjs'), { STUB_VIEW: 'slim' }),
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
  `load average ${loadAverage()}; ${ROUNDS} rounds, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s`,
);
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 ? SERVERS : [...SERVERS].reverse();
  for (const server of order) {
    const { base, procs } = await server.start();
    try {
      for (const kind of server.kinds.filter((k) => KINDS.includes(k))) {
        const req = kind === 'nav' ? NAV : HTML;
        const request = { url: base + req.path, headers: req.headers, connections: CONNECTIONS };
        await warmUp({ ...request, ...(RATE && { overallRate: RATE }) }, WARMUP);
        const a = procs.map((p) => cpuMs(p.pid));
        const m0 = busyTicks(machineTicks());
        const r = await load({ ...request, duration: DURATION });
        const b = procs.map((p) => cpuMs(p.pid));
        const n = r.completed;
        const rec = {
          round,
          server: server.name,
          kind,
          requests: n,
          reqPerSec: r.perSecond,
          renderCpuMsPerReq: (b[0] - a[0]) / n,
          dataCpuMsPerReq: procs[1] ? (b[1] - a[1]) / n : null,
          machineCores: (busyTicks(machineTicks()) - m0) / USER_HZ / DURATION,
          failed: r.failed,
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

// Rounds without a figure (no data service, a failed ratio) are left out.
const median = (xs) => {
  const v = xs.filter((x) => x !== null && Number.isFinite(x));
  return v.length ? medianOf(v) : null;
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
  `${NAME}: ${ROUNDS} rounds, ${CONNECTIONS} connections${RATE ? `, fixed overall rate ${RATE} req/s` : ''}, ${WARMUP} s warm-up + ${DURATION} s, servers alternating; load average at end ${loadAverage()}.`,
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
writeOutputs(`render/${NAME}`, {
  'experiments.md': md,
  'experiments.json': JSON.stringify({ base: BASE ?? null, records, rows, vsBase }, null, 2) + '\n',
});
console.log('\n' + md);
