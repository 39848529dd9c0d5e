#!/usr/bin/env node
// CPU profile of the render service (and the data service behind it) under the anchor
// benchmark's load: both run with `node --cpu-prof`, autocannon (50 connections) loads
// /bench/items (html) and/or the navigation payload for WARMUP + DURATION s each, and only the
// samples inside each measured window are summarised (bench/kit/profile-summary.mjs, with
// profile-views.mjs).
//
//   node bench/render/profile.mjs            # after `npm run build`
//
// Env: KINDS (html,nav) DURATION (10) WARMUP (3) CONNECTIONS (50) INTERVAL_US (500, sampling)
//      NAME (profile-<UTC time>) RENDER_PORT, DATA_PORT (free ports) ANCHORS (their autocannon)
// Output: bench/.out/render/$NAME/profile.md + profile.json, and the .cpuprofile files (tens of
// MB) under its profiles/.
import { join, relative } from 'node:path';
import { cpuMs, loadAverage } from '../kit/cpu.mjs';
import { load, warmUp } from '../kit/load.mjs';
import { REPO, runName, writeOutputs } from '../kit/out.mjs';
import { cpuProfileFlags, newestProfileFile } from '../kit/profile.mjs';
import { profileMarkdown, summariseProfile } from '../kit/profile-summary.mjs';
import { cpuMsPerRequest } from '../kit/proc-stat.mjs';
import { readFileSync } from 'node:fs';
import { startPair } from './lib/pair.mjs';
import { RENDER_INCLUSIVE, RENDER_NOT_OWNERS } from './profile-views.mjs';

const env = process.env;
const KINDS = (env.KINDS || 'html,nav').split(',');
const DURATION = Number(env.DURATION || 10);
const WARMUP = Number(env.WARMUP || 3);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const INTERVAL_US = Number(env.INTERVAL_US || 500);
const NAME = env.NAME || runName('profile');
const OUT = join('render', NAME);
const PROFILES = join(REPO, 'bench/.out', OUT, 'profiles');
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';

const t0 = Date.now();
const say = (m) =>
  console.log(`[profile ${String(Math.round((Date.now() - t0) / 1000)).padStart(3)}s] ${m}`);
const nowUs = () => Number(process.hrtime.bigint() / 1000n); // CLOCK_MONOTONIC, like V8's sample stamps
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { payloadHash } = await import(join(REPO, 'packages/web/dist/index.js'));
const requests = {
  html: { path: '/bench/items', headers: {} },
  nav: {
    path: `/bench/items?_p=${payloadHash({ tree: TREE, prefetch: undefined })}`,
    headers: { 'Strata-Payload': '1', 'Strata-Tree': TREE },
  },
};

say(`load average ${loadAverage()}`);
const profiled = (name) => cpuProfileFlags(join(PROFILES, name), { intervalUs: INTERVAL_US });
const pair = await startPair({
  data: { port: Number(env.DATA_PORT) || undefined, flags: profiled('data') },
  render: { port: Number(env.RENDER_PORT) || undefined, flags: profiled('render') },
});
const processes = { render: pair.render, data: pair.data };
const windows = [];
try {
  say(`render pid ${pair.render.pid}, data pid ${pair.data.pid}: ready`);
  for (const kind of KINDS) {
    const request = { url: pair.render.url + requests[kind].path, headers: requests[kind].headers };
    const body = await (await fetch(request.url, { headers: request.headers })).text();
    if (!body.includes('Item 100')) throw new Error(`${kind}: no "Item 100" in the answer`);
    say(`${kind}: warm-up ${WARMUP} s`);
    if (WARMUP > 0) await warmUp({ ...request, connections: CONNECTIONS }, WARMUP);
    const a = { us: nowUs(), render: cpuMs(pair.render.pid), data: cpuMs(pair.data.pid) };
    const outcome = await load({ ...request, connections: CONNECTIONS, duration: DURATION });
    const b = { us: nowUs(), render: cpuMs(pair.render.pid), data: cpuMs(pair.data.pid) };
    const w = {
      kind,
      fromUs: a.us,
      toUs: b.us,
      requests: outcome.completed,
      reqPerSec: outcome.perSecond,
      renderCpuMsPerReq: cpuMsPerRequest(a.render, b.render, outcome.completed),
      dataCpuMsPerReq: cpuMsPerRequest(a.data, b.data, outcome.completed),
      failed: outcome.failed,
    };
    windows.push(w);
    say(
      `${kind}: ${Math.round(w.reqPerSec)} req/s under the profiler; CPU ms/req render ${w.renderCpuMsPerReq.toFixed(2)}, ` +
        `data ${w.dataCpuMsPerReq.toFixed(2)}${w.failed ? `; FAILED ${w.failed}` : ''}`,
    );
    await sleep(500);
  }
} finally {
  // Stopping makes each write its profile.
  await pair.stop();
}

const md = [
  `Profile of ${NAME}: node ${process.version}, --cpu-prof-interval ${INTERVAL_US} µs, ${CONNECTIONS} connections, ` +
    `${WARMUP} s warm-up + ${DURATION} s per request kind; load average at end ${loadAverage()}.`,
  '',
];
const json = {
  name: NAME,
  intervalUs: INTERVAL_US,
  connections: CONNECTIONS,
  windows,
  profiles: {},
};
const files = {};
for (const name of Object.keys(processes)) {
  files[name] = newestProfileFile(join(PROFILES, name));
  const profile = JSON.parse(readFileSync(files[name], 'utf8'));
  for (const w of windows) {
    const s = summariseProfile(profile, {
      fromUs: w.fromUs,
      toUs: w.toUs,
      notOwners: RENDER_NOT_OWNERS,
      inclusive: RENDER_INCLUSIVE,
    });
    json.profiles[`${name}/${w.kind}`] = { file: relative(REPO, files[name]), ...s };
    const cpu = name === 'render' ? w.renderCpuMsPerReq : w.dataCpuMsPerReq;
    md.push(
      profileMarkdown(
        `${name} service, ${w.kind} load (${Math.round(w.reqPerSec)} req/s, /proc CPU ${cpu.toFixed(2)} ms/req incl. other threads)`,
        s,
        { requests: w.requests },
      ),
    );
  }
}
const dir = writeOutputs(OUT, {
  'profile.md': md.join('\n'),
  'profile.json': JSON.stringify(json, null, 2) + '\n',
});
say(`wrote ${relative(REPO, dir)}/profile.md, profile.json; profiles: ${Object.values(files)}`);
