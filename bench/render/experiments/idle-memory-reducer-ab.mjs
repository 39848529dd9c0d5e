// The A/B behind bench/render/RESULTS.md's "A/B through the same quiet spell" (the memory
// reducer after an idle gap): kept as the record of that run, moved here from results/.
// Usage: [ANCHORS=<anchors>] [REPO=<built checkout>] [IDLE_S=130] [WINDOW_S=5] [PAIRS='default;--no-memory-reducer'] node bench/render/experiments/idle-memory-reducer-ab.mjs
import { cpuMs } from '../../kit/cpu.mjs';
import { load } from '../../kit/load.mjs';
import { freePort } from '../../kit/ports.mjs';
import { cpuMsPerRequest } from '../../kit/proc-stat.mjs';
import { benchPagesEnv } from '../../kit/bench-pages.mjs';
import { startService } from '../../kit/service.mjs';

const REPO = process.env.REPO || new URL('../../../', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const base = {
  LOG_LEVEL: 'warn',
  ...benchPagesEnv(REPO),
  STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true',
};
const IDLE = Number(process.env.IDLE_S || 130) * 1000;
// Seconds of load per measured window (5 in the recorded run).
const WINDOW_S = Number(process.env.WINDOW_S || 5);
async function pair(flags) {
  const [dataPort, renderPort] = [await freePort(), await freePort()];
  const nodeFlags = ['--max-semi-space-size=64', ...flags];
  const data = await startService({
    root: REPO,
    script: 'services/data/dist/main.js',
    flags: nodeFlags,
    env: {
      ...base,
      DATA_PORT: String(dataPort),
      DATA_HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      PGLITE_WORKER: 'false',
    },
    ready: { tcp: { host: '127.0.0.1', port: dataPort } },
  });
  const url = `http://127.0.0.1:${renderPort}/bench/items`;
  const render = await startService({
    root: REPO,
    script: 'services/render/dist/main.js',
    flags: nodeFlags,
    env: {
      ...base,
      RENDER_PORT: String(renderPort),
      DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
      SEGMENT_CACHE: 'false',
    },
    ready: { http: url },
  });
  return { name: flags.join(' ') || 'default', data, render, url };
}
const specs = (process.env.PAIRS || 'default;--no-memory-reducer')
  .split(';')
  .map((s) => (s === 'default' ? [] : s.split(' ')));
const pairs = [];
for (const flags of specs) pairs.push(await pair(flags));
async function windows(p, label, n) {
  for (let w = 0; w < n; w++) {
    const t0 = cpuMs(p.render.pid),
      d0 = cpuMs(p.data.pid);
    const r = await load({ url: p.url, connections: 50, duration: WINDOW_S });
    const perRequest = (pid, before) => cpuMsPerRequest(before, cpuMs(pid), r.completed);
    const row = `${p.name.padEnd(22)} ${label} w${w}: ${Math.round(r.perSecond)} req/s, render ${perRequest(p.render.pid, t0).toFixed(3)}, data ${perRequest(p.data.pid, d0).toFixed(3)} ms/req`;
    console.log(row);
  }
}
for (const p of pairs) await windows(p, 'warm ', 3);
await sleep(IDLE);
const after = process.env.REVERSE_AFTER ? [...pairs].reverse() : pairs;
for (const p of after) await windows(p, 'after', 3);
for (const p of pairs) {
  await p.render.stop();
  await p.data.stop();
}
