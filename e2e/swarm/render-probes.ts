/**
 * What the Swarm tests read of the render replicas: which task answered a request through the
 * gateway, which new replicas take traffic, what a replica alone answers on its own port, its
 * segment-cache counters, and the records of a payload answer.
 */
import { sampleSum } from '@strata/testing';
import { getPage } from '../compose/page-load.js';
import { until } from '../harness/until.js';
import { upstreamOf, type SwarmStack, type Task } from './swarm-stack.js';

/** The render task that answered a request through the gateway (from its access log). */
export async function answeredBy(
  stack: SwarmStack,
  requestId: string,
  renders: readonly Task[],
): Promise<Task | undefined> {
  const upstream = await until(`the gateway's log line of ${requestId}`, async () =>
    upstreamOf(await stack.gatewayLog(), requestId),
  );
  // After a retry the log lists every replica tried: the last one answered.
  const last = upstream.split(', ').at(-1);
  return renders.find((task) => `${task.addresses['web']}:3000` === last);
}

/**
 * The ids of render tasks not in `known` that answered pages through the gateway, loading it in
 * rounds of 8 until `count` of them have or `deadline` (epoch ms) has passed.
 */
export async function newReplicasAnswering(
  stack: SwarmStack,
  known: ReadonlySet<string>,
  count: number,
  deadline: number,
): Promise<string[]> {
  const answered = new Set<string>();
  while (answered.size < count && Date.now() < deadline) {
    const ids = await Promise.all(
      Array.from({ length: 8 }, async () => {
        // A fresh connection each: the gateway reloads as the new replicas appear in DNS.
        const { status, headers } = await getPage(`${stack.url}/bench/items`);
        if (status !== 200) throw new Error(`a page answered ${status}`);
        return String(headers['x-request-id'] ?? '');
      }),
    );
    const renders = await stack.tasks('render');
    for (const id of ids) {
      const replica = await answeredBy(stack, id, renders);
      if (replica && !known.has(replica.id)) answered.add(replica.id);
    }
  }
  return [...answered];
}

/** GETs a path from inside a render task, on its own port: what that replica alone answers. */
export function getInside(stack: SwarmStack, task: Task, path: string): Promise<string> {
  const script =
    'fetch(process.argv[1]).then(async (r) => { if (!r.ok) process.exit(2); process.stdout.write(await r.text()); })';
  return stack.exec(task, 'node', '-e', script, `http://127.0.0.1:3000${path}`);
}

/** A render task's segment-cache counters. */
export async function cacheCounters(stack: SwarmStack, task: Task) {
  const text = await getInside(stack, task, '/metrics');
  return {
    misses: sampleSum(text, 'strata_segment_cache_misses_total') ?? 0,
    storeHits: sampleSum(text, 'strata_segment_cache_hits_total', { layer: 'store' }) ?? 0,
  };
}

/** The payload records of an answer (one JSON object a line). */
export async function recordsOf(
  response: Response,
): Promise<{ type: string; [key: string]: unknown }[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string });
}
