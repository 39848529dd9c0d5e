import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWakeTimer } from './wake-timer.js';

beforeEach(() => vi.useFakeTimers({ now: 1_000 }));
afterEach(() => vi.useRealTimers());

describe('createWakeTimer', () => {
  const setup = () => {
    const wake = vi.fn<() => void>();
    return { wake, timer: createWakeTimer(Date.now, wake) };
  };

  it('wakes once at the asked time', () => {
    const { wake, timer } = setup();
    timer.wakeAt(1_500);
    vi.advanceTimersByTime(499);
    expect(wake).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(wake).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(wake).toHaveBeenCalledTimes(1);
  });

  it('keeps an earlier wake-up over a later one, and lets an earlier one replace it', () => {
    const { wake, timer } = setup();
    timer.wakeAt(1_500);
    timer.wakeAt(3_000);
    vi.advanceTimersByTime(500);
    expect(wake).toHaveBeenCalledTimes(1);

    timer.wakeAt(3_000);
    timer.wakeAt(2_000);
    vi.advanceTimersByTime(500);
    expect(wake).toHaveBeenCalledTimes(2); // at 2 000, the later one was replaced
    vi.advanceTimersByTime(5_000);
    expect(wake).toHaveBeenCalledTimes(2);
  });

  it('wakes soon for a time already past, and can be set again after it fired', () => {
    const { wake, timer } = setup();
    timer.wakeAt(0);
    vi.advanceTimersByTime(1);
    expect(wake).toHaveBeenCalledTimes(1);
    timer.wakeAt(Date.now() + 100);
    vi.advanceTimersByTime(100);
    expect(wake).toHaveBeenCalledTimes(2);
  });

  it('never wakes once cancelled', () => {
    const { wake, timer } = setup();
    timer.wakeAt(1_200);
    timer.cancel();
    vi.advanceTimersByTime(1_000);
    expect(wake).not.toHaveBeenCalled();
  });
});
