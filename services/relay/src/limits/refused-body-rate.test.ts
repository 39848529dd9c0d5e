import { describe, expect, it } from 'vitest';
import { createRefusedBodyRate } from './refused-body-rate.js';

const KIB = 1024;

describe('refused body rate', () => {
  it('lets a second’s worth through at once, then asks to wait for what is over', () => {
    const rate = createRefusedBodyRate(100 * KIB);
    expect(rate.take(60 * KIB, 0)).toBe(0);
    expect(rate.take(40 * KIB, 0)).toBe(0);
    // 50 KiB over a 100 KiB/s rate: half a second.
    expect(rate.take(50 * KIB, 0)).toBe(500);
  });

  it('refills with time, never beyond one second of burst', () => {
    const rate = createRefusedBodyRate(100 * KIB);
    expect(rate.take(150 * KIB, 0)).toBe(500);
    // 500 ms later the debt is paid; 1 s more refills the bucket, and no more than that.
    expect(rate.take(0, 500)).toBe(0);
    expect(rate.take(100 * KIB, 10_000)).toBe(0);
    expect(rate.take(10 * KIB, 10_000)).toBe(100);
  });

  it('is shared: one body’s bytes make the next one wait', () => {
    const rate = createRefusedBodyRate(64 * KIB);
    expect(rate.take(64 * KIB, 1_000)).toBe(0);
    expect(rate.take(16 * KIB, 1_000)).toBe(250);
  });

  it('never waits when switched off', () => {
    const rate = createRefusedBodyRate(0);
    expect(rate.take(1024 * KIB * KIB, 0)).toBe(0);
  });
});
