/**
 * The event ids this relay accepted lately, per project key: an id is remembered for a fixed
 * window from its acceptance, and at most `maxIds` at once (past that the oldest is forgotten,
 * so a flood of distinct ids costs a fixed amount). Forgetting early can only let a duplicate
 * through, never drop a report. Pure: `now` is passed in (ms).
 *
 * Ids are forgotten in the order they came, from a ring of slots beside the look-up set: removing
 * the oldest entry of a Map or Set instead makes each removal walk the holes earlier removals
 * left at its front, a cost that grows with the ids held (bench/relay/RESULTS.md).
 * Expiry times live in a typed array, not as a number per entry on the heap.
 */

export interface SeenEventsOptions {
  readonly windowMs: number;
  readonly maxIds: number;
}

export interface SeenEvents {
  /** Whether `key` was accepted within the window before `now`. */
  has(key: string, now: number): boolean;
  /** Remembers `key` as accepted at `now`. */
  add(key: string, now: number): void;
  readonly size: number;
}

export function createSeenEvents(options: SeenEventsOptions): SeenEvents {
  const { windowMs, maxIds } = options;
  // Only ids within the window are in the set: expired ones are forgotten before each look-up.
  const remembered = new Set<string>();
  // Slots in arrival order (one window for all, so also in expiry order): oldest at `head`.
  const slotKeys = Array.from<string | undefined>({ length: maxIds });
  const slotExpiries = new Float64Array(maxIds);
  let head = 0;
  let used = 0;

  const forgetOldest = () => {
    remembered.delete(slotKeys[head]!);
    slotKeys[head] = undefined;
    head = (head + 1) % maxIds;
    used--;
  };
  const forgetExpired = (now: number) => {
    for (;;) {
      if (used === 0 || slotExpiries[head]! > now) return;
      forgetOldest();
    }
  };

  return {
    has(key, now) {
      forgetExpired(now);
      return remembered.has(key);
    },
    add(key, now) {
      forgetExpired(now);
      // Two copies accepted at once take two slots; the first to go forgets the id a little early.
      if (used === maxIds) forgetOldest();
      const slot = (head + used) % maxIds;
      slotKeys[slot] = key;
      slotExpiries[slot] = now + windowMs;
      used++;
      remembered.add(key);
    },
    get size() {
      return remembered.size;
    },
  };
}
