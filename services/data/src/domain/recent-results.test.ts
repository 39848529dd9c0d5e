import { describe, expect, it } from 'vitest';
import { RecentResults } from './recent-results.js';

describe('RecentResults', () => {
  it('computes an input once while it is remembered', () => {
    const recent = new RecentResults<string>(4, 16);
    let calls = 0;
    const upper = (key: string) => recent.get(key, () => (calls++, key.toUpperCase()));
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(calls).toBe(2);
  });

  it('forgets the oldest input past its limit', () => {
    const recent = new RecentResults<number>(2, 16);
    const seen: string[] = [];
    const get = (key: string) => recent.get(key, () => (seen.push(key), key.length));
    for (const key of ['a', 'bb', 'ccc', 'bb', 'a']) get(key);
    expect(seen).toEqual(['a', 'bb', 'ccc', 'a']);
    expect(recent.size).toBe(2);
  });

  it('does not remember inputs longer than its key limit', () => {
    const recent = new RecentResults<number>(8, 3);
    let calls = 0;
    for (let i = 0; i < 3; i++) recent.get('long key', () => ++calls);
    expect(calls).toBe(3);
    expect(recent.size).toBe(0);
  });
});
