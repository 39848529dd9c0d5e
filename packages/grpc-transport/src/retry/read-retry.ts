/**
 * Retry policy for reads: up to 3 attempts in all, only for failures on the replica's side
 * (UNAVAILABLE, INTERNAL, UNKNOWN, DEADLINE_EXCEEDED; the next attempt may go to another), with jittered
 * exponential backoff. Writes are never retried (they may have happened). Time and randomness
 * are parameters, so tests need no real clock.
 */
import { REPLICA_FAILURE_CODES } from '../transport/call-error.js';

/** Retry settings. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** How withReadRetry retries: the policy, its clock and randomness, and whom it tells. */
export interface ReadRetryOptions {
  readonly policy?: RetryPolicy;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly signal?: AbortSignal;
  readonly onRetry?: (error: unknown, retry: number) => void;
}

/** The default: 3 attempts, 50 ms then 100 ms (each with full jitter). */
export const READ_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 50, maxDelayMs: 400 };

/** Delay before attempt `attempt` (1-based retry count), with full jitter. */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `read` until it succeeds, fails with a non-retryable error, or attempts run out. The
 * first attempt is chained directly: most reads succeed at once, and they should not pay for the
 * retry loop.
 */
export function withReadRetry<T>(
  read: () => Promise<T>,
  options: ReadRetryOptions = {},
): Promise<T> {
  try {
    return read().catch((error: unknown) => retryAfter(error, read, options));
  } catch (error) {
    // A read that throws before it returns its promise fails like one that rejects.
    return retryAfter(error, read, options);
  }
}

/** The retry loop, from the first attempt's failure on. */
async function retryAfter<T>(
  firstError: unknown,
  read: () => Promise<T>,
  options: ReadRetryOptions,
): Promise<T> {
  const policy = options.policy ?? READ_RETRY;
  const sleep = options.sleep ?? sleepFor;
  const random = options.random ?? Math.random;
  let error = firstError;
  for (let attempt = 1; ; attempt++) {
    const code = (error as { code?: unknown } | null)?.code;
    const retryable = typeof code === 'number' && REPLICA_FAILURE_CODES.has(code);
    if (!retryable || attempt >= policy.attempts || options.signal?.aborted) throw error;
    options.onRetry?.(error, attempt);
    await sleep(backoffDelay(policy, attempt, random));
    try {
      return await read();
    } catch (next) {
      error = next;
    }
  }
}
