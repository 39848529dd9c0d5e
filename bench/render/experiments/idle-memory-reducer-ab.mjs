// The A/B behind bench/render/RESULTS.md's "A/B through the same quiet spell" (the memory
// reducer after an idle gap): kept as the record of that run, moved here from results/.
// Usage: [ANCHORS=<anchors>] [REPO=<built checkout>] [IDLE_S=130] [PAIRS='default;--no-memory-reducer'] node bench/render/experiments/idle-memory-reducer-ab.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { benchPagesEnv } from '../../kit/bench-pages.mjs';
// The anchors' autocannon when ANCHORS names them, else the repository's (the same version).
const autocannon = createRequire(
  process.env.ANCHORS ? `${process.env.ANCHORS}/package.json` : import.meta.url,
)('autocannon');
const REPO = process.env.REPO || new URL('../../../', import.meta.url).pathname;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const base = {
  ...process.env,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  ...benchPagesEnv(REPO),
  STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true',
};
const ticks = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
// Service logs go to the git-ignored bench/.out.
const LOGS = new URL('../../.out/idle-memory-reducer', import.meta.url).pathname;
fs.mkdirSync(LOGS, { recursive: true });
const IDLE = Number(process.env.IDLE_S || 130) * 1000;
function pair(i, flags) {
  const out = (n) => fs.openSync(`${LOGS}/idle-ab-${i}-${n}.log`, 'w');
  const data = spawn('node', ['--max-semi-space-size=64', ...flags, 'services/data/dist/main.js'], {
    cwd: REPO,
    env: {
      ...base,
      DATA_PORT: String(50380 + i),
      DATA_HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      PGLITE_WORKER: 'false',
    },
    stdio: ['ignore', out('data'), 'inherit'],
  });
  const render = spawn(
    'node',
    ['--max-semi-space-size=64', ...flags, 'services/render/dist/main.js'],
    {
      cwd: REPO,
      env: {
        ...base,
        RENDER_PORT: String(3280 + i),
        DATA_SERVICE_ADDRESS: `127.0.0.1:${50380 + i}`,
        SEGMENT_CACHE: 'false',
      },
      stdio: ['ignore', out('render'), 'inherit'],
    },
  );
  return {
    name: flags.join(' ') || 'default',
    data,
    render,
    url: `http://127.0.0.1:${3280 + i}/bench/items`,
  };
}
const specs = (process.env.PAIRS || 'default;--no-memory-reducer')
  .split(';')
  .map((s) => (s === 'default' ? [] : s.split(' ')));
const pairs = specs.map((f, i) => pair(i, f));
await sleep(5000);
async function windows(p, label, n) {
  for (let w = 0; w < n; w++) {
    const t0 = ticks(p.render.pid),
      d0 = ticks(p.data.pid);
    const r = await autocannon({ url: p.url, connections: 50, duration: 5 });
    const row = `${p.name.padEnd(22)} ${label} w${w}: ${Math.round(r.requests.average)} req/s, render ${(((ticks(p.render.pid) - t0) * 10) / r.requests.total).toFixed(3)}, data ${(((ticks(p.data.pid) - d0) * 10) / r.requests.total).toFixed(3)} ms/req`;
    console.log(row);
  }
}
for (const p of pairs) await windows(p, 'warm ', 3);
await sleep(IDLE);
const after = process.env.REVERSE_AFTER ? [...pairs].reverse() : pairs;
for (const p of after) await windows(p, 'after', 3);
for (const p of pairs) {
  p.render.kill();
  p.data.kill();
}
