/**
 * Delivery policy: drains the spool in order with at most `maxInFlight` envelopes upstream,
 * drops items that became rate limited, updates limits from every response (except 413, as the
 * SDK transport does), completes on 2xx/429/final 4xx, and on network errors, 5xx or a spool
 * read error counts an attempt, puts the envelope back at the front of its DSN's queue and pauses
 * that destination only (exponential backoff with jitter, then one probe). I/O is injected.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { DsnRegistry } from '../dsn/dsn-registry.js';
import type { OutcomeSink } from '../outcomes/outcome-sink.js';
import type { RateLimitState } from '../rate-limits/rate-limit-state.js';
import { SpoolRecordCorruptError, type Spool, type SpoolEntry } from '../spool/spool.js';
import { createDestinationBackoff, type SendTicket } from './destination-backoff.js';
import { recordAllDropped, removeRateLimited } from './envelope-drops.js';
import type { SendEnvelope, UpstreamResponse } from './http-send.js';
import { isRetryableStatus, type RetryPolicy } from './retry-policy.js';
import { createWakeTimer } from './wake-timer.js';

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
  /**
   * Keeps sending until the spool holds nothing undelivered (true) or `timeoutMs` ends (false):
   * a replica going away hands what it holds to the upstream first.
   */
  flush(timeoutMs: number): Promise<boolean>;
  /** Stops starting new sends and waits (up to `timeoutMs`) for in-flight ones. */
  drain(timeoutMs: number): Promise<boolean>;
}

/** How often a flush looks whether the spool is empty yet. */
const FLUSH_POLL_MS = 20;

/** Creates a forwarder over a spool. */
export function createForwarder(deps: ForwarderDeps): Forwarder {
  let active = 0;
  let reachable = true;
  let stopped = false;
  const backoff = createDestinationBackoff(deps.retry, deps.random);
  const wakeTimer = createWakeTimer(deps.now, pump);
  const idleWaiters: Array<() => void> = [];

  function pump(): void {
    // At capacity (most appends under load) there is nothing to start; a send that ends pumps.
    if (stopped || active >= deps.maxInFlight) return;
    let now = deps.now();
    for (;;) {
      if (stopped || active >= deps.maxInFlight) break;
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
      now = deps.now();
    }
    scheduleWake(now);
  }

  /**
   * Wakes the pump when the earliest pause ends. `now` must be the time the pump refused sends
   * at: read again, the clock may have passed the end of a pause that refused one, and nothing
   * would wake the pump for it.
   */
  function scheduleWake(now: number): void {
    if (stopped) return;
    const at = backoff.nextWake(now);
    if (at !== undefined) wakeTimer.wakeAt(at);
  }

  async function deliver(entry: SpoolEntry, ticket: SendTicket): Promise<void> {
    let body: Uint8Array;
    try {
      body = await deps.spool.readBody(entry);
    } catch (error) {
      readFailed(entry, ticket, error);
      return;
    }
    const allowed = deps.registry.byKey(entry.dsnKey);
    const outgoing = outgoingOf(entry, body, allowed !== undefined);
    if (!allowed || !outgoing) {
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
    settle(entry, ticket, outgoing, response);
  }

  /** A corrupt record is dropped; any other read error is retried like a failed send. */
  function readFailed(entry: SpoolEntry, ticket: SendTicket, error: unknown): void {
    if (error instanceof SpoolRecordCorruptError) {
      deps.observer.onError(`dropping an unreadable envelope: ${error.message}`, entry.dsnKey);
      finishUnsent(entry, ticket);
    } else retryLater(entry, ticket, undefined, `spool read failed: ${messageOf(error)}`);
  }

  /** What to send of a spooled envelope; null when nothing may go (its drops are recorded). */
  function outgoingOf(entry: SpoolEntry, body: Uint8Array, known: boolean): Uint8Array | null {
    if (!known) {
      deps.observer.onError('spooled envelope for a DSN no longer configured', entry.dsnKey);
      recordAllDropped(deps.outcomes, entry.dsnKey, body, 'upstream-rejected');
      return null;
    }
    const now = deps.now();
    if (now - entry.receivedAt > deps.maxAgeMs) {
      recordAllDropped(deps.outcomes, entry.dsnKey, body, 'spool-expired');
      return null;
    }
    const limits = deps.rateLimits.get(entry.dsnKey, now);
    return removeRateLimited(deps.outcomes, entry.dsnKey, limits, body, now);
  }

  /** Acts on an HTTP answer: learn its limits, then retry later or complete the envelope. */
  function settle(
    entry: SpoolEntry,
    ticket: SendTicket,
    outgoing: Uint8Array,
    response: UpstreamResponse,
  ): void {
    if (response.status !== 413) deps.rateLimits.update(entry.dsnKey, response, deps.now());
    if (isRetryableStatus(response.status)) {
      retryLater(entry, ticket, outgoing, `upstream answered ${response.status}`);
      return;
    }
    backoff.succeeded(ticket);
    if (response.status >= 300 && response.status !== 429) {
      deps.observer.onError(`upstream refused an envelope with ${response.status}`, entry.dsnKey);
      recordAllDropped(deps.outcomes, entry.dsnKey, outgoing, 'upstream-rejected');
    }
    deps.spool.complete(entry);
  }

  /** Completes an envelope that is not sent (dropped); frees its probe slot. */
  function finishUnsent(entry: SpoolEntry, ticket: SendTicket): void {
    backoff.skipped(ticket);
    deps.spool.complete(entry);
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
      if (body) recordAllDropped(deps.outcomes, entry.dsnKey, body, 'upstream-unreachable');
      deps.spool.complete(entry);
      return;
    }
    deps.spool.unshift(entry);
  }

  /** Envelopes the spool still holds; a spool that cannot say counts as empty (nothing to wait for). */
  function undelivered(): number {
    try {
      return deps.spool.stats().pending;
    } catch {
      return 0;
    }
  }

  deps.spool.onAppend(pump);

  return {
    pump,
    inFlight: () => active,
    upstreamReachable: () => reachable,
    async flush(timeoutMs) {
      const until = performance.now() + timeoutMs;
      pump();
      for (;;) {
        if (undelivered() === 0) return true;
        const left = until - performance.now();
        if (stopped || left <= 0) return false;
        await sleep(Math.min(FLUSH_POLL_MS, left));
      }
    },
    async drain(timeoutMs) {
      stopped = true;
      wakeTimer.cancel();
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
