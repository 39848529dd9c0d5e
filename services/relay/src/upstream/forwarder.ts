/**
 * Delivery policy: drains the spool in order with at most `maxInFlight` envelopes upstream,
 * drops items that became rate limited, updates limits from every response (except 413, as the
 * SDK transport does), completes on 2xx/429/final 4xx, and on network errors, 5xx or a spool
 * read error counts an attempt, puts the envelope back at the front of its DSN's queue and pauses
 * that destination only (exponential backoff with jitter, then one probe). I/O is injected.
 */
import type { DsnRegistry } from '../dsn/dsn-registry.js';
import { parseEnvelope } from '../envelope/parse-envelope.js';
import { itemCategory, itemQuantity } from '../envelope/item-category.js';
import { serializeEnvelope } from '../envelope/serialize-envelope.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import type { OutcomeSink } from '../outcomes/outcome-sink.js';
import type { RateLimitState } from '../rate-limits/rate-limit-state.js';
import { isRateLimited } from '../rate-limits/rate-limits.js';
import { SpoolRecordCorruptError, type Spool, type SpoolEntry } from '../spool/spool.js';
import { createDestinationBackoff, type SendTicket } from './destination-backoff.js';
import type { SendEnvelope, UpstreamResponse } from './http-send.js';
import { isRetryableStatus, type RetryPolicy } from './retry-policy.js';

/** Observations for metrics and logs. */
export interface ForwarderObserver {
  onResponse(status: number | 'network-error', durationMs: number): void;
  onError(message: string, dsnKey: string): void;
}

/** Forwarder dependencies. */
export interface ForwarderDeps {
  readonly spool: Spool;
  readonly send: SendEnvelope;
  readonly registry: DsnRegistry;
  readonly rateLimits: RateLimitState;
  readonly outcomes: OutcomeSink;
  readonly observer: ForwarderObserver;
  readonly maxInFlight: number;
  readonly maxAgeMs: number;
  readonly retry: RetryPolicy;
  readonly now: () => number;
  readonly random: () => number;
}

/** The forwarder's interface. */
export interface Forwarder {
  /** Starts as many sends as capacity allows. */
  pump(): void;
  inFlight(): number;
  /** Whether the last upstream attempt got an HTTP answer (or none was made yet). */
  upstreamReachable(): boolean;
  /** Stops starting new sends and waits (up to `timeoutMs`) for in-flight ones. */
  drain(timeoutMs: number): Promise<boolean>;
}

