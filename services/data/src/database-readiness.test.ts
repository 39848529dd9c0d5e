import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { watchDatabaseReadiness } from './database-readiness.js';

describe('watchDatabaseReadiness', () => {
  it('turns NOT_SERVING while the database fails or hangs, and SERVING once it answers', async () => {
    let answer: 'ok' | 'fail' | 'hang' = 'ok';
    const database = {
      read: () =>
        answer === 'ok'
          ? Promise.resolve([])
          : answer === 'fail'
            ? Promise.reject(new Error('connection refused'))
            : new Promise<never>(() => undefined),
    };
    const changes: boolean[] = [];
    const readiness = watchDatabaseReadiness(database, (serving) => changes.push(serving), {
      logger: pino({ level: 'silent' }),
      intervalMs: 20,
      timeoutMs: 50,
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    try {
      await settle();
      expect(changes).toEqual([]); // ready from the start: nothing to change
      // Each change is polled for: a loaded machine stretches the check interval.
      answer = 'fail';
      await expect.poll(() => changes, { timeout: 10_000 }).toEqual([false]);
      expect(readiness.ready()).toBe(false);
      answer = 'ok';
      await expect.poll(() => changes, { timeout: 10_000 }).toEqual([false, true]);
      answer = 'hang';
      await expect.poll(() => changes, { timeout: 10_000 }).toEqual([false, true, false]);
    } finally {
      readiness.stop();
    }
  });
});
