/**
 * The SegmentStore on Redis (ioredis), shared by every render replica. Entries are hashes with
 * PX expiry, tags are sets of entry keys, locks are SET NX PX with an owner token; everything
 * that must be atomic is a Lua script (redis-scripts.ts). Timeouts and the breaker are applied
 * around it (guarded-store.ts); this file only speaks Redis.
 */
import { KEPT_MS } from '@strata/web';
import type { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import {
  ACQUIRE_LOCK,
  GET_ENTRY,
  INVALIDATE_TAGS,
  PUT_ENTRY,
  RELEASE_LOCK,
  RESET_BUILD,
  RESET_SERVER,
} from './redis-scripts.js';
import type { LockAttempt, SegmentStore } from './segment-store.js';
import { SHAPE_TTL_MS } from './segment-store.js';

/** Default namespace of every key the cache writes. */
export const DEFAULT_KEY_PREFIX = 'strata:seg:v1:';

/** How long a tag's last invalidation is remembered to refuse writes of older data. */
const INVALIDATION_MEMORY_MS = KEPT_MS;
const SCAN_BATCH = 500;

interface Script {
  readonly lua: string;
  readonly sha: string;
}

const script = (lua: string): Script => ({
  lua,
  sha: createHash('sha1').update(lua).digest('hex'),
});

const SCRIPTS = {
  get: script(GET_ENTRY),
  put: script(PUT_ENTRY),
  acquire: script(ACQUIRE_LOCK),
  release: script(RELEASE_LOCK),
  invalidate: script(INVALIDATE_TAGS),
  reset: script(RESET_BUILD),
  resetServer: script(RESET_SERVER),
};

/** The key names of one namespace (exported for tests and the pub/sub channel). */
export function redisKeys(prefix: string) {
  // Build ids are free text: encode them so ':' cannot fake another key.
  const build = (id: string) => encodeURIComponent(id);
  return {
    entry: (id: string, key: string) => `${prefix}e:${build(id)}:${key}`,
    entryPattern: (id: string) => `${escapeGlob(`${prefix}e:${build(id)}:`)}*`,
    lock: (id: string, key: string) => `${prefix}l:${build(id)}:${key}`,
    shape: (id: string, segmentId: string) => `${prefix}n:${build(id)}:${segmentId}`,
    reset: (id: string) => `${prefix}rs:${build(id)}`,
    tagSetPrefix: `${prefix}t:`,
    tagInvalidationPrefix: `${prefix}ts:`,
    sequence: `${prefix}seq`,
    serverEpoch: `${prefix}ep`,
    server: `${prefix}srv`,
    channel: `${prefix}invalidations`,
  };
}

/** The Redis store, plus what a change of server needs (server-check.ts). */
export interface RedisSegmentStore extends SegmentStore {
  /**
   * Records `runId` as the server the data is trusted under; when the data was written under
   * another one, or `movedFromOtherServer`, starts a new epoch first (RESET_SERVER). True when
   * it did.
   */
  adoptServer(runId: string, movedFromOtherServer: boolean): Promise<boolean>;
}

/** A store over an ioredis client (the caller owns the connection and closes it). */
export function createRedisSegmentStore(
  redis: Redis,
  prefix = DEFAULT_KEY_PREFIX,
): RedisSegmentStore {
  const keys = redisKeys(prefix);
  // The highest invalidation sequence any reply carried: a new server's counter must pass it.
  let highestSequence = 0;
  const seen = (sequence: number) => {
    if (sequence > highestSequence) highestSequence = sequence;
    return sequence;
  };

  async function run(which: Script, keyNames: string[], args: (string | number)[]) {
    try {
      return await redis.evalsha(which.sha, keyNames.length, ...keyNames, ...args);
    } catch (error) {
      // A restarted or flushed Redis has forgotten the script: send it once in full.
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return redis.eval(which.lua, keyNames.length, ...keyNames, ...args);
    }
  }

  return {
    async get(build, key) {
      const body = await run(
        SCRIPTS.get,
        [keys.entry(build, key)],
        [keys.tagSetPrefix, keys.reset(build), keys.serverEpoch],
      );
      return typeof body === 'string' ? body : null;
    },
    async put(build, key, body, tags, since, ttlMs) {
      const stored = await run(
        SCRIPTS.put,
        [keys.entry(build, key)],
        [
          body,
          tags.join('\n'),
          since,
          Math.max(1, Math.round(ttlMs)),
          keys.tagInvalidationPrefix,
          keys.tagSetPrefix,
          keys.reset(build),
          keys.serverEpoch,
        ],
      );
      return stored === 1 ? 'stored' : 'refused';
    },
    async acquire(build, key, token, ttlMs): Promise<LockAttempt> {
      const reply = (await run(
        SCRIPTS.acquire,
        [keys.lock(build, key)],
        [token, Math.max(1, Math.round(ttlMs)), keys.sequence],
      )) as [number, string];
      return { acquired: reply[0] === 1, sequence: seen(Number(reply[1])) };
    },
    async release(build, key, token) {
      return (await run(SCRIPTS.release, [keys.lock(build, key)], [token])) === 1;
    },
    async sequence() {
      return seen(Number((await redis.get(keys.sequence)) ?? 0));
    },
    async invalidateTags(tags) {
      const unique = [...new Set(tags)];
      if (unique.length === 0) return 0;
      const removed = await run(
        SCRIPTS.invalidate,
        [],
        [
          keys.sequence,
          keys.tagSetPrefix,
          keys.tagInvalidationPrefix,
          INVALIDATION_MEMORY_MS,
          ...unique,
        ],
      );
      return Number(removed);
    },
    async dropBuild(build) {
      await run(SCRIPTS.reset, [], [keys.sequence, keys.reset(build), KEPT_MS]);
      // The entries are already unusable; free their memory without blocking Redis.
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(
          cursor,
          'MATCH',
          keys.entryPattern(build),
          'COUNT',
          SCAN_BATCH,
        );
        cursor = next;
        if (found.length > 0) await redis.unlink(...found);
      } while (cursor !== '0');
    },
    async readShape(build, segmentId) {
      return redis.smembers(keys.shape(build, segmentId));
    },
    async addToShape(build, segmentId, members) {
      if (members.length === 0) return;
      const key = keys.shape(build, segmentId);
      await redis
        .multi()
        .sadd(key, ...members)
        .pexpire(key, SHAPE_TTL_MS)
        .exec();
    },
    async adoptServer(runId, movedFromOtherServer) {
      const epoch = await run(
        SCRIPTS.resetServer,
        [],
        [
          keys.sequence,
          keys.serverEpoch,
          keys.server,
          runId,
          highestSequence,
          movedFromOtherServer ? '1' : '0',
        ],
      );
      return Number(epoch) > 0;
    },
    async close() {
      // The connection belongs to the caller (redis-connections.ts).
    },
  };
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
