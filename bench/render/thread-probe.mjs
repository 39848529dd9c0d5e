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
// Env: ROOT (built checkout; this one), DURATION (12 s measured, after WARMUP: 3 s),
//      CONNECTIONS (50), RENDER_ARGS, DATA_ARGS (extra node flags), PGLITE_WORKER (false),
//      ANCHORS (their autocannon), NAME (bench/.out/render/<NAME>/probe.md; default probe-<UTC time>)
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { machineTicks, threadCpuMs } from '../kit/cpu.mjs';
import { AUTOCANNON_CLI } from '../kit/load.mjs';
import { REPO, runName, writeOutputs } from '../kit/out.mjs';
import { machineShares } from '../kit/proc-stat.mjs';
import { startPair } from './lib/pair.mjs';
import { BENCH_DATA_ENV } from './lib/service-env.mjs';

const env = process.env;
const ROOT = resolve(env.ROOT || REPO);
const DURATION = Number(env.DURATION || 12);
const WARMUP = Number(env.WARMUP || 3);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const NAME = env.NAME || runName('probe');
const words = (value) => (value || '').split(' ').filter(Boolean);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

const pair = await startPair({
  root: ROOT,
  data: { flags: words(env.DATA_ARGS) },
  render: { flags: words(env.RENDER_ARGS) },
});
try {
  const url = `${pair.render.url}/bench/items`;
  const loadArgs = ['-c', String(CONNECTIONS), '-d', String(WARMUP + DURATION), '-j', url];
  const load = spawn(process.execPath, [AUTOCANNON_CLI, ...loadArgs]);
  let report = '';
  load.stdout.on('data', (chunk) => (report += chunk));
  const finished = new Promise((done) => load.on('exit', done));
  await sleep(WARMUP * 1000);
  const pids = { render: pair.render.pid, data: pair.data.pid, autocannon: load.pid };
  const threadsNow = () =>
    Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, threadCpuMs(pid)]));
  const before = threadsNow();
  const machineBefore = machineTicks();
  await sleep(DURATION * 1000);
  const after = threadsNow();
  const machine = machineShares(machineBefore, machineTicks());
  await finished;
  const result = JSON.parse(report);

  const percent = (ms) => Math.round(ms / (10 * DURATION)); // of one core over the window
  const lines = [
    `${NAME}: ${ROOT}, render [${words(env.RENDER_ARGS).join(' ')}], data [${['PGLITE_WORKER=' + BENCH_DATA_ENV.PGLITE_WORKER, ...words(env.DATA_ARGS)].join(' ')}]; ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured.`,
    '',
    `${Math.round(result.requests.average)} req/s over the whole load (warm-up included), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.errors} errors, ${result.non2xx} non-2xx.`,
    '',
    '| process | threads busy (% of one core, busiest first) | total |',
    '|---|---|---:|',
  ];
  for (const [name, threads] of Object.entries(after)) {
    const busy = Object.entries(threads)
      .map(([thread, ms]) => [thread, percent(ms - (before[name][thread] ?? 0))])
      .filter(([, value]) => value > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = busy.reduce((sum, [, value]) => sum + value, 0);
    lines.push(`| ${name} | ${busy.map(([t, v]) => `${t} ${v}%`).join(', ')} | ${total}% |`);
  }
  const share = (field) => `${Math.round(100 * machine[field])}%`;
  lines.push(
    '',
    `Machine: user ${share('user')}, system ${share('system')}, softirq ${share('softirq')}, steal ${share('steal')}, **idle ${share('idle')}**.`,
  );
  writeOutputs(`render/${NAME}`, { 'probe.md': lines.join('\n') + '\n' });
  console.log(lines.join('\n'));
} finally {
  await pair.stop();
}
