#!/usr/bin/env node
// CPU profile of the render service (and the data service behind it) under the anchor
// benchmark's load: both run with `node --cpu-prof`, the anchors' autocannon (50 connections)
// loads /bench/items (html) and/or the navigation payload for WARMUP + DURATION s each, and only
// the samples inside each measured window are summarised (bench/kit/profile-summary.mjs, with
// profile-views.mjs).
//
//   node bench/render/profile.mjs            # after `npm run build` and the anchors' npm ci
//
// Env: KINDS (html,nav) DURATION (10) WARMUP (3) CONNECTIONS (50) INTERVAL_US (500, sampling)
//      NAME (profile-<UTC time>) RENDER_PORT (3206) DATA_PORT (50362) ANCHORS PROFILE_DIR
// Output: bench/.out/render/$NAME/profile.md + profile.json; the .cpuprofile files stay in
// PROFILE_DIR (default /tmp/strata-render-profile), they are tens of MB.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, autocannon, cpuTicks as ticks, resultsDir, sleep } from './lib/bench-setup.mjs';
import { BENCH_DATA_ENV, benchRenderEnv } from './lib/service-env.mjs';
import { SERVICE_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { profileMarkdown, summariseProfile } from '../kit/profile-summary.mjs';
import { RENDER_INCLUSIVE, RENDER_NOT_OWNERS } from './profile-views.mjs';

const env = process.env;
const KINDS = (env.KINDS || 'html,nav').split(',');
const DURATION = Number(env.DURATION || 10);
const WARMUP = Number(env.WARMUP || 3);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const INTERVAL_US = Number(env.INTERVAL_US || 500);
const RENDER_PORT = Number(env.RENDER_PORT || 3206);
const DATA_PORT = Number(env.DATA_PORT || 50362);
const OUT = resultsDir('profile');
const NAME = path.basename(OUT);
const PROFILE_DIR = path.resolve(env.PROFILE_DIR || '/tmp/strata-render-profile');
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';
const BASE = `http://127.0.0.1:${RENDER_PORT}`;

const t0 = Date.now();
const say = (m) =>
  console.log(`[profile ${String(Math.round((Date.now() - t0) / 1000)).padStart(3)}s] ${m}`);
const nowUs = () => Number(process.hrtime.bigint() / 1000n); // CLOCK_MONOTONIC, like V8's sample stamps

function start(name, script, extraEnv, nodeArgs = []) {
  const dir = path.join(PROFILE_DIR, name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const logPath = path.join(dir, `${name}.log`);
  const log = fs.openSync(logPath, 'a');
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-interval=${INTERVAL_US}`,
      script,
    ],
    {
      cwd: REPO,
      env: { ...env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...extraEnv },
      stdio: ['ignore', log, log],
      detached: true,
    },
  );
  fs.closeSync(log);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { name, dir, child, exited, logPath };
}

async function stop(proc) {
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 20_000);
  await proc.exited;
  clearTimeout(timer);
  const file = fs.readdirSync(proc.dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${proc.name}: no .cpuprofile in ${proc.dir}`);
  return path.join(proc.dir, file);
}

async function waitFor(url, headers = {}) {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.status === 200) return res;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${url} not ready`);
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const { payloadHash } = await import(path.join(REPO, 'packages/web/dist/index.js'));
  const requests = {
    html: { path: '/bench/items', headers: {} },
    nav: {
      path: `/bench/items?_p=${payloadHash({ tree: TREE, prefetch: undefined })}`,
      headers: { 'Strata-Payload': '1', 'Strata-Tree': TREE },
    },
  };
  say(`load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  const data = start(
    'data',
    'services/data/dist/main.js',
    { ...BENCH_DATA_ENV, DATA_PORT: String(DATA_PORT) },
    SERVICE_NODE_FLAGS,
  );
  await sleep(500);
  const render = start(
    'render',
    'services/render/dist/main.js',
    benchRenderEnv({ renderPort: RENDER_PORT, dataPort: DATA_PORT }),
    SERVICE_NODE_FLAGS,
  );
  const windows = [];
  try {
    await waitFor(`${BASE}/bench/items`);
    say(`render pid ${render.child.pid}, data pid ${data.child.pid}: ready`);
    for (const kind of KINDS) {
      const req = requests[kind];
      const body = await (await waitFor(BASE + req.path, req.headers)).text();
      if (!body.includes('Item 100')) throw new Error(`${kind}: no "Item 100" in the answer`);
      say(`${kind}: warm-up ${WARMUP} s`);
      if (WARMUP > 0)
        await autocannon({
          url: BASE + req.path,
          headers: req.headers,
          connections: CONNECTIONS,
          duration: WARMUP,
        });
      const a = { us: nowUs(), r: ticks(render.child.pid), d: ticks(data.child.pid) };
      const r = await autocannon({
        url: BASE + req.path,
        headers: req.headers,
        connections: CONNECTIONS,
        duration: DURATION,
      });
      const b = { us: nowUs(), r: ticks(render.child.pid), d: ticks(data.child.pid) };
      const n = r.requests.total;
      const w = {
        kind,
        fromUs: a.us,
        toUs: b.us,
        requests: n,
        reqPerSec: n / r.duration,
        renderCpuMsPerReq: ((b.r - a.r) * 10) / n,
        dataCpuMsPerReq: ((b.d - a.d) * 10) / n,
        failed: r.errors + r.timeouts + r.non2xx,
      };
      windows.push(w);
      say(
        `${kind}: ${Math.round(w.reqPerSec)} req/s under the profiler; CPU ms/req render ${w.renderCpuMsPerReq.toFixed(2)}, ` +
          `data ${w.dataCpuMsPerReq.toFixed(2)}${w.failed ? `; FAILED ${w.failed}` : ''}`,
      );
      await sleep(500);
    }
  } finally {
    render.file = await stop(render).catch((e) => (console.error(e.message), null));
    data.file = await stop(data).catch((e) => (console.error(e.message), null));
  }
  const md = [
    `Profile of ${NAME}: node ${process.version}, --cpu-prof-interval ${INTERVAL_US} µs, ${CONNECTIONS} connections, ` +
      `${WARMUP} s warm-up + ${DURATION} s per request kind; load average at end ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}.`,
    '',
  ];
  const json = {
    name: NAME,
    intervalUs: INTERVAL_US,
    connections: CONNECTIONS,
    windows,
    profiles: {},
  };
  for (const proc of [render, data]) {
    if (!proc.file) continue;
    const profile = JSON.parse(fs.readFileSync(proc.file, 'utf8'));
    for (const w of windows) {
      const s = summariseProfile(profile, {
        fromUs: w.fromUs,
        toUs: w.toUs,
        notOwners: RENDER_NOT_OWNERS,
        inclusive: RENDER_INCLUSIVE,
      });
      json.profiles[`${proc.name}/${w.kind}`] = { file: proc.file, ...s };
      const cpu = proc.name === 'render' ? w.renderCpuMsPerReq : w.dataCpuMsPerReq;
      md.push(
        profileMarkdown(
          `${proc.name} service, ${w.kind} load (${Math.round(w.reqPerSec)} req/s, /proc CPU ${cpu.toFixed(2)} ms/req incl. other threads)`,
          s,
          { requests: w.requests },
        ),
      );
    }
  }
  fs.writeFileSync(path.join(OUT, 'profile.md'), md.join('\n'));
  fs.writeFileSync(path.join(OUT, 'profile.json'), JSON.stringify(json, null, 2) + '\n');
  say(
    `wrote ${path.relative(REPO, OUT)}/profile.md, profile.json; profiles: ${render.file}, ${data.file}`,
  );
}

main().catch((e) => {
  console.error(e.stack || e.message);
  process.exit(1);
});
