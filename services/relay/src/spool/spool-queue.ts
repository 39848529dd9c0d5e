/**
 * The envelopes waiting to be sent: one FIFO per DSN key, so delivery for one key can wait (a
 * failing destination backing off) while the others go on. `shift` takes the oldest waiting
 * envelope among the keys the caller accepts; spool position (segment, offset) is arrival order.
 */
import Denque from 'denque';

/** What the queues need from an entry. */
export interface QueuedEntry {
  readonly dsnKey: string;
  readonly receivedAt: number;
  readonly segment: number;
  readonly offset: number;
}

const olderThan = (a: QueuedEntry, b: QueuedEntry): boolean =>
  a.segment < b.segment || (a.segment === b.segment && a.offset < b.offset);

/** Per-key FIFO queues. */
export class PendingQueues<T extends QueuedEntry> {
  private readonly byKey = new Map<string, Denque<T>>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(entry: T): void {
    this.queueOf(entry.dsnKey).push(entry);
    this.count += 1;
  }

  /** Puts an entry back at the front of its key's queue. */
  unshift(entry: T): void {
    this.queueOf(entry.dsnKey).unshift(entry);
    this.count += 1;
  }

  /** Removes and returns the oldest entry whose key `accept` allows. */
  shift(accept: (dsnKey: string) => boolean = () => true): T | undefined {
    let chosen: Denque<T> | undefined;
    let chosenKey = '';
    for (const [key, queue] of this.byKey) {
      const head = queue.peekFront();
      if (!head || !accept(key)) continue;
      const best = chosen?.peekFront();
      if (!best || olderThan(head, best)) {
        chosen = queue;
        chosenKey = key;
      }
    }
    const entry = chosen?.shift();
    if (!entry) return undefined;
    this.count -= 1;
    if (chosen!.isEmpty()) this.byKey.delete(chosenKey);
    return entry;
  }

  /** Receipt time of the oldest waiting entry. */
  oldestReceivedAt(): number | undefined {
    let oldest: number | undefined;
    for (const queue of this.byKey.values()) {
      const head = queue.peekFront();
      if (head && (oldest === undefined || head.receivedAt < oldest)) oldest = head.receivedAt;
    }
    return oldest;
  }

  private queueOf(key: string): Denque<T> {
    let queue = this.byKey.get(key);
    if (!queue) {
      queue = new Denque<T>();
      this.byKey.set(key, queue);
    }
    return queue;
  }
}
