// Summaries and Markdown tables from a results object.
import { median } from './driver.mjs';

export const GOAL = 1.3;

const f = (v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
const int = (v) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : 'n/a');

/** Per-round ratios for one engine/method: grpc vs inproc in the same round. */
export function roundRatios(rounds, method) {
  return rounds
    .map((r) => {
      const g = r.phases[method]?.grpc;
      const i = r.phases[method]?.inproc;
      if (!g || !i) return undefined;
      return {
        round: r.round,
        order: r.order[method],
        // >1 means gRPC is slower: in-process throughput / gRPC throughput ("time per call" cost).
        throughputCost: i.callsPerSec / g.callsPerSec,
        throughputRatio: g.callsPerSec / i.callsPerSec,
        p50Ratio: g.p50 / i.p50,
        p99Ratio: g.p99 / i.p99,
      };
    })
    .filter(Boolean);
}

export function summarise(results) {
  const out = {};
  for (const [engine, { rounds }] of Object.entries(results.engines)) {
    out[engine] = {};
    for (const method of results.knobs.METHODS) {
      const pick = (mode, key) => median(rounds.map((r) => r.phases[method]?.[mode]?.[key]));
      const modes = {};
      for (const mode of ['grpc', 'inproc'])
        modes[mode] = {
          callsPerSec: pick(mode, 'callsPerSec'),
          p50: pick(mode, 'p50'),
          p99: pick(mode, 'p99'),
          serverPct: median(rounds.map((r) => r.phases[method]?.[mode]?.cpu?.serverPct)),
          driverPct: median(rounds.map((r) => r.phases[method]?.[mode]?.cpu?.driverPct)),
          machineBusyPct: median(rounds.map((r) => r.phases[method]?.[mode]?.cpu?.machineBusyPct)),
          serverUsPerCall: median(
            rounds.map((r) => r.phases[method]?.[mode]?.cpu?.serverUsPerCall),
          ),
          driverUsPerCall: median(
            rounds.map((r) => r.phases[method]?.[mode]?.cpu?.driverUsPerCall),
          ),
        };
      const ratios = roundRatios(rounds, method);
      out[engine][method] = {
        ...modes,
        ratios,
        medianThroughputCost: median(ratios.map((r) => r.throughputCost)),
        medianP50Ratio: median(ratios.map((r) => r.p50Ratio)),
        medianP99Ratio: median(ratios.map((r) => r.p99Ratio)),
        goalMet:
          median(ratios.map((r) => r.throughputCost)) <= GOAL &&
          median(ratios.map((r) => r.p50Ratio)) <= GOAL,
      };
    }
  }
  return out;
}

export function markdown(results) {
  const summary = summarise(results);
  const lines = [];
  for (const [engine, methods] of Object.entries(summary)) {
    lines.push(`### ${engine}`, '');
    lines.push(
      '| call | mode | calls/s | p50 ms | p99 ms | server CPU % | driver CPU % | machine busy % | CPU µs/call (server + driver) |',
      '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const [method, s] of Object.entries(methods)) {
      for (const mode of ['grpc', 'inproc']) {
        const m = s[mode];
        const perCall =
          mode === 'grpc'
            ? `${int(m.serverUsPerCall)} + ${int(m.driverUsPerCall)}`
            : `– + ${int(m.driverUsPerCall)}`;
        lines.push(
          `| ${method} | ${mode === 'grpc' ? 'gRPC' : 'in-process'} | ${int(m.callsPerSec)} | ${f(m.p50)} | ${f(m.p99)} | ${mode === 'grpc' ? f(m.serverPct, 0) : '–'} | ${f(m.driverPct, 0)} | ${f(m.machineBusyPct, 0)} | ${perCall} |`,
        );
      }
    }
    lines.push(
      '',
      'Ratios (median of per-round ratios; each round pairs gRPC and in-process back to back):',
      '',
    );
    lines.push(
      '| call | in-process/gRPC throughput (cost) | gRPC/in-process throughput | gRPC/in-process p50 | gRPC/in-process p99 | per-round cost | per-round p50 ratio | goal ≤ 1.30 |',
      '|---|---:|---:|---:|---:|---|---|---|',
    );
    for (const [method, s] of Object.entries(methods)) {
      lines.push(
        `| ${method} | ${f(s.medianThroughputCost)} | ${f(1 / s.medianThroughputCost)} | ${f(s.medianP50Ratio)} | ${f(s.medianP99Ratio)} | ${s.ratios.map((r) => f(r.throughputCost)).join(' ')} | ${s.ratios.map((r) => f(r.p50Ratio)).join(' ')} | ${method === 'ListItems100' ? (s.goalMet ? '**met**' : '**not met**') : '(no goal)'} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
