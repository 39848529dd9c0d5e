import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { GrpcCallError } from '../transport/call-error.js';
import { READ_RETRY, withReadRetry, type ReadRetryOptions } from './read-retry.js';

const failed = (code: status) => new GrpcCallError({ code, details: 'test' });

/** A read that fails with `errors` in turn, then answers 'ok'; counts its attempts. */
function reads(...errors: GrpcCallError[]) {
  const read = () => {
    read.attempts++;
    const error = errors.shift();
    return error ? Promise.reject(error) : Promise.resolve('ok');
  };
  read.attempts = 0;
  return read;
}

/** Options with a fake clock and randomness that record what the retry loop asked for. */
function recorded(options: ReadRetryOptions = {}) {
  const slept: number[] = [];
  const retries: [unknown, number][] = [];
  return {
    slept,
    retries,
    options: {
      sleep: (ms: number) => {
        slept.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      onRetry: (error: unknown, retry: number) => retries.push([error, retry]),
      ...options,
    },
  };
}

describe('withReadRetry', () => {
  it('answers a first success without sleeping or retrying', async () => {
    const read = reads();
    const { slept, retries, options } = recorded();
    await expect(withReadRetry(read, options)).resolves.toBe('ok');
    expect(read.attempts).toBe(1);
    expect(slept).toEqual([]);
    expect(retries).toEqual([]);
  });

  it('retries replica failures after jittered, growing delays, telling onRetry each time', async () => {
    const first = failed(status.UNAVAILABLE);
    const second = failed(status.DEADLINE_EXCEEDED);
    const read = reads(first, second);
    const { slept, retries, options } = recorded();
    await expect(withReadRetry(read, options)).resolves.toBe('ok');
    expect(read.attempts).toBe(3);
    // Half (random() = 0.5) of 50 ms, then of 100 ms.
    expect(slept).toEqual([25, 50]);
    expect(retries).toEqual([
      [first, 1],
      [second, 2],
    ]);
  });

  it('gives up after the policy’s attempts with the last error', async () => {
    const last = failed(status.INTERNAL);
    const read = reads(failed(status.UNAVAILABLE), failed(status.UNKNOWN), last);
    const { slept, options } = recorded();
    await expect(withReadRetry(read, options)).rejects.toBe(last);
    expect(read.attempts).toBe(READ_RETRY.attempts);
    expect(slept).toHaveLength(READ_RETRY.attempts - 1);
  });

  it('does not retry the caller’s mistakes', async () => {
    const invalid = failed(status.INVALID_ARGUMENT);
    const read = reads(invalid);
    const { slept, retries, options } = recorded();
    await expect(withReadRetry(read, options)).rejects.toBe(invalid);
    await expect(
      withReadRetry(reads(new Error('no code') as GrpcCallError), options),
    ).rejects.toThrow('no code');
    expect(read.attempts).toBe(1);
    expect(slept).toEqual([]);
    expect(retries).toEqual([]);
  });

  it('stops retrying once the caller aborts', async () => {
    const controller = new AbortController();
    const second = failed(status.UNAVAILABLE);
    const read = reads(failed(status.UNAVAILABLE), second, failed(status.UNAVAILABLE));
    const { slept, options } = recorded({
      signal: controller.signal,
      sleep: (ms) => {
        controller.abort();
        slept.push(ms);
        return Promise.resolve();
      },
    });
    await expect(withReadRetry(read, options)).rejects.toBe(second);
    expect(read.attempts).toBe(2);
    expect(slept).toHaveLength(1);
  });

  it('follows a custom policy: its attempts and its delay ceiling', async () => {
    const policy = { attempts: 5, baseDelayMs: 10, maxDelayMs: 30 };
    const read = reads(...Array.from({ length: 4 }, () => failed(status.UNAVAILABLE)));
    const { slept, retries, options } = recorded({ policy, random: () => 0.999 });
    await expect(withReadRetry(read, options)).resolves.toBe('ok');
    expect(read.attempts).toBe(5);
    expect(slept).toEqual([9, 19, 29, 29]);
    expect(retries.map(([, retry]) => retry)).toEqual([1, 2, 3, 4]);
  });
});
