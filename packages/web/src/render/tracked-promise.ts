/**
 * Marks a promise the way React tracks thenables (`status`, `value`, `reason`), so `use()` on
 * a promise that has already settled renders at once instead of suspending for a tick.
 */

/** A promise React can read synchronously once settled. */
export type TrackedPromise<T> = Promise<T> & {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

/** Returns `promise`, annotated as it settles. */
export function track<T>(promise: Promise<T>): TrackedPromise<T> {
  const tracked = promise as TrackedPromise<T>;
  if (tracked.status !== undefined) return tracked;
  tracked.status = 'pending';
  promise.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}
