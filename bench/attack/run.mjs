#!/usr/bin/env node
// The relay under attack: 90% hostile requests (each class of lib/traffic.mjs, plus bodies that
// trickle) and 10% honest SDK envelopes, against a phase of honest traffic alone, each phase on a
// fresh relay with its default limits. The honest clients run in a process of their own
// (honest-client.mjs), so the attack's generator never delays them. Reports the relay's resident memory (peak, per window),
// how many honest envelopes reached the upstream, and the honest p99 latency with and without
// the attack. See RESULTS.md.
//
//   npm run build && node bench/attack/run.mjs
//
// The attack's generator runs at low priority on one core, so the relay, the honest clients and
// the upstream get the CPU whenever they need it: the attacker's CPU is not on the relay's host
// in a real deployment, and must not delay the honest clients' clocks here (SPLIT_CPUS=0 turns
// this off; it needs two cores).
//
// Env: DURATION (60 s per phase), SCALE (1: multiplies every class's rate), RELAY_ROOT (the
// checkout whose built relay runs; default this one), NAME (bench/.out/attack/<NAME>/; default a UTC time),
// SPLIT_CPUS (1), CLASSES (comma-separated hostile classes to send; default all of them),
// RELAY_ARGS (the relay's node flags, replacing the deployed ones, RELAY_NODE_FLAGS, e.g.
// `--no-incremental-marking-task --trace-gc`; set, the relay's stdout is kept in
// bench/.out/attack/<NAME>/relay-<phase>.log).
import { execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { startServer, stopServer } from '../relay/lib/processes.mjs';
import { report } from './lib/report.mjs';
import { rssSummary, sampleProcess } from './lib/process-sampler.mjs';
import { post, sendAtRate, trickle } from './lib/senders.mjs';
import {
  HOSTILE_CLASSES,
  TRICKLE,
  eventId,
  honestEnvelope,
  honestRate,
  projects,
} from './lib/traffic.mjs';

/** Starts the honest clients' process; resolves with their report when the duration is over. */
function honestClients(settings) {
  const child = fork(new URL('honest-client.mjs', import.meta.url).pathname, [
    JSON.stringify(settings),
  ]);
  release(child.pid);
  return once(child, 'message').then(([message]) => message);
}

const DURATION = Number(process.env.DURATION ?? 60);
const SCALE = Number(process.env.SCALE ?? 1);
const RELAY_ROOT = resolve(process.env.RELAY_ROOT ?? new URL('../..', import.meta.url).pathname);
const NAME = process.env.NAME ?? new Date().toISOString().slice(0, 16).replace(':', '-');
const OUT = new URL(`../.out/attack/${NAME}/`, import.meta.url).pathname;
const CLASSES = process.env.CLASSES?.split(',') ?? Object.keys(HOSTILE_CLASSES);
const unknownClass = CLASSES.find((name) => !(name in HOSTILE_CLASSES));
if (unknownClass) throw new Error(`CLASSES: no hostile class ${unknownClass}`);
const SPLIT_CPUS = process.env.SPLIT_CPUS !== '0' && availableParallelism() >= 2;
const RELAY_ARGS = process.env.RELAY_ARGS?.split(' ').filter(Boolean);
const KEEP_RELAY_LOG = RELAY_ARGS !== undefined;
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const log = (line) => console.log(`[attack ${new Date().toISOString().slice(11, 19)}] ${line}`);

// Honest clients and attackers come from different addresses (a /24 each).
const addresses = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix}.${i + 1}`);
const HONEST_IPS = addresses('198.51.100', 50);
const ATTACKER_IPS = addresses('203.0.113', 8);

async function startRelay(upstreamUrl, label) {
  const spool = mkdtempSync(join(tmpdir(), 'strata-attack-spool-'));
  const dsns = projects('127.0.0.1');
  const main = join(RELAY_ROOT, 'services/relay/dist/main.js');
  const relay = await startServer([...(RELAY_ARGS ?? RELAY_NODE_FLAGS), main], {
    NODE_ENV: 'production',
    RELAY_PORT: '0',
    RELAY_HOST: '127.0.0.1',
    RELAY_DSNS: `${dsns.site},${dsns.flood}`,
    RELAY_UPSTREAM: upstreamUrl,
    RELAY_TRUST_PROXY: 'true',
    RELAY_SPOOL_DIR: spool,
    RELAY_LOG_LEVEL: 'info',
  });
  release(relay.child.pid);
  if (KEEP_RELAY_LOG) {
    mkdirSync(OUT, { recursive: true });
    const file = `relay-${label.split(' ')[0]}.log`;
    relay.child.stdout.pipe(createWriteStream(join(OUT, file)));
  }
  return { ...relay, spool, dsns };
}

/** A process this one started gets every core and normal priority back (see SPLIT_CPUS). */
function release(pid) {
  if (!SPLIT_CPUS) return;
  pinTo(pid, `0-${availableParallelism() - 1}`);
  setPriority(pid, 0);
}

/** Pins every thread of `pid` to the given CPUs (taskset, util-linux). */
function pinTo(pid, cpus) {
  execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], {
    stdio: 'ignore',
  });
}

/** One phase: honest traffic, and the attack when `attack` is set. */
async function phase(label, upstreamUrl, attack) {
  const relay = await startRelay(upstreamUrl, label);
  const tunnel = `${relay.url}/monitoring`;
  log(`${label}: relay pid ${relay.child.pid} at ${relay.url}, ${DURATION} s`);
  const sampler = sampleProcess(relay.child.pid);
  const honest = honestClients({
    url: tunnel,
    rate: honestRate(SCALE),
    dsn: relay.dsns.site,
    clientIps: HONEST_IPS,
    durationS: DURATION,
  });
  const hostile = attack
    ? Object.entries(HOSTILE_CLASSES)
        .filter(([name]) => CLASSES.includes(name))
        .map(([name, spec]) => ({
          name,
          sender: sendAtRate({
            url: tunnel,
            rate: spec.rate * SCALE,
            clientIps: ATTACKER_IPS,
            maxInFlight: 16,
            build: () => spec.build(relay.dsns.site, relay.dsns.flood),
          }),
        }))
    : [];
  const slow = attack ? trickle(tunnel, TRICKLE, ATTACKER_IPS[0]) : undefined;
  await sleep(DURATION * 1000);
  slow?.stop();
  const [{ ids, latencies, ...counts }] = await Promise.all([
    honest,
    ...hostile.map((h) => h.sender.stop()),
  ]);
  log(`${label}: load stopped; waiting for the relay to forward what it accepted`);
  const { samples, cores } = sampler.stop();
  const delivered = await deliveredOf(upstreamUrl, ids, counts.byStatus['200'] ?? 0);
  const loopDelay = await eventLoopDelayOf(relay.url);
  // The relay still answers after the attack (a liveness probe, not a measurement).
  const after = await post(tunnel, honestEnvelope(relay.dsns.site, eventId()), HONEST_IPS[0]);
  await stopServer(relay.child);
  rmSync(relay.spool, { recursive: true, force: true });
  return {
    label,
    honest: { ...counts, delivered, latencies },
    hostile: Object.fromEntries(hostile.map((h) => [h.name, h.sender.counts])),
    trickle: slow?.counts,
    rss: rssSummary(samples),
    cores,
    loopDelay,
    answersAfter: after.status,
  };
}

/** The relay's own event-loop delay since it started (its process metrics), in ms. */
async function eventLoopDelayOf(relayUrl) {
  const text = await (await fetch(`${relayUrl}/metrics`)).text();
  const read = (name) =>
    Number(new RegExp(`^\\w*nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(text)?.[1]) *
    1000;
  return { p99: read('p99'), max: read('max') };
}

