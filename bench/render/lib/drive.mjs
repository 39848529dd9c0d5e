#!/usr/bin/env node
// Runs the anchors' run.sh with the render service as the candidate, with the data service
// behind it in its own process group (so the driver's "server CPU" is the render service's own),
// and measures the data service's CPU in the same measured windows as the driver.
//
// Called by bench/render/run.sh, which builds Strata and sets the CANDIDATE_* variables.
// Env: ANCHORS (anchors folder), OUT (absolute), DATA_PORT, STRATA_ROOT, plus everything the
// anchors' run.sh reads (passed through).
//
// How the data-service figure is taken: a sampler reads utime+stime of the data service from
// /proc/<pid>/stat every SAMPLE_MS. The driver's stdout is piped through this process; each
// "  <target> <kind> ... " progress line starts a load phase (warm-up + measured run) and the
// result that completes the line ends it. The measured window is the last `durationS` seconds
// (autocannon's own elapsed time, from results.json) before that end; the data service's CPU in
// that window (linear interpolation between samples) divided by the driver's completed requests
// gives data CPU ms/req for that round. Windows of the other targets give its idle background.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_DATA_ENV } from './service-env.mjs';
import { SERVICE_NODE_FLAGS } from '../../../scripts/stack/services.mjs';
import { writeReport } from './report.mjs';

const env = process.env;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const STRATA_ROOT = path.resolve(env.STRATA_ROOT || path.join(HERE, '../../..'));
if (!env.ANCHORS) throw new Error('ANCHORS must name the benchmark anchors directory');
const ANCHORS = path.resolve(env.ANCHORS);
const OUT = path.resolve(env.OUT);
const DATA_PORT = Number(env.DATA_PORT || 50361);
const SAMPLE_MS = Number(env.SAMPLE_MS || 50);
const CLK_TCK = 100; // getconf CLK_TCK on Linux

const started = performance.now();
const say = (msg) =>
  console.log(
    `[bench/render ${String(Math.round((performance.now() - started) / 1000)).padStart(3)}s] ${msg}`,
  );
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function ticksOf(pid) {
  const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
}

function portOpen(port) {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
    sock.setTimeout(1000, () => {
      sock.destroy();
      resolve(false);
    });
  });
}

// ------------------------------------------------------------------ data service

async function startDataService(logPath) {
  if (await portOpen(DATA_PORT))
    throw new Error(`port ${DATA_PORT} (data service) is already in use`);
  const log = fs.openSync(logPath, 'a');
  // The data service's node flags, as every start path sets them (docs/data-service.md, "Memory").
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, 'services/data/dist/main.js'], {
    cwd: STRATA_ROOT,
    env: {
      ...env,
      ...BENCH_DATA_ENV,
      DATA_PORT: String(DATA_PORT),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
    },
    stdio: ['ignore', log, log],
    detached: true, // own process group: outside the candidate's group and the driver's
  });
  fs.closeSync(log);
  const state = { child, exited: false, code: null };
  child.on('exit', (code, signal) => {
    state.exited = true;
    state.code = code ?? signal;
  });
  const deadline = Date.now() + 60_000;
  while (!(await portOpen(DATA_PORT))) {
    if (state.exited) throw new Error(`data service exited (${state.code}); see ${logPath}`);
    if (Date.now() > deadline)
      throw new Error(`data service not listening after 60 s; see ${logPath}`);
    await sleep(100);
  }
  return state;
}

async function stopDataService(state) {
  if (!state || state.exited) return;
  state.child.kill('SIGTERM');
  for (let i = 0; i < 100 && !state.exited; i++) await sleep(100);
  if (!state.exited) state.child.kill('SIGKILL');
}

// ------------------------------------------------------------------ sampler and phases

function startSampler(pid) {
  const samples = [];
  const take = () => {
    try {
      samples.push([performance.now(), ticksOf(pid)]);
    } catch {
      /* exited */
    }
  };
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
    },
  };
}

/** Cumulative ticks at time t (linear interpolation between samples). */
function ticksAt(samples, t) {
  if (!samples.length) return null;
  if (t <= samples[0][0]) return samples[0][1];
  for (let i = 1; i < samples.length; i++) {
    const [t1, v1] = samples[i];
    if (t1 >= t) {
      const [t0, v0] = samples[i - 1];
      return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0 || 1);
    }
  }
  return samples.at(-1)[1];
}

/** Watches the driver's output: round numbers and the start/end time of each load phase. */
function phaseTracker() {
  const phases = [];
  let round = 0;
  let line = '';
  let open = null;
  return {
    phases,
    feed(text) {
      for (const ch of text.split(/(\n)/)) {
        if (ch === '') continue;
        if (ch === '\n') {
          const m = /^round (\d+)\//.exec(line);
          if (m) round = Number(m[1]);
          if (open) {
            open.end = performance.now();
            open.result = line.slice(open.prefix.length).trim();
            phases.push(open);
            open = null;
          }
          line = '';
          continue;
        }
        line += ch;
        const p = /^ {2}(\S+) (\S+) \.\.\. $/.exec(line);
        if (p && !open)
          open = { target: p[1], kind: p[2], round, start: performance.now(), prefix: line };
      }
    },
  };
}

