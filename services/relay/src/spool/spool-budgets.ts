/**
 * The spool's byte budgets beside the size of its files (kept by SegmentLedger): each DSN key's
 * share of the spool's bound, so one project's backlog cannot refuse everyone else's envelopes,
 * and the memory that keeps bodies so a send needs no disk read. Pure.
 */

/** Bytes of pending records per DSN key, against one limit that every key has. */
export class ProjectShares {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Whether `length` more bytes would take `dsnKey` over its share. */
  wouldExceed(dsnKey: string, length: number): boolean {
    return this.heldBy(dsnKey) + length > this.limit;
  }

  hold(dsnKey: string, length: number): void {
    this.add(dsnKey, length);
  }

  release(dsnKey: string, length: number): void {
    this.add(dsnKey, -length);
  }

  heldBy(dsnKey: string): number {
    return this.held.get(dsnKey) ?? 0;
  }

  /** Keys holding nothing are forgotten, so the map never outgrows the keys with a backlog. */
  private add(dsnKey: string, delta: number): void {
    const held = this.heldBy(dsnKey) + delta;
    if (held > 0) this.held.set(dsnKey, held);
    else this.held.delete(dsnKey);
  }
}

/** Bytes of bodies kept in memory, within a bound. */
export class MemoryBudget {
  private used = 0;

  constructor(private readonly limit: number) {}

  get usedBytes(): number {
    return this.used;
  }

  /** Takes `bytes` when they fit; whether they did. */
  tryTake(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  giveBack(bytes: number): void {
    this.used -= bytes;
  }
}
