// What the relay A/B tools share: their settings and the two sides as the environment names
// them, a fresh relay and spool for one side, its CPU per answer under load, and the report
// of the pairs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RELAY_NODE_FLAGS } from '../../../scripts/stack/services.mjs';
import { writeOutputs } from '../../kit/out.mjs';
import { median } from '../../kit/stats.mjs';
import { assignmentsOf } from '../../kit/settings.mjs';
import {
  commitOf,
  cpuMs,
  postEnvelopes,
  relayBenchEnv,
  startServer,
  stopServer,
} from './processes.mjs';

/** Node flags from a `--flag …` string: the deployed ones when absent (empty: none). */
export const flagsOf = (value) =>
  value === undefined ? RELAY_NODE_FLAGS : value.split(' ').filter(Boolean);

/**
 * Sides A and B from A, B (built checkouts; default this one), A_ENV, B_ENV (`VAR=value …` over
 * the bench settings) and A_ARGS, B_ARGS (node flags).
 */
export function sidesFromEnv(env) {
  const side = (name) => ({
    root: resolve(env[name] || '.'),
    env: assignmentsOf(env[`${name}_ENV`]),
    args: flagsOf(env[`${name}_ARGS`]),
  });
  return { A: side('A'), B: side('B') };
}

/** Starts one side's built relay on a fresh spool in front of `upstreamUrl`; `stop` removes both. */
export async function startSideRelay(side, upstreamUrl, { cpus } = {}) {
  const spool = mkdtempSync(join(tmpdir(), 'relay-ab-'));
  try {
    const relay = await startServer(
      [...side.args, join(side.root, 'services/relay/dist/main.js')],
      { ...relayBenchEnv(upstreamUrl, spool), ...side.env },
      { cpus },
    );
    return {
      ...relay,
      async stop() {
        await stopServer(relay.child);
        rmSync(spool, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(spool, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Loads a started relay for `duration` seconds; autocannon's result, req/s and the relay's CPU
 * per answer (all threads). Any non-2xx answer or error fails the measurement.
 */
export async function measureLoad(relay, { connections, duration }) {
  const cpuBefore = cpuMs(relay.child.pid);
  const result = await postEnvelopes(relay.url, { connections, duration });
  const cpu = (cpuMs(relay.child.pid) - cpuBefore) * 1000;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${relay.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { result, rps: result.requests.average, cpuPerAnswer: cpu / result['2xx'] };
}

export { median } from '../../kit/stats.mjs';

/** ROUNDS, DURATION (s), CONNECTIONS and NAME from the environment, with a tool's defaults. */
export function abSettings(env, defaults) {
  return {
    rounds: Number(env.ROUNDS || defaults.rounds),
    duration: Number(env.DURATION || 10),
    connections: Number(env.CONNECTIONS || defaults.connections),
    name:
      env.NAME || `${defaults.prefix}-${new Date().toISOString().slice(0, 16).replace(':', '-')}`,
  };
}

/** One round's line on the console, after `prefix`. */
export function roundLine(prefix, { A, B }) {
  return (
    `${prefix} req/s A ${A.rps.toFixed(0)} B ${B.rps.toFixed(0)} (B÷A ${(B.rps / A.rps).toFixed(3)}),` +
    ` CPU µs/answer A ${A.cpuPerAnswer.toFixed(0)} B ${B.cpuPerAnswer.toFixed(0)}`
  );
}

/**
 * Writes bench/.out/relay/<name>/report.md (the sides, `setup`, a row per round, the medians of
 * B ÷ A) and prints the medians. Rounds are `{ order?, load, A, B }`, each side `{ rps, cpuPerAnswer }`.
 */
export function writeAbReport({ name, title, sides, env, setup, rounds }) {
  const withOrder = rounds.some((round) => round.order);
  const ratio = (round, key) => round.B[key] / round.A[key];
  const sideLine = (side) =>
    `${side}: \`${commitOf(sides[side].root)}\` ${env[`${side}_ENV`] ?? ''}` +
    (env[`${side}_ARGS`] !== undefined ? ` flags: ${env[`${side}_ARGS`] || 'none'}` : '') +
    '  ';
  const lines = [
    `# ${title}: ${name}`,
    '',
    sideLine('A'),
    sideLine('B'),
    setup,
    '',
    `| round |${withOrder ? ' order |' : ''} load avg | A req/s | B req/s | B ÷ A | A CPU µs/answer | B CPU µs/answer | B ÷ A |`,
    `| ---: |${withOrder ? ' --- |' : ''} ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
    ...rounds.map(
      (r, i) =>
        `| ${i + 1} |${withOrder ? ` ${r.order} |` : ''} ${r.load.toFixed(1)} | ${r.A.rps.toFixed(0)} | ${r.B.rps.toFixed(0)} | ${ratio(r, 'rps').toFixed(3)} | ${r.A.cpuPerAnswer.toFixed(0)} | ${r.B.cpuPerAnswer.toFixed(0)} | ${ratio(r, 'cpuPerAnswer').toFixed(3)} |`,
    ),
    '',
    `**Median of the pairs: req/s B ÷ A ${median(rounds.map((r) => ratio(r, 'rps'))).toFixed(3)},` +
      ` CPU per answer B ÷ A ${median(rounds.map((r) => ratio(r, 'cpuPerAnswer'))).toFixed(3)}.**`,
    '',
  ];
  const out = writeOutputs(`relay/${name}`, { 'report.md': lines.join('\n') });
  console.log(lines.slice(-2).join('\n'));
  console.log(`written to ${out}/report.md`);
}
