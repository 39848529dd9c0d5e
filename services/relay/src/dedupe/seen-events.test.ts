import { describe, expect, it } from 'vitest';
import { createSeenEvents } from './seen-events.js';

describe('createSeenEvents', () => {
  it('remembers an id for the window from its acceptance, and no longer', () => {
    const seen = createSeenEvents({ windowMs: 1000, maxIds: 10 });
    expect(seen.has('a', 0)).toBe(false);
    seen.add('a', 0);
    expect(seen.has('a', 999)).toBe(true);
    expect(seen.has('a', 1000)).toBe(false);
  });

  it('forgets expired ids as new ones arrive, so memory follows the window', () => {
    const seen = createSeenEvents({ windowMs: 100, maxIds: 1000 });
    for (let i = 0; i < 50; i++) seen.add(`old-${i}`, 0);
    seen.add('new', 150);
    expect(seen.size).toBe(1);
    expect(seen.has('new', 200)).toBe(true);
  });

  it('forgets the oldest id past the cap, and keeps the rest', () => {
    const seen = createSeenEvents({ windowMs: 60_000, maxIds: 3 });
    for (const [at, key] of ['a', 'b', 'c', 'd'].entries()) seen.add(key, at);
    expect(seen.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((key) => seen.has(key, 10))).toEqual([false, true, true, true]);
  });

  it('keeps nothing past the window, even with no new id to make room', () => {
    const seen = createSeenEvents({ windowMs: 100, maxIds: 10 });
    seen.add('a', 0);
    seen.add('b', 50);
    expect(seen.has('b', 120)).toBe(true);
    expect(seen.size).toBe(1);
    expect(seen.has('b', 150)).toBe(false);
    expect(seen.size).toBe(0);
  });

  it('takes ids around the ring for longer than its size', () => {
    const seen = createSeenEvents({ windowMs: 1000, maxIds: 3 });
    for (let i = 0; i < 10; i++) seen.add(`id-${i}`, i);
    expect(['id-6', 'id-7', 'id-8', 'id-9'].map((key) => seen.has(key, 10))).toEqual([
      false,
      true,
      true,
      true,
    ]);
    expect(seen.size).toBe(3);
  });
});
