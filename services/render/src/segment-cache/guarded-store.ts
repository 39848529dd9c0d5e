/**
 * Wraps a SegmentStore with a deadline per call and a circuit breaker, so a down or slow Redis
 * costs a request at most one short timeout and, once the breaker is open, nothing at all: calls
 * fail at once with StoreUnavailable and the cache serves uncached. Half-open lets one probe
 * through; success closes it again. State changes are reported (log line and metric).
 * Independently of the breaker, the store can be held: refused without a call until unheld
 * (while a reconnected Redis is checked, server-check.ts).
 */
import {
  admit,
  CLOSED,
  recordFailure,
  recordSuccess,
  type BreakerLimits,
  type BreakerState,
} from './circuit-breaker.js';
import type { SegmentStore } from './segment-store.js';

/** Thrown instead of calling the backend while the breaker is open. */
export class StoreUnavailable extends Error {
  constructor(message = 'segment store unavailable (circuit open)') {
    super(message);
    this.name = 'StoreUnavailable';
  }
}

/** A store with its breaker exposed. */
export interface GuardedStore extends SegmentStore {
  /** True while the breaker is closed (the backend answered its last calls). */
  healthy(): boolean;
  breakerState(): BreakerState['kind'];
  /** Refuses every call until `unhold` (the connection is not trusted yet). */
  hold(): void;
  unhold(): void;
}

/** Settings of the guard. */
export interface GuardOptions extends BreakerLimits {
  /** Deadline of one store call. */
  readonly timeoutMs: number;
  readonly now: () => number;
  /** Called on every change of the breaker's kind (closed, open, half-open). */
  readonly onStateChange?: (kind: BreakerState['kind'], cause?: unknown) => void;
  /** Called for every failed call. */
  readonly onError?: (operation: string, error: unknown) => void;
}

type Method = Exclude<keyof SegmentStore, 'close'>;

const DROP_TIMEOUT_FACTOR = 40;

/** Guards `store`. */
export function guardStore(store: SegmentStore, options: GuardOptions): GuardedStore {
  let state: BreakerState = CLOSED;
  let held = false;
  const limits: BreakerLimits = options;

  const move = (next: BreakerState, cause?: unknown) => {
    const changed = next.kind !== state.kind;
    state = next;
    if (changed) options.onStateChange?.(next.kind, cause);
  };

  async function call<T>(
    operation: Method,
    run: () => Promise<T>,
    timeoutMs = options.timeoutMs,
  ): Promise<T> {
    if (held) throw new StoreUnavailable('segment store held (checking the server)');
    const admitted = admit(state, options.now(), limits);
    move(admitted.state);
    if (!admitted.allowed) throw new StoreUnavailable();
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        run(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`segment store ${operation} timed out`)),
            timeoutMs,
          );
        }),
      ]);
      move(recordSuccess());
      return result;
    } catch (error) {
      options.onError?.(operation, error);
      move(recordFailure(state, options.now(), limits), error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    healthy: () => state.kind === 'closed' && !held,
    breakerState: () => state.kind,
    hold() {
      held = true;
    },
    unhold() {
      held = false;
    },
    get: (build, key) => call('get', () => store.get(build, key)),
    put: (build, key, body, tags, since, ttl) =>
      call('put', () => store.put(build, key, body, tags, since, ttl)),
    acquire: (build, key, token, ttl) =>
      call('acquire', () => store.acquire(build, key, token, ttl)),
    release: (build, key, token) => call('release', () => store.release(build, key, token)),
    sequence: () => call('sequence', () => store.sequence()),
    invalidateTags: (tags) => call('invalidateTags', () => store.invalidateTags(tags)),
    // Freeing a build's entries scans the keyspace: allow it longer than one command.
    dropBuild: (build) =>
      call('dropBuild', () => store.dropBuild(build), options.timeoutMs * DROP_TIMEOUT_FACTOR),
    readShape: (build, id) => call('readShape', () => store.readShape(build, id)),
    addToShape: (build, id, members) =>
      call('addToShape', () => store.addToShape(build, id, members)),
    close: () => store.close(),
  };
}
