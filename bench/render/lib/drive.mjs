#!/usr/bin/env node
// Runs the anchors' run.sh with the render service as the candidate, with the data service
// behind it in its own process group (so the driver's "server CPU" is the render service's own),
// and measures the data service's CPU in the same measured windows as the driver.
//
// Called by bench/render/run.sh, which builds Strata and sets the CANDIDATE_* variables.
// Env: ANCHORS (anchors folder), OUT (absolute), DATA_PORT, STRATA_ROOT, plus everything the
// anchors' run.sh reads (passed through).
//
// How the data-service figure is taken: a sampler (bench/kit/cpu.mjs) reads utime+stime of the
// data service from /proc/<pid>/stat every SAMPLE_MS. The driver's stdout is piped through this
// process; each "  <target> <kind> ... " progress line starts a load phase (warm-up + measured
// run) and the result that completes the line ends it. The measured window is the last `durationS` seconds
// (autocannon's own elapsed time, from results.json) before that end; the data service's CPU in
// that window (linear interpolation between samples) divided by the driver's completed requests
// gives data CPU ms/req for that round. Windows of the other targets give its idle background.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMs, sampleCpu } from '../../kit/cpu.mjs';
import { grpcCallsServed } from '../../kit/grpc-calls.mjs';
import { freePort } from '../../kit/ports.mjs';
import { valueAt } from '../../kit/stats.mjs';
import { startData } from './pair.mjs';
import { BENCH_DATA_ENV } from './service-env.mjs';
import { writeReport } from './report.mjs';

const env = process.env;
const HERE = path.dirname(fileURLToPath(import.meta.url));
const STRATA_ROOT = path.resolve(env.STRATA_ROOT || path.join(HERE, '../../..'));
if (!env.ANCHORS) throw new Error('ANCHORS must name the benchmark anchors directory');
const ANCHORS = path.resolve(env.ANCHORS);
const OUT = path.resolve(env.OUT);
const DATA_PORT = Number(env.DATA_PORT || 50361);
const SAMPLE_MS = Number(env.SAMPLE_MS || 50);

const started = performance.now();
const say = (msg) =>
  console.log(
    `[bench/render ${String(Math.round((performance.now() - started) / 1000)).padStart(3)}s] ${msg}`,
  );

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
  say(
    `starting the data service on 127.0.0.1:${DATA_PORT} (DATA_DIR=memory://, PGLITE_WORKER=${BENCH_DATA_ENV.PGLITE_WORKER}, own process group)`,
  );
  // Its own process group: outside the candidate's group and the driver's.
  // Its metrics listener counts the calls served, so the cache check below is a count.
  const metricsPort = await freePort();
  const data = await startData({
    root: STRATA_ROOT,
    port: DATA_PORT,
    detached: true,
    env: { DATA_METRICS_PORT: String(metricsPort) },
  });
  let dataExit = null;
  data.child.once('exit', (code, signal) => (dataExit = code ?? signal));
  const pid = data.pid;
  const cpuStart = cpuMs(pid);
  say(
    `data service pid ${pid} listening; ${(cpuStart / 1000).toFixed(2)} s CPU spent starting and seeding`,
  );
  const callsBefore = await grpcCallsServed(metricsPort);
  let callsServed = null;
  const sampler = sampleCpu(pid, SAMPLE_MS);
  const tracker = phaseTracker();
  let failure = null;
  try {
    say(`running ${ANCHORS}/run.sh (OUT=${OUT})`);
    await runAnchors(tracker);
  } catch (error) {
    failure = error;
  } finally {
    sampler.stop();
    if (dataExit === null) callsServed = (await grpcCallsServed(metricsPort)) - callsBefore;
    say('stopping the data service');
    if (dataExit !== null)
      failure ??= new Error(`data service exited during the run (${dataExit})`);
    await data.stop();
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
    const dataCpuS = (valueAt(sampler.samples, p.end) - valueAt(sampler.samples, from)) / 1000;
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
  const cpuEnd = sampler.samples.at(-1)?.[1] ?? cpuStart;
  const dataCpu = {
    pid,
    port: DATA_PORT,
    sampleMs: SAMPLE_MS,
    startupCpuS: cpuStart / 1000,
    runCpuS: (cpuEnd - cpuStart) / 1000,
    callsServed,
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
