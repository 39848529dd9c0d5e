/**
 * Back-off per destination (one DSN key: its upstream project), so one failing destination never
 * pauses another. After a failure the destination pauses for the retry delay; when the pause ends
 * a single probe goes out, and only its success resumes full delivery (its failure doubles the
 * pause). Sends that were already in flight when a failure was counted fail for the same cause,
 * so they do not lengthen the pause: a short blip under full load costs one base delay, not
 * minutes. Pure: time and randomness are passed in.
 */
import { retryDelayMs, type RetryPolicy } from './retry-policy.js';

/** Handed out when a send starts; given back with its outcome. */
export interface SendTicket {
  readonly key: string;
  readonly epoch: number;
  readonly probe: boolean;
}

interface Destination {
  failures: number;
  /** Bumped whenever the pause is extended; a send from an older epoch cannot extend it. */
  epoch: number;
  pausedUntil: number;
  probeInFlight: boolean;
}

/** The back-off state of every destination. */
export interface DestinationBackoff {
  /** Whether a send to `key` may start now. */
  mayStart(key: string, now: number): boolean;
  started(key: string): SendTicket;
  /** The destination answered (any final status): it works, resume it fully. */
  succeeded(ticket: SendTicket): void;
  /** Network error, 5xx or a spool read error: pause the destination (once per cause). */
  failed(ticket: SendTicket, now: number): void;
  /** The send did not happen (dropped before sending): only frees the probe slot. */
  skipped(ticket: SendTicket): void;
  /** The earliest end of a pause after `now`, if any destination is paused. */
  nextWake(now: number): number | undefined;
}

/** Creates the state (no destination paused). */
export function createDestinationBackoff(
  policy: RetryPolicy,
  random: () => number,
): DestinationBackoff {
  const destinations = new Map<string, Destination>();

  function release(ticket: SendTicket): Destination | undefined {
    const destination = destinations.get(ticket.key);
    if (destination && ticket.probe) destination.probeInFlight = false;
    return destination;
  }

  return {
    mayStart(key, now) {
      const destination = destinations.get(key);
      if (!destination) return true;
      return now >= destination.pausedUntil && !destination.probeInFlight;
    },
    started(key) {
      const destination = destinations.get(key);
      if (!destination) return { key, epoch: 0, probe: false };
      destination.probeInFlight = true;
      return { key, epoch: destination.epoch, probe: true };
    },
    succeeded(ticket) {
      release(ticket);
      destinations.delete(ticket.key);
    },
    failed(ticket, now) {
      const known = release(ticket);
      if (ticket.epoch !== (known?.epoch ?? 0)) return;
      const destination = known ?? { failures: 0, epoch: 0, pausedUntil: 0, probeInFlight: false };
      destinations.set(ticket.key, destination);
      destination.failures += 1;
      destination.epoch += 1;
      destination.pausedUntil = now + retryDelayMs(policy, destination.failures, random);
    },
    skipped(ticket) {
      release(ticket);
    },
    nextWake(now) {
      let wake: number | undefined;
      for (const { pausedUntil } of destinations.values()) {
        if (pausedUntil > now && (wake === undefined || pausedUntil < wake)) wake = pausedUntil;
      }
      return wake;
    },
  };
}
