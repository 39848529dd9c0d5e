// Closed-loop load: `concurrency` workers, each issuing its next call as soon as the previous one
// completes. Calls completing inside [warm-up end, warm-up end + duration] are measured.
import { readFileSync } from 'node:fs';

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** Whole-machine CPU counters (jiffies) from /proc/stat: busy and total. */
export function machineCpu() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = v[3] + (v[4] ?? 0);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
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

export const median = (values) => {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
