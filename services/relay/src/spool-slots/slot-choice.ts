/**
 * Which spool slot a starting relay claims, when several replicas share one spool volume. Pure:
 * the caller reads the slots (slot-directory.ts) and tries the order given here.
 */

/** One slot directory under the shared spool root, as read at a moment. */
export interface SlotState {
  readonly slot: number;
  /** The instance that last claimed it (its owner file), if any. */
  readonly owner: string | undefined;
  /** Its lease is held and fresh. */
  readonly leased: boolean;
  /** It still holds segment files (possibly envelopes not yet delivered). */
  readonly hasSegments: boolean;
}

/**
 * Slots to try, best first: the one this instance held in an earlier life (a restart in the same
 * container, whose lease may still look fresh), then free slots that still hold segments (oldest
 * number first, so what a gone replica left is sent soonest), then free empty ones, then a new one.
 */
export function slotClaimOrder(slots: readonly SlotState[], instanceId: string): number[] {
  const own = slots.filter((state) => state.owner === instanceId).map((state) => state.slot);
  const free = slots.filter((state) => !state.leased && state.owner !== instanceId);
  const withSegments = free.filter((state) => state.hasSegments).map((state) => state.slot);
  const empty = free.filter((state) => !state.hasSegments).map((state) => state.slot);
  const next = slots.reduce((max, state) => Math.max(max, state.slot), -1) + 1;
  const ascending = (a: number, b: number) => a - b;
  return [...own.sort(ascending), ...withSegments.sort(ascending), ...empty.sort(ascending), next];
}

/** Free slots another replica left segments in: the ones a running relay drains. */
export function orphanedSlots(slots: readonly SlotState[]): number[] {
  return slots
    .filter((state) => !state.leased && state.hasSegments)
    .map((state) => state.slot)
    .sort((a, b) => a - b);
}

/** `slot-007`: sortable, and never mistaken for a segment file. */
export function slotDirectoryName(slot: number): string {
  return `slot-${String(slot).padStart(3, '0')}`;
}

/** The slot number of a directory name, or undefined for anything else. */
export function slotOfDirectoryName(name: string): number | undefined {
  const match = /^slot-(\d{3,})$/.exec(name);
  return match ? Number(match[1]) : undefined;
}
