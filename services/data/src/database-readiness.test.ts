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
      answer = 'fail';
      await settle();
      expect(changes).toEqual([false]);
      expect(readiness.ready()).toBe(false);
      answer = 'ok';
      await settle();
      answer = 'hang';
      await settle();
      expect(changes).toEqual([false, true, false]);
    } finally {
      readiness.stop();
    }
  });
});