/** How many of `ids` the upstream has seen, waiting up to 30 s for the accepted ones. */
async function deliveredOf(upstreamUrl, ids, accepted) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { ids: seen } = await (await fetch(`${upstreamUrl}/seen`)).json();
    const set = new Set(seen);
    const count = ids.filter((id) => set.has(id)).length;
    if (count >= accepted || Date.now() > deadline) return count;
    await sleep(500);
  }
}

const upstream = await startServer([new URL('recording-upstream.mjs', import.meta.url).pathname]);
// After the upstream started (it keeps normal priority and every core). The relays and the
// honest clients' process, started later, are given both back (release).
if (SPLIT_CPUS) {
  pinTo(process.pid, '0');
  setPriority(15);
}
try {
  const baseline = await phase('baseline (honest only)', upstream.url, false);
  const attacked = await phase('attack (90% hostile)', upstream.url, true);
  mkdirSync(OUT, { recursive: true });
  const text = report({
    baseline,
    attacked,
    duration: DURATION,
    scale: SCALE,
    root: RELAY_ROOT,
    splitCpus: SPLIT_CPUS,
  });
  writeFileSync(join(OUT, 'report.md'), text);
  const strip = ({ honest: { latencies: _latencies, ...honest }, ...rest }) => ({
    ...rest,
    honest,
  });
  writeFileSync(
    join(OUT, 'results.json'),
    JSON.stringify({ baseline: strip(baseline), attacked: strip(attacked) }, null, 2),
  );
  console.log(`\n${text}\nwrote ${OUT}report.md`);
} finally {
  await stopServer(upstream.child);
}
