/**
 * Recognises an event this relay (or, with the shared Redis, any replica) has already accepted,
 * so an SDK's retry of a report whose answer it never got is not forwarded twice. An id is looked
 * up before the spool write and remembered only after it, so a request that fails (spool full,
 * a write error) leaves nothing behind and its retry is accepted: the worst case is a duplicate,
 * never a lost report. Two copies arriving at the same moment can both pass; Sentry drops the
 * second by its id.
 *
 * Each replica remembers what it accepted (seen-events.ts). With Redis, every replica also looks
 * up and records ids there; while Redis is not connected or fails a call (the client's command
 * deadline), the replica goes on with what it remembers itself and counts that: Redis can delay a
 * report by that deadline at most, and never refuses one.
 */
import type { Redis } from 'ioredis';
import { createSeenEvents } from './seen-events.js';

export interface EventDedupe {
  /** Whether an envelope with this key (event-key.ts) was accepted within the window. */
  seen(key: string): boolean | Promise<boolean>;
  /** Records that the envelope with this key was accepted. */
  accepted(key: string): void;
}

export interface EventDedupeOptions {
  /** How long an accepted id is remembered; 0 switches dedupe off. */
  readonly windowMs: number;
  /** Most ids one replica remembers at once. */
  readonly maxIds: number;
  readonly now: () => number;
}

export interface SharedDedupeStore {
  readonly redis: Redis;
  /** Namespace of the ids in Redis (e.g. `strata:relay:v1:event:`). */
  readonly keyPrefix: string;
  /** Called once per look-up or record made without Redis. */
  readonly onLocalOnly: () => void;
}

/** The dedupe of one relay; undefined when switched off. */
export function createEventDedupe(
  options: EventDedupeOptions,
  shared?: SharedDedupeStore,
): EventDedupe | undefined {
  if (options.windowMs === 0) return undefined;
  const local = createSeenEvents(options);
  const remember = (key: string) => local.add(key, options.now());
  if (!shared) return { seen: (key) => local.has(key, options.now()), accepted: remember };

  const { redis, keyPrefix, onLocalOnly } = shared;
  // A Redis that is not connected is not waited for (its queued calls would hold the request).
  const ready = () => redis.status === 'ready';
  return {
    seen(key) {
      if (local.has(key, options.now())) return true;
      if (!ready()) {
        onLocalOnly();
        return false;
      }
      return redis.exists(keyPrefix + key).then(
        (found) => found === 1,
        () => {
          onLocalOnly();
          return false;
        },
      );
    },
    accepted(key) {
      remember(key);
      if (!ready()) return onLocalOnly();
      redis.set(keyPrefix + key, '1', 'PX', options.windowMs).catch(onLocalOnly);
    },
  };
}
