/**
 * A prefetch cache entry and its status, computed from its times alone (pure):
 * fresh      never used, younger than freshMs
 * reusable   used within the last freshMs, or a full entry younger than keptMs
 * stale      an auto entry between freshMs and keptMs: layouts and loading state reused, page refetched
 * expired    older than keptMs: removed
 */
import type { RouterConstants } from './router-constants.js';

/** How an entry was made: auto (Link default), full (prefetch="full", router.prefetch), temporary (a navigation without a prefetch). */
export type PrefetchKind = 'auto' | 'full' | 'temporary';

/** What an entry is good for right now. */
export type EntryStatus = 'fresh' | 'reusable' | 'stale' | 'expired';

/** The times that decide an entry's status. */
export interface EntryTimes {
  readonly kind: PrefetchKind;
  readonly prefetchTime: number;
  readonly lastUsedTime: number | null;
}

/** The entry's status at `now`. */
export function entryStatus(
  entry: EntryTimes,
  now: number,
  constants: Pick<RouterConstants, 'freshMs' | 'keptMs'>,
): EntryStatus {
  const base = entry.lastUsedTime ?? entry.prefetchTime;
  if (now < base + constants.freshMs) return entry.lastUsedTime === null ? 'fresh' : 'reusable';
  if (entry.kind === 'auto' && now < entry.prefetchTime + constants.keptMs) return 'stale';
  if (entry.kind === 'full' && now < entry.prefetchTime + constants.keptMs) return 'reusable';
  return 'expired';
}
