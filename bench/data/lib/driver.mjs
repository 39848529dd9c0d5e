// Closed-loop load: `concurrency` workers, each issuing its next call as soon as the previous one
// completes. Calls completing inside [warm-up end, warm-up end + duration] are measured.
import { machineTicks } from '../../kit/cpu.mjs';
import { busyTicks } from '../../kit/proc-stat.mjs';
import { median as medianOf, nearestRank as percentile } from '../../kit/stats.mjs';

/** Whole-machine CPU counters (ticks) from /proc/stat: busy and total. */
export function machineCpu() {
  try {
    const ticks = machineTicks();
    return { busy: busyTicks(ticks), total: Object.values(ticks).reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
}

/**
 * Runs the loop. `call()` returns a promise for one call. `snapshot()` (optional, may be async)
 * is taken by the first worker past the start and the end of measurement (sync parts at that instant); the pair is returned as `snapshots`.
 */
export async function closedLoop({ call, concurrency, warmupMs, durationMs, snapshot }) {
  const latencies = [];
  let errors = 0;
  let firstError;
  const begin = performance.now();
  const t0 = begin + warmupMs;
  const t1 = t0 + durationMs;
  // Snapshots are taken by the first call to complete past each boundary, not by timers: an
  // in-process loop over PGlite can run on microtasks alone and starve timers until the end.
  const snaps = [];
  const pending = [];
  const take = (label) => {
    const at = performance.now();
    const value = snapshot?.();
    pending.push(Promise.resolve(value).then((v) => snaps.push({ label, at, value: v })));
  };
  let startTaken = false;
  let endTaken = false;

  async function worker() {
    for (;;) {
      const started = performance.now();
      if (started >= t1) {
        if (!endTaken) {
          endTaken = true;
          take('end');
        }
        return;
      }
      if (!startTaken && started >= t0) {
        startTaken = true;
        take('start');
      }
      try {
        await call();
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
      const ended = performance.now();
      if (ended >= t0 && ended < t1) latencies.push(ended - started);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  await Promise.all(pending);

  latencies.sort((a, b) => a - b);
  const seconds = durationMs / 1000;
  return {
    calls: latencies.length,
    callsPerSec: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p90: percentile(latencies, 0.9),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1),
    mean: latencies.reduce((a, b) => a + b, 0) / (latencies.length || 1),
    errors,
    firstError: firstError ? String(firstError.message ?? firstError) : undefined,
    snapshots: snaps,
  };
}

/** The median of the finite values (a phase a round skipped is missing); NaN if none. */
export const median = (values) => {
  const finite = values.filter((v) => Number.isFinite(v));
  return finite.length ? medianOf(finite) : NaN;
};
