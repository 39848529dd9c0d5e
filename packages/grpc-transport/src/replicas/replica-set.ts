/**
 * Every data replica behind the configured target, each with its own connection, and the choice
 * of one per call (replica-choice.ts). Names are resolved at start, every `resolveEveryMs`, and
 * soon after a replica's connection is lost, so a replica added behind the same name gets calls
 * without a restart and one that is gone is dropped (its calls in flight finish first).
 */
import {
  createConnectionPool,
  DEFAULT_TIMING,
  type ConnectionPool,
  type ConnectionState,
  type ConnectionTiming,
} from '../transport/http2-connection.js';
import type { TlsSettings } from '../transport/tls-settings.js';
import {
  afterOutcome,
  chooseReplica,
  DEFAULT_EJECTION,
  NO_FAILURES,
  type EjectionPolicy,
  type FailureRecord,
} from './replica-choice.js';
import {
  cAresResolver,
  isFixed,
  parseTarget,
  resolveTarget,
  type AddressResolver,
  type ReplicaAddress,
} from './target-addresses.js';

/** One replica: its connection and what the choice tracks. */
export interface Replica {
  readonly address: string;
  readonly pool: ConnectionPool;
  readonly state: ConnectionState;
  readonly active: number;
  readonly ejectedUntil: number;
}

/** What a readiness probe found. */
export interface ReplicaReach {
  readonly reachable: number;
  readonly replicas: number;
}

/** How the set finds and treats replicas. */
export interface ReplicaSetOptions {
  readonly tls?: TlsSettings | undefined;
  readonly timing?: Partial<ConnectionTiming> | undefined;
  readonly ejection?: EjectionPolicy | undefined;
  /** How often names are resolved again (default 10 s). */
  readonly resolveEveryMs?: number | undefined;
  /** c-ares by default; tests pass their own answers. */
  readonly resolver?: AddressResolver | undefined;
}

export interface ReplicaSet {
  /** The replica for the next call: waits for the first resolution; rejects if nothing resolves. */
  pick(): Replica | Promise<Replica>;
  /** A call on `replica` began / ended (`failed`: the replica could not serve it). */
  began(replica: Replica): void;
  ended(replica: Replica, failed: boolean): void;
  /**
   * A stream on `replica` ended. Streams are not counted as calls in flight: a change feed held
   * open on one replica would otherwise steer every call to the others.
   */
  streamEnded(replica: Replica, failed: boolean): void;
  /** The current replica addresses. */
  addresses(): string[];
  /** How many replicas answer a PING within `timeoutMs`, of how many are known. */
  probe(timeoutMs: number): Promise<ReplicaReach>;
  close(): void;
}

const RESOLVE_EVERY_MS = 10_000;
// A lost connection asks for a lookup; this spaces them out while a replica flaps.
const MIN_RESOLVE_GAP_MS = 1_000;

class TrackedReplica implements Replica {
  active = 0;
  record: FailureRecord = NO_FAILURES;
  constructor(
    readonly address: string,
    readonly pool: ConnectionPool,
  ) {}
  get state() {
    return this.pool.state();
  }
  get ejectedUntil() {
    return this.record.ejectedUntil;
  }
}

export function createReplicaSet(target: string, options: ReplicaSetOptions = {}): ReplicaSet {
  const entries = parseTarget(target);
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const ejection = options.ejection ?? DEFAULT_EJECTION;
  const resolver = options.resolver ?? cAresResolver();
  // Addresses alone never change: nothing to resolve again.
  const fixed = isFixed(entries);
  let replicas: TrackedReplica[] = [];
  let turn = 0;
  let closed = false;
  let lastResolveAt = 0;
  let lookup: Promise<void> | undefined;
  let lookupError: unknown;
  let soon: NodeJS.Timeout | undefined;

  function update(found: readonly ReplicaAddress[]) {
    const kept = new Map(replicas.map((replica) => [replica.address, replica]));
    const next: TrackedReplica[] = [];
    for (const { address, serverName } of found) {
      const existing = kept.get(address);
      kept.delete(address);
      if (existing) next.push(existing);
      else {
        const pool = createConnectionPool({ address, tls: options.tls, serverName }, timing, () =>
          onStateChange(replica),
        );
        const replica = new TrackedReplica(address, pool);
        next.push(replica);
        // Connected before calls arrive: a replica never opened ranks below connected ones and
        // would get no calls while they serve.
        pool.warm();
      }
    }
    for (const gone of kept.values()) gone.pool.close(); // calls in flight finish
    replicas = next;
  }

  /** A call or stream on `replica` ended: its failures decide whether it is ejected. */
  function recordOutcome(replica: TrackedReplica, failed: boolean) {
    replica.record = afterOutcome(replica.record, failed, Date.now(), ejection);
  }

  function onStateChange(replica: TrackedReplica) {
    if (replica.state === 'down' && !fixed) resolveSoon();
  }

  function resolve(): Promise<void> {
    lookup ??= resolveTarget(entries, resolver)
      .then(
        (found) => {
          lookupError = undefined;
          if (!closed) update(found);
        },
        (error: unknown) => {
          lookupError = error; // keep the replicas we know of
        },
      )
      .finally(() => {
        lastResolveAt = Date.now();
        lookup = undefined;
      });
    return lookup;
  }

  function resolveSoon() {
    if (closed || soon || lookup) return;
    const wait = Math.max(0, lastResolveAt + MIN_RESOLVE_GAP_MS - Date.now());
    soon = setTimeout(() => {
      soon = undefined;
      void resolve();
    }, wait);
    soon.unref();
  }

  const first = resolve();
  const every = fixed
    ? undefined
    : setInterval(() => void resolve(), options.resolveEveryMs ?? RESOLVE_EVERY_MS);
  every?.unref();

  function choose(): Replica | undefined {
    return chooseReplica(replicas, Date.now(), turn++);
  }

  return {
    pick() {
      const replica = choose();
      if (replica) return replica;
      return (lookup ?? first).then(() => {
        const found = choose();
        if (found) return found;
        resolveSoon();
        throw lookupError ?? new Error(`no address found for ${target}`);
      });
    },
    began(replica) {
      (replica as TrackedReplica).active += 1;
    },
    ended(replica, failed) {
      (replica as TrackedReplica).active -= 1;
      recordOutcome(replica as TrackedReplica, failed);
    },
    streamEnded: (replica, failed) => recordOutcome(replica as TrackedReplica, failed),
    addresses: () => replicas.map((replica) => replica.address),
    async probe(timeoutMs) {
      if (replicas.length === 0) await (lookup ?? first);
      const answers = await Promise.all(replicas.map((replica) => replica.pool.probe(timeoutMs)));
      return { reachable: answers.filter(Boolean).length, replicas: answers.length };
    },
    close() {
      closed = true;
      clearInterval(every);
      clearTimeout(soon);
      for (const replica of replicas) replica.pool.close();
      replicas = [];
    },
  };
}
