#!/usr/bin/env node
// Where the machine's time goes under the anchor benchmark's load: the render and data services
// (one data service behind one render service, as bench/render/run.sh runs them) at 50
// connections, with CPU per thread of each process and of the load generator (autocannon in its
// own process here, so it is counted apart), and how much of the machine stayed idle (/proc/stat).
// A machine that is idle while req/s stops growing is waiting, not working: that is how the
// answer handoff (packages/catalog-client/src/transport/answer-handoff.ts) was found.
//
//   node bench/render/thread-probe.mjs                 # after `npm run build`
//   RENDER_ARGS=--single-threaded-gc node bench/render/thread-probe.mjs
//
// Env: ROOT (built checkout; this one), DURATION (12 s measured, after a 3 s warm-up),
//      CONNECTIONS (50), RENDER_ARGS, DATA_ARGS (extra node flags), PGLITE_WORKER (false),
//      ANCHORS (for autocannon), NAME (bench/.out/render/<NAME>/probe.md; default probe-<UTC time>)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ANCHORS, REPO, resultsDir, sleep, threadCpuTicks, untilOk } from './lib/bench-setup.mjs';
import { BENCH_DATA_ENV, benchRenderEnv, launchService } from './lib/service-env.mjs';

const env = process.env;
const ROOT = path.resolve(env.ROOT || REPO);
const DURATION = Number(env.DURATION || 12);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const WARMUP = 3;
const OUT = resultsDir('probe');
const words = (value) => (value || '').split(' ').filter(Boolean);

const launch = (nodeArgs, script, extraEnv) => launchService(ROOT, nodeArgs, script, extraEnv);

/** The machine's cumulative jiffies: user, nice, system, idle, iowait, irq, softirq, steal. */
const machineTicks = () =>
  fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1, 9).map(Number);

const data = launch(words(env.DATA_ARGS), 'services/data/dist/main.js', {
  ...BENCH_DATA_ENV,
  DATA_PORT: '50471',
});
const render = launch(
  words(env.RENDER_ARGS),
  'services/render/dist/main.js',
  benchRenderEnv({ renderPort: 3311, dataPort: 50471 }),
);
const url = 'http://127.0.0.1:3311/bench/items';
try {
  await untilOk(url);
  const cli = path.join(ANCHORS, 'node_modules/autocannon/autocannon.js');
  const loadArgs = ['-c', String(CONNECTIONS), '-d', String(WARMUP + DURATION), '-j', url];
  const load = spawn(process.execPath, [cli, ...loadArgs]);
  let report = '';
  load.stdout.on('data', (chunk) => (report += chunk));
  const finished = new Promise((resolve) => load.on('exit', resolve));
  await sleep(WARMUP * 1000);
  const pids = { render: render.pid, data: data.pid, autocannon: load.pid };
  const before = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => [k, threadCpuTicks(pid)]),
  );
  const machineBefore = machineTicks();
  await sleep(DURATION * 1000);
  const after = Object.fromEntries(
    Object.entries(pids).map(([k, pid]) => [k, threadCpuTicks(pid)]),
  );
  const machine = machineTicks().map((value, i) => value - machineBefore[i]);
  await finished;
  const result = JSON.parse(report);

  const percent = (ticks) => Math.round(ticks / DURATION); // 100 ticks a second
  const lines = [
    `${path.basename(OUT)}: ${ROOT}, render [${words(env.RENDER_ARGS).join(' ')}], data [${['PGLITE_WORKER=' + BENCH_DATA_ENV.PGLITE_WORKER, ...words(env.DATA_ARGS)].join(' ')}]; ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured.`,
    '',
    `${Math.round(result.requests.average)} req/s over the whole load (warm-up included), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.errors} errors, ${result.non2xx} non-2xx.`,
    '',
    '| process | threads busy (% of one core, busiest first) | total |',
    '|---|---|---:|',
  ];
  for (const [name, ticks] of Object.entries(after)) {
    const busy = Object.entries(ticks)
      .map(([thread, value]) => [thread, percent(value - (before[name][thread] ?? 0))])
      .filter(([, value]) => value > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = busy.reduce((sum, [, value]) => sum + value, 0);
    lines.push(`| ${name} | ${busy.map(([t, v]) => `${t} ${v}%`).join(', ')} | ${total}% |`);
  }
  const all = machine.reduce((sum, value) => sum + value, 0);
  const share = (i) => `${Math.round((100 * machine[i]) / all)}%`;
  lines.push(
    '',
    `Machine: user ${share(0)}, system ${share(2)}, softirq ${share(6)}, steal ${share(7)}, **idle ${share(3)}**.`,
  );
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'probe.md'), lines.join('\n') + '\n');
  console.log(lines.join('\n'));
} finally {
  render.kill();
  data.kill();
}
