import { describe, expect, it } from 'vitest';
import { createSpanBatcher, type SendSpans, type SpanDropReason } from './span-batcher.js';
import type { OtlpResourceSpans } from './transaction-spans.js';

/** A resource with `count` spans named after `tag`. */
function resource(tag: string, count = 1): OtlpResourceSpans {
  const spans = Array.from({ length: count }, (_, index) => ({
    traceId: '0'.repeat(32),
    spanId: index.toString(16).padStart(16, '0'),
    name: `${tag}-${index}`,
    kind: 1,
    startTimeUnixNano: '1',
    endTimeUnixNano: '2',
    attributes: [],
    status: { code: 0 },
  }));
  return { resource: { attributes: [] }, scopeSpans: [{ scope: { name: 't' }, spans }] };
}

function harness(
  answers: Array<number | Error>,
  { batchSpans = 2, maxQueuedSpans = 100, retryBaseMs = 5 } = {},
) {
  const bodies: string[] = [];
  const exported: number[] = [];
  const dropped: Array<[SpanDropReason, number]> = [];
  const send: SendSpans = async (body) => {
    bodies.push(body);
    const answer = answers.shift() ?? 200;
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const batcher = createSpanBatcher({
    send,
    maxQueuedSpans,
    batchSpans,
    intervalMs: 20,
    maxAttempts: 3,
    retryBaseMs,
    onExported: (spans) => exported.push(spans),
    onDropped: (reason, spans) => dropped.push([reason, spans]),
    onError: () => undefined,
  });
  const names = (body: string) =>
    (JSON.parse(body) as { resourceSpans: OtlpResourceSpans[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name)),
    );
  return { batcher, bodies, exported, dropped, names };
}

describe('span batcher', () => {
  it('sends a full batch at once and the rest after the interval', async () => {
    const { batcher, bodies, exported, names } = harness([]);
    batcher.push(resource('a'));
    batcher.push(resource('b'));
    batcher.push(resource('c'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(bodies.map(names)).toEqual([['a-0', 'b-0'], ['c-0']]);
    expect(exported).toEqual([2, 1]);
  });

  it('tries a failed request again, and drops what a collector refuses', async () => {
    const retried = harness([new Error('ECONNREFUSED'), 429]);
    retried.batcher.push(resource('a', 2));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(retried.bodies).toHaveLength(3);
    expect(retried.exported).toEqual([2]);

    const refused = harness([400]);
    refused.batcher.push(resource('a', 2));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(refused.bodies).toHaveLength(1);
    expect(refused.dropped).toEqual([['rejected', 2]]);

    const down = harness([new Error('down'), new Error('down'), new Error('down')]);
    down.batcher.push(resource('a', 2));
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(down.dropped).toEqual([['unreachable', 2]]);
  });

  it('keeps its queue bounded by dropping the oldest, and flushes on close', async () => {
    const { batcher, dropped, bodies, names } = harness([], { batchSpans: 100, maxQueuedSpans: 3 });
    for (const tag of ['a', 'b', 'c', 'd']) batcher.push(resource(tag));
    expect(dropped).toEqual([['queue-full', 1]]);
    await batcher.close(1000);
    expect(bodies.map(names)).toEqual([['b-0', 'c-0', 'd-0']]);
    batcher.push(resource('late'));
    expect(dropped).toEqual([
      ['queue-full', 1],
      ['shutdown', 1],
    ]);
  });

  it('gives up on a failing collector at the shutdown deadline and counts what it drops', async () => {
    const failing = Array.from({ length: 10 }, () => 503);
    const { batcher, bodies, dropped } = harness(failing, { retryBaseMs: 10_000 });
    batcher.push(resource('a', 2));
    batcher.push(resource('b', 2));
    const started = performance.now();
    await batcher.close(100);
    // The first batch failed once and waited for its next try; the close cut that pause short.
    expect(performance.now() - started).toBeLessThan(1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(bodies).toHaveLength(1);
    expect(dropped).toEqual([
      ['shutdown', 2],
      ['shutdown', 2],
    ]);
  });

  it('flush sends a partial batch at once, and keeps accepting spans', async () => {
    const { batcher, bodies, names } = harness([], { batchSpans: 100 });
    batcher.push(resource('a'));
    await batcher.flush(1000);
    expect(bodies.map(names)).toEqual([['a-0']]);
    batcher.push(resource('b'));
    await batcher.close(1000);
    expect(bodies.map(names)).toEqual([['a-0'], ['b-0']]);
  });
});
