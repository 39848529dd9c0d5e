// A closed-loop HTTP load driver: `concurrency` keep-alive connections, each sending its next
// request as soon as the previous answer has been read completely. Requests finishing inside
// [warm-up end, warm-up end + duration] are measured (latency from send to last byte).
import http from 'node:http';

import { nearestRank as percentile } from '../kit/stats.mjs';

/** One GET, resolved with { status, body }. */
export function get(agent, port, request) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: request.path, headers: request.headers, agent },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Runs the loop against `port`. `next(i)` returns the i-th request ({ path, headers });
 * `check(answer)` returns true for a good answer.
 */
export async function closedLoop({ port, next, check, concurrency, warmupMs, durationMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  let errors = 0;
  let firstError;
  let sent = 0;
  const begin = performance.now();
  const t0 = begin + warmupMs;
  const t1 = t0 + durationMs;

  async function worker() {
    for (;;) {
      const started = performance.now();
      if (started >= t1) return;
      const request = next(sent++);
      let ok = false;
      try {
        ok = check(await get(agent, port, request));
      } catch (error) {
        firstError ??= String(error);
      }
      const ended = performance.now();
      if (ended >= t0 && ended <= t1) {
        if (ok) latencies.push(ended - started);
        else errors += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    firstError,
    rps: latencies.length / (durationMs / 1000),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

/** Seeded, so mixed loads are the same on every run. */
export { seededRandom } from '../kit/stats.mjs';
