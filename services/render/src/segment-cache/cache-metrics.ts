/**
 * What the segment cache reports (CacheEvents, a plain interface the cache calls) and its
 * Prometheus adapter. Label values come from closed lists so dashboards can rely on them.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BreakerState } from './circuit-breaker.js';
import type { UncacheableReason } from './entry-codec.js';

/** Where an invalidation came from. */
export type InvalidationSource = 'revalidate' | 'watch' | 'reset' | 'replay' | 'server-change';

/** How a regeneration (a load under the key's lock, or alone after waiting) ended. */
export type RegenerationOutcome = 'stored' | 'not-cacheable' | 'refused' | 'failed';

/** How a wait for another replica's regeneration ended. */
export type WaitOutcome = 'filled' | 'took-lock' | 'gave-up';

/** Why a lookup skipped the cache. */
export type BypassReason = 'private' | 'unavailable' | 'too-many-names';

/** The events the cache reports. */
export interface CacheEvents {
  hit(layer: 'front' | 'store'): void;
  staleHit(): void;
  miss(): void;
  bypass(reason: BypassReason): void;
  regeneration(outcome: RegenerationOutcome): void;
  notCacheable(reason: UncacheableReason): void;
  wait(outcome: WaitOutcome): void;
  invalidation(source: InvalidationSource): void;
  error(operation: string): void;
  breaker(state: BreakerState['kind']): void;
}

/** Events that go nowhere (tests that do not look). */
export const SILENT_EVENTS: CacheEvents = {
  hit: () => undefined,
  staleHit: () => undefined,
  miss: () => undefined,
  bypass: () => undefined,
  regeneration: () => undefined,
  notCacheable: () => undefined,
  wait: () => undefined,
  invalidation: () => undefined,
  error: () => undefined,
  breaker: () => undefined,
};

const BREAKER_VALUE: Record<BreakerState['kind'], number> = { closed: 0, 'half-open': 1, open: 2 };

/** Registers the cache's metrics in `registry`; `frontBytes` is read at scrape time. */
export function createCacheMetrics(registry: Registry, frontBytes: () => number): CacheEvents {
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name: `strata_segment_cache_${name}`, help, labelNames, registers: [registry] });
  const hits = counter('hits_total', 'Fresh entries served, by layer (front, store)', ['layer']);
  const staleHits = counter(
    'stale_hits_total',
    'Stale entries served while one replica regenerates',
  );
  const misses = counter('misses_total', 'Lookups without a usable entry');
  const bypasses = counter('bypasses_total', 'Lookups that skipped the cache, by reason', [
    'reason',
  ]);
  const regenerations = counter(
    'regenerations_total',
    'Loads run for the cache (under the key lock, or alone after waiting), by outcome',
    ['outcome'],
  );
  const notCacheable = counter('not_cacheable_total', 'Results not stored, by reason', ['reason']);
  const waits = counter('waits_total', 'Waits for another regenerator, by outcome', ['outcome']);
  const invalidations = counter('invalidations_total', 'Invalidations, by source', ['source']);
  const errors = counter('errors_total', 'Failed store or bus operations, by operation', [
    'operation',
  ]);
  const breaker = new Gauge({
    name: 'strata_segment_cache_breaker_state',
    help: 'Circuit breaker around the shared store: 0 closed, 1 half-open, 2 open',
    registers: [registry],
  });
  registry.registerMetric(
    new Gauge({
      name: 'strata_segment_cache_front_bytes',
      help: 'Bytes held by this replica’s in-process cache',
      registers: [],
      collect() {
        this.set(frontBytes());
      },
    }),
  );
  breaker.set(0);
  return {
    hit: (layer) => hits.inc({ layer }),
    staleHit: () => staleHits.inc(),
    miss: () => misses.inc(),
    bypass: (reason) => bypasses.inc({ reason }),
    regeneration: (outcome) => regenerations.inc({ outcome }),
    notCacheable: (reason) => notCacheable.inc({ reason }),
    wait: (outcome) => waits.inc({ outcome }),
    invalidation: (source) => invalidations.inc({ source }),
    error: (operation) => errors.inc({ operation }),
    breaker: (state) => breaker.set(BREAKER_VALUE[state]),
  };
}
