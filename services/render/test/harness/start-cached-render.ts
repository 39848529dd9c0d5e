/**
 * Several render replicas in-process serving the bench app (the catalogue plus /bench/*), each
 * with its own data-service transport and segment cache (Redis when a URL is given, in-process
 * otherwise), in front of one real data service (PGlite in memory, real gRPC). Counts every read the replicas send to the data service, and shares one
 * adjustable clock so tests can age entries without waiting.
 */
import { createBenchApp } from '@strata/app-bench';
import {
  createGrpcTransport,
  type ChangeWatcher,
  type GrpcTransport,
} from '@strata/catalog-client';
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { payloadHash } from '@strata/web';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { buildRenderApp, loadRenderConfig, startServedApp } from '../../src/index.js';
import { observeReads } from './observe-reads.js';
import {
  startSegmentCache,
  type RunningSegmentCache,
  type SegmentCacheSettings,
} from '../../src/segment-cache/index.js';

/** One render replica. */
export interface Replica {
  readonly app: FastifyInstance;
  readonly caching: RunningSegmentCache;
  /** The catalogue's subscription to the data service's change feed. */
  readonly watcher: ChangeWatcher;
  readonly metrics: Registry;
  readonly logged: Record<string, unknown>[];
  /** The value of one cache counter (summed over labels matching `labels`). */
  counter(name: string, labels?: Record<string, string>): Promise<number>;
}

/** The replicas and what they share. */
export interface CachedStack {
  readonly data: RunningDataService;
  readonly replicas: Replica[];
  /** Data-service reads (ListItems, GetItem, ListCategories) made by every replica so far. */
  reads(): number;
  /** Moves the replicas' clock forward. */
  advance(ms: number): void;
  stop(): Promise<void>;
}

const READ_METHODS = new Set(['ListItems', 'GetItem', 'ListCategories']);

/** Starts a data service and `count` replicas. */
export async function startCachedStack(options: {
  readonly count: number;
  readonly redisUrl?: string;
  /** More settings of every replica (REDIS_SENTINELS and its companions). */
  readonly env?: Readonly<Record<string, string>>;
  readonly keyPrefix?: string;
  readonly overrides?: Partial<SegmentCacheSettings>;
}): Promise<CachedStack> {
  const data = await startDataService(
    loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
    pino({ level: 'silent' }),
  );
  let reads = 0;
  let offset = 0;
  const now = () => Date.now() + offset;
  const transports: GrpcTransport[] = [];
  const replicas: Replica[] = [];
  for (let index = 0; index < options.count; index++) {
    const settings = {
      DATA_SERVICE_ADDRESS: data.address,
      PUBLIC_ORIGINS: 'http://shop.test',
      ACTION_SALT: 'test-action-salt',
      BUILD_ID: 'test-build',
      ...(options.redisUrl && { REDIS_URL: options.redisUrl }),
      ...options.env,
    };
    const config = loadRenderConfig(settings);
    const logged: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line)) },
    );
    const transport = observeReads(createGrpcTransport(data.address), (path) => {
      if (READ_METHODS.has(path.split('/').pop() ?? '')) reads += 1;
    });
    transports.push(transport);
    const metrics = new Registry();
    const served = await startServedApp(createBenchApp({ dataTransport: transport }), {
      config,
      env: settings,
      logger,
      metrics,
    });
    let watcher: ChangeWatcher | undefined;
    const caching = startSegmentCache({
      config,
      build: 'test-build',
      logger,
      // The catalogue's subscription is its change watcher: kept so tests can stop and resume it.
      watchChanges: (subscriber) => {
        watcher = served.running.watchChanges?.(subscriber) as ChangeWatcher;
        return watcher;
      },
      registry: metrics,
      now,
      overrides: {
        ...(options.keyPrefix && { keyPrefix: options.keyPrefix }),
        ...options.overrides,
      },
    });
    await caching.cache.ready(5000);
    const app = await buildRenderApp({
      config,
      logger,
      served,
      assets: { directory: undefined, scripts: ['/assets/client-test.js'], contentHash: 'test' },
      segmentCache: caching.cache,
      cacheHealthy: () => caching.cache.healthy(),
      revalidate: (tags) => caching.cache.invalidate(tags, 'revalidate'),
      metrics,
    });
    await app.ready();
    if (!watcher) throw new Error('the catalogue app follows no change feed');
    replicas.push({
      app,
      caching,
      watcher,
      metrics,
      logged,
      async counter(name, labels = {}) {
        const metric = await metrics.getSingleMetric(`strata_segment_cache_${name}`)?.get();
        return (metric?.values ?? [])
          .filter((value) =>
            Object.entries(labels).every(
              ([label, wanted]) => String(value.labels[label]) === wanted,
            ),
          )
          .reduce((sum, value) => sum + value.value, 0);
      },
    });
  }
  return {
    data,
    replicas,
    reads: () => reads,
    advance(ms) {
      offset += ms;
    },
    async stop() {
      for (const replica of replicas) {
        await replica.app.close();
        await replica.caching.close();
      }
      for (const transport of transports) transport.close();
      await data.stop();
    },
  };
}

/** Headers of a payload request for `url` from a browser showing `tree` (protocol.md). */
export function payloadRequest(
  url: string,
  tree: string,
  prefetch?: 'auto' | 'full',
): { url: string; headers: Record<string, string> } {
  const hash = payloadHash({ tree, prefetch });
  return {
    url: `${url}${url.includes('?') ? '&' : '?'}_p=${hash}`,
    headers: {
      'strata-payload': '1',
      'strata-tree': tree,
      ...(prefetch && { 'strata-prefetch': prefetch }),
    },
  };
}

/** Waits until `check` holds (polling), failing after `timeoutMs`. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
