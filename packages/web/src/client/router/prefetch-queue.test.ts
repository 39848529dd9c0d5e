import { createDeferred, type Deferred } from '@strata/testing';
import { describe, expect, it } from 'vitest';
import { createPrefetchQueue } from './prefetch-queue.js';

function tasks(count: number) {
  const started: string[] = [];
  const controls = new Map<string, Deferred<void>>();
  const make = (key: string) => () => {
    started.push(key);
    const control = createDeferred<void>();
    controls.set(key, control);
    return control.promise;
  };
  return { started, controls, keys: Array.from({ length: count }, (_, n) => `/p${n}`), make };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('prefetch queue', () => {
  it('runs at most 5 at once and starts the next when one settles', async () => {
    const queue = createPrefetchQueue(5);
    const t = tasks(8);
    t.keys.forEach((key) => queue.enqueue(key, t.make(key)));
    expect(t.started).toEqual(['/p0', '/p1', '/p2', '/p3', '/p4']);
    t.controls.get('/p2')?.resolve();
    await tick();
    expect(t.started).toEqual(['/p0', '/p1', '/p2', '/p3', '/p4', '/p5']);
    expect(queue.running()).toBe(5);
  });

  it(`
      prefetch /p0…/p6 |-- 5 running, /p5 /p6 queued
      click /p6        |-- /p6 bumped: starts now, over the limit
    `, () => {
    const queue = createPrefetchQueue(5);
    const t = tasks(7);
    t.keys.forEach((key) => queue.enqueue(key, t.make(key)));
    expect(queue.bump('/p6')).toBe(true);
    expect(t.started.at(-1)).toBe('/p6');
    expect(queue.running()).toBe(6);
    expect(queue.queued()).toBe(1);
  });

  it('never starts a cancelled task, and ignores a duplicate key', () => {
    const queue = createPrefetchQueue(1);
    const t = tasks(3);
    queue.enqueue('/p0', t.make('/p0'));
    const second = queue.enqueue('/p1', t.make('/p1'));
    queue.enqueue('/p1', t.make('/p1'));
    expect(second.cancel()).toBe(true);
    t.controls.get('/p0')?.resolve();
    expect(queue.queued()).toBe(0);
    expect(t.started).toEqual(['/p0']);
  });
});