function runAnchors(tracker) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [path.join(ANCHORS, 'run.sh')], {
      cwd: ANCHORS,
      env: { ...env, OUT },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (buf) => {
      const text = buf.toString('utf8');
      tracker.feed(text);
      process.stdout.write(text);
    });
    const forward = (sig) => child.kill(sig);
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (code === 0) resolve();
      else reject(new Error(`anchors run.sh failed (${code ?? signal})`));
    });
  });
}

// ------------------------------------------------------------------ main

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  const dataLog = path.join(OUT, 'data-service.log');
  fs.rmSync(dataLog, { force: true });
  say(
    `starting the data service on 127.0.0.1:${DATA_PORT} (DATA_DIR=memory://, PGLITE_WORKER=${BENCH_DATA_ENV.PGLITE_WORKER}, own process group)`,
  );
  const data = await startDataService(dataLog);
  const pid = data.child.pid;
  const ticksStart = ticksOf(pid);
  say(
    `data service pid ${pid} listening; ${(ticksStart / CLK_TCK).toFixed(2)} s CPU spent starting and seeding`,
  );
  const sampler = startSampler(pid);
  const tracker = phaseTracker();
  let failure = null;
  try {
    say(`running ${ANCHORS}/run.sh (OUT=${OUT})`);
    await runAnchors(tracker);
  } catch (error) {
    failure = error;
  } finally {
    sampler.stop();
    say('stopping the data service');
    if (data.exited)
      failure ??= new Error(`data service exited during the run (${data.code}); see ${dataLog}`);
    await stopDataService(data);
  }
  const results = fs.existsSync(path.join(OUT, 'results.json'))
    ? JSON.parse(fs.readFileSync(path.join(OUT, 'results.json'), 'utf8'))
    : { records: [] };
  const windows = tracker.phases.map((p) => {
    const rec = results.records.find(
      (r) => r.target === p.target && r.kind === p.kind && r.round === p.round,
    );
    const durationMs = (rec?.durationS ?? Number(env.DURATION || 10)) * 1000;
    const from = Math.max(p.start, p.end - durationMs);
    const ticks = ticksAt(sampler.samples, p.end) - ticksAt(sampler.samples, from);
    const dataCpuS = ticks / CLK_TCK;
    return {
      target: p.target,
      kind: p.kind,
      round: p.round,
      windowS: (p.end - from) / 1000,
      phaseS: (p.end - p.start) / 1000,
      requests: rec?.requests ?? null,
      dataCpuS,
      dataCores: dataCpuS / ((p.end - from) / 1000),
      dataCpuMsPerReq: rec?.requests ? (dataCpuS * 1000) / rec.requests : null,
      renderCpuMsPerReq: rec?.serverCpuMsPerReq ?? null,
      driverResult: p.result,
    };
  });
  const ticksEnd = sampler.samples.at(-1)?.[1] ?? ticksStart;
  const dataCpu = {
    pid,
    port: DATA_PORT,
    sampleMs: SAMPLE_MS,
    clkTck: CLK_TCK,
    startupCpuS: ticksStart / CLK_TCK,
    runCpuS: (ticksEnd - ticksStart) / CLK_TCK,
    runWallS: sampler.samples.length
      ? (sampler.samples.at(-1)[0] - sampler.samples[0][0]) / 1000
      : null,
    windows,
  };
  fs.writeFileSync(path.join(OUT, 'data-cpu.json'), JSON.stringify(dataCpu, null, 2) + '\n');
  say(
    `data service: ${dataCpu.runCpuS.toFixed(1)} s CPU over the ${Math.round(dataCpu.runWallS)} s run`,
  );
  for (const w of windows.filter((x) => x.target === 'candidate'))
    say(
      `  round ${w.round} candidate ${w.kind}: data ${w.dataCpuMsPerReq?.toFixed(2)} CPU ms/req ` +
        `(${w.dataCores.toFixed(2)} cores), render ${w.renderCpuMsPerReq?.toFixed(2)} CPU ms/req`,
    );
  if (failure) throw failure;
  const report = writeReport(OUT);
  if (report.uncached === false)
    throw new Error('the data service was not called on every candidate request: a cache is on');
  say(`done: ${OUT}/table.md, results.json, data-cpu.json, goals.md`);
}

main().catch((error) => {
  console.error(`\nbench/render failed: ${error.stack || error.message}`);
  process.exit(1);
});
