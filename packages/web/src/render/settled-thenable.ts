/**
 * A promise that React's `use()` reads synchronously: already fulfilled and marked the way React
 * tracks thenables, so rendering never suspends on it (and `renderToString` can render it).
 */
import type { TrackedPromise } from './tracked-promise.js';

/** A fulfilled promise of `value`, readable by `use()` without suspending. */
export function fulfilled<T>(value: T): TrackedPromise<T> {
  const promise = Promise.resolve(value) as TrackedPromise<T>;
  promise.status = 'fulfilled';
  promise.value = value;
  return promise;
}
