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

/** A promise that is already fulfilled with `value`, readable synchronously. */
export function fulfilled<T>(value: T): TrackedPromise<T> {
  const promise: TrackedPromise<T> = Promise.resolve(value);
  promise.status = 'fulfilled';
  promise.value = value;
  return promise;
}

/** Whether `promise` is known (synchronously) to have fulfilled. */
export function isFulfilled<T>(
  promise: Promise<T>,
): promise is TrackedPromise<T> & { status: 'fulfilled'; value: T } {
  return (promise as TrackedPromise<T>).status === 'fulfilled';
}
