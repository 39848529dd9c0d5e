/**
 * How fast the relay reads on refused bodies, all of them together: a token bucket of bytes per
 * second with a second's worth of burst. Reading on lets a client that is still sending read its
 * refusal, but an attacker can send refused bytes as fast as the network carries them; past the
 * rate, refused bodies wait (their senders block on a full TCP window) instead of taking the CPU
 * honest envelopes need. Pure: `now` is passed in (ms).
 */

/** Meters the bytes read from refused bodies. */
export interface RefusedBodyRate {
  /** Counts `bytes` just read; returns 0, or the ms to wait before reading more. */
  take(bytes: number, now: number): number;
}

/** Creates the meter; `bytesPerSecond` 0 switches it off (refused bodies are read at once). */
export function createRefusedBodyRate(bytesPerSecond: number): RefusedBodyRate {
  if (bytesPerSecond === 0) return { take: () => 0 };
  let tokens = bytesPerSecond;
  let updated: number | undefined;
  return {
    take(bytes, now) {
      const elapsed = updated === undefined ? 0 : Math.max(0, now - updated);
      updated = now;
      tokens = Math.min(bytesPerSecond, tokens + (elapsed * bytesPerSecond) / 1000);
      tokens -= bytes;
      return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / bytesPerSecond);
    },
  };
}
