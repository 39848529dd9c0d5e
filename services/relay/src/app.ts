/**
 * `buildApp(deps)`: the relay's composition root. Wires the config and injectable adapters
 * (spool, upstream sender, logger, clock) into the delivery side (delivery.ts) and the HTTP side
 * (server.ts), and owns the order of shutdown. Tests call this; `main.ts` adds process concerns
 * (env, signals, listening).
 */
import { closeRedisClient } from '@strata/redis';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { RelayConfig } from './config.js';
import { hostname } from 'node:os';
import { createEventDedupe } from './dedupe/event-dedupe.js';
import { createDelivery, openSpool, type Delivery } from './delivery.js';
import { createDsnRegistry } from './dsn/dsn-registry.js';
import { createMetrics } from './metrics.js';
import { createClientLimiters } from './shared-limits/client-limiters.js';
import { createRateLimitState } from './rate-limits/rate-limit-state.js';
import { openSharedLimitsRedis } from './shared-limits/shared-limits-redis.js';
import { openTraceExport } from './otlp/open-trace-export.js';
import { startOrphanDrain } from './orphan-drain.js';
import { claimSpoolSlot, clearIfDrained } from './spool-slots/shared-spool.js';
import type { LeaseOptions } from './spool-slots/slot-directory.js';
import { createServer, registerRoutes, type HttpIntake } from './server.js';
import type { RecoveryReport, Spool } from './spool/spool.js';
import type { Forwarder } from './upstream/forwarder.js';
import type { SendEnvelope } from './upstream/http-send.js';

/** What the relay is built from; everything but `config` has a production default. */
export interface RelayDeps {
  readonly config: RelayConfig;
  /** An unopened spool (default: files under RELAY_SPOOL_DIR). */
  readonly spool?: Spool;
  readonly send?: SendEnvelope;
  readonly logger?: FastifyBaseLogger;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly processMetrics?: boolean;
  /**
   * With RELAY_SPOOL_SHARED: this replica's spool slot was taken over (it stalled past the
   * lease), so it must stop writing at once (default: logged).
   */
  readonly onSpoolLeaseLost?: (error: Error) => void;
}

/** The built relay. */
export interface RelayApp {
  readonly app: FastifyInstance;
  /** Turns pending drop outcomes into client-report envelopes in the spool. */
  flushClientReports(): Promise<void>;
  /** Stops accepting, waits for in-flight sends (they stay spooled if cut), flushes, closes. */
  shutdown(timeoutMs?: number): Promise<void>;
}

const VERSION = '0.1.0';
const CLIENT_NAME = `strata-relay/${VERSION}`;

/** Builds the relay (opens the spool and queues what it recovered). */
export async function buildApp(deps: RelayDeps): Promise<RelayApp> {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const registry = createDsnRegistry(config.RELAY_DSNS, {
    upstreamKind: config.RELAY_UPSTREAM_KIND,
    upstreamUrl: config.RELAY_UPSTREAM,
    clientName: CLIENT_NAME,
  });
  const lease: LeaseOptions = {
    instanceId: config.RELAY_INSTANCE_ID ?? hostname(),
    staleMs: config.RELAY_SPOOL_LEASE_STALE,
    onLost: (error) =>
      deps.onSpoolLeaseLost
        ? deps.onSpoolLeaseLost(error)
        : app.log.fatal({ err: error }, 'spool slot lease lost'),
  };
  const slot =
    config.RELAY_SPOOL_SHARED && !deps.spool
      ? await claimSpoolSlot(config.RELAY_SPOOL_DIR, lease)
      : undefined;
  const { spool, recovery } = await openSpool(config, deps.spool, slot?.dir);
  const rateLimits = createRateLimitState();
  // The forwarder reports into the metrics, and they read its in-flight count when scraped;
  // likewise the state of the shared limits' Redis connection.
  let forwarder: Forwarder | undefined;
  let redis: Redis | undefined;
  const metrics = createMetrics(
    {
      spoolStats: () => spool.stats(),
      inFlight: () => forwarder?.inFlight() ?? 0,
      rateLimits,
      now,
      sharedLimitsConnected: () => redis && redis.status === 'ready',
    },
    deps.processMetrics ?? false,
  );
  const app = createServer(config, deps.logger, metrics);
  const deliveryParts = {
    send: deps.send,
    registry,
    rateLimits,
    metrics,
    userAgent: CLIENT_NAME,
    now,
    random: deps.random ?? Math.random,
  };
  const delivery = createDelivery(config, { ...deliveryParts, spool, log: app.log });
  forwarder = delivery.forwarder;
  redis = openSharedLimitsRedis(config, app.log);
  const dedupe = createEventDedupe(
    { windowMs: config.RELAY_DEDUPE_WINDOW, maxIds: config.RELAY_DEDUPE_MAX_IDS, now },
    redis && {
      redis,
      keyPrefix: `${config.RELAY_REDIS_KEY_PREFIX}event:`,
      onLocalOnly: metrics.dedupedLocally,
    },
  );
  const traces = openTraceExport(config, metrics, app.log);
  const intake = await registerRoutes(app, config, {
    registry,
    rateLimits,
    limiters: createClientLimiters(config, redis, metrics),
    spool,
    outcomes: delivery.outcomes,
    metrics,
    upstreamReachable: delivery.forwarder.upstreamReachable,
    traces,
    dedupe,
    now,
  });

  logRecovery(app.log, recovery);
  if (slot) app.log.info({ slot: slot.slot, instance: lease.instanceId }, 'spool slot leased');
  delivery.start();
  const orphans =
    slot &&
    startOrphanDrain(config, {
      root: config.RELAY_SPOOL_DIR,
      ownSlot: slot.slot,
      lease,
      delivery: deliveryParts,
      log: app.log,
    });
  return {
    app,
    flushClientReports: delivery.flushClientReports,
    shutdown: async (timeoutMs = 10_000) => {
      // Spans leave beside the spool's envelopes, within the same deadline; then those of the
      // requests that finished while the intake closed.
      const until = performance.now() + timeoutMs;
      await Promise.all([
        shutdownInOrder(intake, delivery, timeoutMs),
        traces?.flush(timeoutMs),
        orphans?.stop(timeoutMs),
      ]);
      // A slot left with nothing pending is free and empty for whichever replica comes next.
      if (slot) await clearIfDrained(slot.dir).finally(() => slot.release());
      await traces?.close(Math.max(0, until - performance.now()));
      if (redis) await closeRedisClient(redis);
    },
  };
}

function logRecovery(log: FastifyBaseLogger, recovery: RecoveryReport): void {
  if (recovery.recovered > 0) log.info(recovery, 'spooled envelopes recovered');
  if (recovery.skippedRegions > 0) log.error(recovery, 'spool recovery skipped corrupted records');
}

/**
 * Intake first, so nothing new reaches the spool; then delivery, in what is left of one
 * deadline: everything spooled is sent (what is cut short stays spooled for the next start on
 * this spool), the last client reports are spooled, and only then does the spool close.
 */
async function shutdownInOrder(
  intake: HttpIntake,
  delivery: Delivery,
  timeoutMs: number,
): Promise<void> {
  const until = performance.now() + timeoutMs;
  intake.stopAccepting();
  // The final flushes in `close` are the only ones from here on.
  delivery.stopReports();
  await intake.close(timeoutMs);
  await delivery.close(Math.max(0, until - performance.now()));
}