/** Creates a forwarder over a spool. */
export function createForwarder(deps: ForwarderDeps): Forwarder {
  let active = 0;
  let wakeTimer: ReturnType<typeof setTimeout> | undefined;
  let wakeAt = 0;
  let reachable = true;
  let stopped = false;
  const backoff = createDestinationBackoff(deps.retry, deps.random);
  const idleWaiters: Array<() => void> = [];

  function dropAll(entry: SpoolEntry, body: Uint8Array, reason: DropReason): void {
    const parsed = parseEnvelope(body);
    if (!parsed.ok) return;
    for (const item of parsed.envelope.items) {
      deps.outcomes.record(
        entry.dsnKey,
        reason,
        itemCategory(item.type),
        itemQuantity(item.header),
      );
    }
  }

  /** Completes an envelope that is not sent (dropped); frees its probe slot. */
  function finishUnsent(entry: SpoolEntry, ticket: SendTicket): void {
    backoff.skipped(ticket);
    deps.spool.complete(entry);
  }

  async function deliver(entry: SpoolEntry, ticket: SendTicket): Promise<void> {
    let body: Uint8Array;
    try {
      body = await deps.spool.readBody(entry);
    } catch (error) {
      if (error instanceof SpoolRecordCorruptError) {
        deps.observer.onError(`dropping an unreadable envelope: ${error.message}`, entry.dsnKey);
        finishUnsent(entry, ticket);
      } else retryLater(entry, ticket, undefined, `spool read failed: ${messageOf(error)}`);
      return;
    }
    const allowed = deps.registry.byKey(entry.dsnKey);
    if (!allowed) {
      deps.observer.onError('spooled envelope for a DSN no longer configured', entry.dsnKey);
      dropAll(entry, body, 'upstream-rejected');
      finishUnsent(entry, ticket);
      return;
    }
    const now = deps.now();
    if (now - entry.receivedAt > deps.maxAgeMs) {
      dropAll(entry, body, 'spool-expired');
      finishUnsent(entry, ticket);
      return;
    }
    const outgoing = removeRateLimited(entry, body, now);
    if (!outgoing) {
      finishUnsent(entry, ticket);
      return;
    }
    const started = deps.now();
    let response: UpstreamResponse;
    try {
      response = await deps.send(allowed.target, outgoing);
    } catch (error) {
      reachable = false;
      deps.observer.onResponse('network-error', deps.now() - started);
      retryLater(entry, ticket, outgoing, messageOf(error));
      return;
    }
    reachable = true;
    deps.observer.onResponse(response.status, deps.now() - started);
    if (response.status !== 413) deps.rateLimits.update(entry.dsnKey, response, deps.now());
    if (isRetryableStatus(response.status)) {
      retryLater(entry, ticket, outgoing, `upstream answered ${response.status}`);
      return;
    }
    backoff.succeeded(ticket);
    if (response.status >= 300 && response.status !== 429) {
      deps.observer.onError(`upstream refused an envelope with ${response.status}`, entry.dsnKey);
      dropAll(entry, outgoing, 'upstream-rejected');
    }
    deps.spool.complete(entry);
  }

  function removeRateLimited(entry: SpoolEntry, body: Uint8Array, now: number): Uint8Array | null {
    const limits = deps.rateLimits.get(entry.dsnKey, now);
    if (Object.keys(limits).length === 0) return body;
    const parsed = parseEnvelope(body);
    if (!parsed.ok) return body;
    const kept = parsed.envelope.items.filter((item) => {
      const category = itemCategory(item.type);
      if (!isRateLimited(limits, category, now)) return true;
      deps.outcomes.record(entry.dsnKey, 'rate-limited', category, itemQuantity(item.header));
      return false;
    });
    if (kept.length === parsed.envelope.items.length) return body;
    return kept.length === 0 ? null : serializeEnvelope({ ...parsed.envelope, items: kept });
  }

  /** A failed attempt: back off this destination, retry the envelope first, or give up. */
  function retryLater(
    entry: SpoolEntry,
    ticket: SendTicket,
    body: Uint8Array | undefined,
    why: string,
  ): void {
    entry.attempts += 1;
    backoff.failed(ticket, deps.now());
    if (entry.attempts >= deps.retry.maxAttempts) {
      deps.observer.onError(`giving up after ${entry.attempts} attempts: ${why}`, entry.dsnKey);
      if (body) dropAll(entry, body, 'upstream-unreachable');
      deps.spool.complete(entry);
      return;
    }
    deps.spool.unshift(entry);
  }

  /** Wakes the pump when the earliest pause ends (timers may fire early: pump re-checks). */
  function scheduleWake(): void {
    if (stopped) return;
    const at = backoff.nextWake(deps.now());
    if (at === undefined || (wakeTimer && wakeAt <= at)) return;
    if (wakeTimer) clearTimeout(wakeTimer);
    wakeAt = at;
    wakeTimer = setTimeout(
      () => {
        wakeTimer = undefined;
        pump();
      },
      Math.max(1, at - deps.now()),
    );
    wakeTimer.unref?.();
  }

  function pump(): void {
    for (;;) {
      if (stopped || active >= deps.maxInFlight) break;
      const now = deps.now();
      const entry = deps.spool.shift((key) => backoff.mayStart(key, now));
      if (!entry) break;
      const ticket = backoff.started(entry.dsnKey);
      active += 1;
      deliver(entry, ticket)
        .catch((error: unknown) => {
          deps.observer.onError(`delivery failed: ${messageOf(error)}`, entry.dsnKey);
          retryLater(entry, ticket, undefined, messageOf(error));
        })
        .finally(() => {
          active -= 1;
          if (active === 0) for (const wake of idleWaiters.splice(0)) wake();
          pump();
        });
    }
    scheduleWake();
  }

  deps.spool.onAppend(pump);

  return {
    pump,
    inFlight: () => active,
    upstreamReachable: () => reachable,
    async drain(timeoutMs) {
      stopped = true;
      if (wakeTimer) clearTimeout(wakeTimer);
      if (active === 0) return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
