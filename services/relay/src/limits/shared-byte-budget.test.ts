import { describe, expect, it } from 'vitest';
import { createSharedByteBudget } from './shared-byte-budget.js';

describe('createSharedByteBudget', () => {
  it('lets each request read its allowance freely and shares the rest', () => {
    const budget = createSharedByteBudget(100, 10);
    expect(budget.reserve(0, 10)).toBe(true);
    expect(budget.reserve(10, 60)).toBe(true);
    expect(budget.reserve(0, 50)).toBe(true);
    expect(budget.reserve(50, 10)).toBe(false);
    expect(budget.reserve(0, 10)).toBe(true);
    budget.release(70);
    expect(budget.reserve(50, 10)).toBe(true);
  });
});
