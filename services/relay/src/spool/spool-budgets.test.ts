import { describe, expect, it } from 'vitest';
import { MemoryBudget, ProjectShares } from './spool-budgets.js';

describe('ProjectShares', () => {
  it('refuses only what would take a key over the limit, each key on its own', () => {
    const shares = new ProjectShares(100);
    expect(shares.wouldExceed('a', 100)).toBe(false);
    expect(shares.wouldExceed('a', 101)).toBe(true);
    shares.hold('a', 60);
    expect(shares.wouldExceed('a', 40)).toBe(false);
    expect(shares.wouldExceed('a', 41)).toBe(true);
    expect(shares.wouldExceed('b', 100)).toBe(false);
  });

  it('gives released bytes back and forgets a key that holds nothing', () => {
    const shares = new ProjectShares(100);
    shares.hold('a', 60);
    shares.hold('a', 30);
    shares.release('a', 60);
    expect(shares.heldBy('a')).toBe(30);
    shares.release('a', 30);
    expect(shares.heldBy('a')).toBe(0);
    expect(shares.wouldExceed('a', 100)).toBe(false);
  });
});

describe('MemoryBudget', () => {
  it('takes bytes while they fit and gives them back', () => {
    const memory = new MemoryBudget(100);
    expect(memory.tryTake(70)).toBe(true);
    expect(memory.tryTake(31)).toBe(false);
    expect(memory.usedBytes).toBe(70);
    expect(memory.tryTake(30)).toBe(true);
    memory.giveBack(70);
    expect(memory.usedBytes).toBe(30);
    expect(memory.tryTake(70)).toBe(true);
  });

  it('keeps nothing with a budget of zero', () => {
    const memory = new MemoryBudget(0);
    expect(memory.tryTake(1)).toBe(false);
    expect(memory.tryTake(0)).toBe(true);
  });
});
