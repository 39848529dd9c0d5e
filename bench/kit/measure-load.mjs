// Load on one target, or on several in the same seconds, with each target's own processes' CPU
// per completed request read from /proc over those seconds. One side alone is a sequential A/B
// round's measurement; both sides at once is a TOGETHER round's, where a swing in the machine's
// speed hits both alike.
import { cpuMs } from './cpu.mjs';
import { load, warmUp } from './load.mjs';
import { cpuMsPerRequest } from './proc-stat.mjs';

const cpuOf = (pids) =>
  Object.fromEntries(Object.entries(pids).map(([service, pid]) => [service, cpuMs(pid)]));

/** Warms every target at once for `seconds` (autocannon options as for measureLoad). */
export const warmUpAll = (targets, options, seconds) =>
  Promise.all(Object.values(targets).map(({ url }) => warmUp({ ...options, url }, seconds)));

/**
 * `targets`: `{ label: { url, pids: { service: pid } } }`; `options`: autocannon's (connections,
 * duration, …) for each target's own load. Resolves with `{ label: { completed, perSecond,
 * cpuMs: { service: CPU ms per request } } }`; a failed request fails the measurement.
 */
export async function measureLoad(targets, options) {
  const labels = Object.keys(targets);
  // Every reading before any load starts and after all have ended: the same seconds for all.
  const before = labels.map((label) => cpuOf(targets[label].pids));
  const outcomes = await Promise.all(
    labels.map((label) => load({ ...options, url: targets[label].url })),
  );
  const after = labels.map((label) => cpuOf(targets[label].pids));
  return Object.fromEntries(
    labels.map((label, i) => {
      const { completed, failed, perSecond } = outcomes[i];
      if (failed > 0) throw new Error(`${label}: ${failed} failed requests`);
      const perRequest = Object.fromEntries(
        Object.keys(before[i]).map((service) => [
          service,
          cpuMsPerRequest(before[i][service], after[i][service], completed),
        ]),
      );
      return [label, { completed, perSecond, cpuMs: perRequest }];
    }),
  );
}
