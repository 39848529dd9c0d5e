/**
 * A mixed read/write load on the data service for failover tests: writers create items and
 * update their own, readers get and list, each call with a deadline. Every call is recorded with
 * its outcome and duration, and every acknowledged write with what it promised, so a test can
 * check afterwards that none of them is missing.
 */
import { status } from '@grpc/grpc-js';
import { CallError, type TestClient } from './catalog-client.js';

/** How one call ended: OK, a retryable refusal (UNAVAILABLE, DEADLINE_EXCEEDED), or other. */
export type Outcome = 'ok' | 'retryable' | 'other';

/** One call. */
export interface CallRecord {
  readonly kind: 'read' | 'write';
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outcome: Outcome;
  /** gRPC status and ErrorInfo reason of a failure. */
  readonly failure?: string;
}

/** An acknowledged write: the item, and the version the service said it reached. */
export interface AcknowledgedWrite {
  readonly id: number;
  readonly title: string;
  readonly version: number;
  readonly sequence: number;
}

/** A running load. */
export interface MixedLoad {
  readonly calls: CallRecord[];
  readonly acknowledged: AcknowledgedWrite[];
  /** Stops issuing calls and waits for those in flight. */
  stop(): Promise<void>;
}

const RETRYABLE = new Set<number>([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

/** Starts `writers` + `readers` loops, each pausing `pauseMs` between calls. */
export function startMixedLoad(
  client: TestClient,
  options: { writers: number; readers: number; deadlineMs: number; pauseMs: number; runId: string },
): MixedLoad {
  const calls: CallRecord[] = [];
  const acknowledged: AcknowledgedWrite[] = [];
  const stopping = new AbortController();

  async function timed<T>(kind: CallRecord['kind'], call: () => Promise<T>): Promise<T | null> {
    const startedAt = Date.now();
    try {
      const result = await call();
      calls.push({ kind, startedAt, endedAt: Date.now(), outcome: 'ok' });
      return result;
    } catch (error) {
      const code = error instanceof CallError ? error.code : -1;
      const reason = error instanceof CallError ? error.details.reason : String(error);
      calls.push({
        kind,
        startedAt,
        endedAt: Date.now(),
        outcome: RETRYABLE.has(code) ? 'retryable' : 'other',
        failure: `${status[code] ?? code} ${reason ?? ''}`.trim(),
      });
      return null;
    }
  }

  async function writer(index: number): Promise<void> {
    // The writer's latest item and the version it knows; unknown after a failed update (the
    // write may have been applied), then read again before the next update.
    let mine: { id: number; version: number | undefined } | undefined;
    for (let n = 0; !stopping.signal.aborted; n += 1) {
      if (mine && mine.version === undefined) {
        const read = await timed('read', () =>
          client.getItem({ id: mine!.id }, options.deadlineMs),
        );
        if (read?.item) mine.version = read.item.version;
      } else if (mine && n % 2 === 1) {
        const target = mine;
        const updated = await timed('write', () =>
          client.updateItem(
            {
              item: { id: target.id, priceCents: n },
              updateMask: ['price_cents'],
              expectedVersion: target.version,
            },
            options.deadlineMs,
          ),
        );
        target.version = updated?.item?.version;
        if (updated?.item)
          acknowledged.push({
            id: updated.item.id,
            title: updated.item.title,
            version: updated.item.version,
            sequence: updated.changeSequence,
          });
      } else {
        const title = `Failover ${options.runId} w${index} #${n}`;
        const created = await timed('write', () =>
          client.createItem(
            { title, priceCents: n, categoryId: 'cat-1', description: 'written during a failover' },
            options.deadlineMs,
          ),
        );
        if (created?.item) {
          mine = { id: created.item.id, version: created.item.version };
          acknowledged.push({
            id: created.item.id,
            title,
            version: created.item.version,
            sequence: created.changeSequence,
          });
        }
      }
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  }

  async function reader(index: number): Promise<void> {
    for (let n = 0; !stopping.signal.aborted; n += 1) {
      if (n % 2 === 0)
        await timed('read', () =>
          client.getItem({ id: 1 + ((index * 37 + n) % 1000) }, options.deadlineMs),
        );
      else
        await timed('read', () =>
          client.listItems({ categoryId: 'cat-2', pageSize: 20 }, options.deadlineMs),
        );
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  }

  const loops = [
    ...Array.from({ length: options.writers }, (_, index) => writer(index)),
    ...Array.from({ length: options.readers }, (_, index) => reader(index)),
  ];
  return {
    calls,
    acknowledged,
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
