/**
 * Retry delays after a network error or a 5xx: exponential from `baseMs`, capped at `maxMs`,
 * with "full jitter" (a random point in the upper half of the window). Pure; randomness injected.
 */

/** Retry settings. */
export interface RetryPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
  readonly maxAttempts: number;
}

/** Delay before the next try after `failures` consecutive failures (1 = first failure). */
export function retryDelayMs(policy: RetryPolicy, failures: number, random: () => number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const window = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(window / 2 + random() * (window / 2));
}

/** Whether an HTTP status is worth retrying (5xx); 413 and other 4xx are final. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500;
}
