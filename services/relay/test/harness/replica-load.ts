/**
 * One client's envelopes spread over relay replicas in turn (as the gateway spreads them), from
 * a few concurrent senders, until stopped; each replica remembers the event ids it acknowledged.
 * Replicas without a process (stopped, killed) are skipped.
 */
import type { RelayProcess } from './relay-process.js';

/** A replica as the load sees it. */
export interface LoadedReplica {
  process: RelayProcess | undefined;
  readonly acked: Set<string>;
}

/** The running load. */
export interface ReplicaLoad {
  /** Stops sending and resolves once every sender has finished its request. */
  stop(): Promise<void>;
}

/** Starts `senders` concurrent senders of `dsn`'s envelopes over `replicas`. */
export function loadReplicas(
  replicas: readonly LoadedReplica[],
  dsn: string,
  senders = 6,
): ReplicaLoad {
  let sequence = 0;
  const state = { running: true };
  const sender = async (offset: number) => {
    for (let turn = offset; state.running; turn += 1) {
      const live = replicas.filter((replica) => replica.process);
      const replica = live[turn % live.length];
      if (!replica?.process) continue;
      const id = (sequence += 1).toString(16).padStart(32, '0');
      const body = `{"event_id":"${id}","dsn":"${dsn}"}\n{"type":"event"}\n{"message":"load ${id}"}`;
      try {
        const response = await fetch(`${replica.process.url}/monitoring`, { method: 'POST', body });
        await response.arrayBuffer();
        if (response.status === 200) replica.acked.add(id);
      } catch {
        // The replica died mid-request: not acknowledged.
      }
    }
  };
  const all = Array.from({ length: senders }, (_, i) => sender(i));
  return {
    async stop() {
      state.running = false;
      await Promise.all(all);
    },
  };
}
