/**
 * One timer that wakes the forwarder when the earliest destination pause ends. Asking for a
 * later wake-up than the one already set changes nothing; an earlier one replaces it. The timer
 * never keeps the process alive, and may fire early: the forwarder re-checks what it may start.
 */

/** The forwarder's wake-up timer. */
export interface WakeTimer {
  /** Calls the wake-up at `at` (clock time), unless one is already set for no later. */
  wakeAt(at: number): void;
  cancel(): void;
}

/** Creates an unset timer that calls `wake` on the clock `now`. */
export function createWakeTimer(now: () => number, wake: () => void): WakeTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = 0;
  return {
    wakeAt(at) {
      if (timer && timerAt <= at) return;
      if (timer) clearTimeout(timer);
      timerAt = at;
      timer = setTimeout(
        () => {
          timer = undefined;
          wake();
        },
        Math.max(1, at - now()),
      );
      timer.unref?.();
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
