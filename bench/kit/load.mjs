// Load from autocannon, the anchor benchmark's load generator (the same pinned version: the
// anchors' own copy when ANCHORS names them, else the repository's).
import { createRequire } from 'node:module';
import { join } from 'node:path';

const requireFrom = createRequire(
  process.env.ANCHORS ? join(process.env.ANCHORS, 'package.json') : import.meta.url,
);
const autocannon = requireFrom('autocannon');

/** The same autocannon's command line, for load from a process of its own (its CPU apart). */
export const AUTOCANNON_CLI = requireFrom.resolve('autocannon/autocannon.js');

/**
 * Loads `url` for `duration` seconds with `connections` keep-alive connections (`method`,
 * `body`, `headers` as autocannon takes them). Resolves with the completed 2xx requests, the
 * failures (non-2xx, errors, timeouts) and requests per second.
 */
export async function load({ url, duration, connections = 50, ...request }) {
  const result = await autocannon({ url, duration, connections, ...request });
  return outcomeOf(result, duration);
}

/** autocannon's whole result (latency percentiles, status counts), for benches that report them. */
export const loadResult = (options) => autocannon(options);

/** Requests that count and those that failed, from autocannon's result. */
export function outcomeOf(result, duration) {
  const completed = result['2xx'];
  return {
    completed,
    failed: result.non2xx + result.errors + result.timeouts,
    perSecond: completed / duration,
  };
}

/** Load that is thrown away: JIT, caches and connection pools warm before a measurement. */
export const warmUp = (options, seconds) => load({ ...options, duration: seconds });
