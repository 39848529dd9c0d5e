/**
 * The bytes that requests still being read may hold together. Each request reads its first
 * `allowance` bytes freely (honest envelopes are a few KiB and never wait on this); beyond that
 * it reserves from the shared budget, and is refused when the budget is spent. So however many
 * large bodies arrive at once, the relay holds at most the budget plus one allowance per
 * connection. Pure value holder.
 */

/** A shared byte budget. */
export interface SharedByteBudget {
  /** Counts `bytes` more for a request that has read `held` bytes so far; false = refused. */
  reserve(held: number, bytes: number): boolean;
  /** Returns what a request that read `held` bytes reserved. */
  release(held: number): void;
}

/** Creates a budget of `maxBytes` beyond a per-request `allowance`. */
export function createSharedByteBudget(maxBytes: number, allowance: number): SharedByteBudget {
  let used = 0;
  const charged = (held: number) => Math.max(0, held - allowance);
  return {
    reserve(held, bytes) {
      const more = charged(held + bytes) - charged(held);
      if (more === 0) return true;
      if (used + more > maxBytes) return false;
      used += more;
      return true;
    },
    release(held) {
      used -= charged(held);
    },
  };
}
