/**
 * The Lua scripts behind the Redis segment store. Each runs atomically on the server, which is
 * what makes tag invalidation, guarded writes and owner-only lock release race-free across
 * replicas. They name keys built from prefixes passed in ARGV, so they need one Redis (or
 * Sentinel), not a Cluster with keys spread over slots (see docs/segment-cache.md).
 */

/**
 * GET: KEYS[1] entry hash; ARGV[1] tag-set prefix, ARGV[2] build reset key, ARGV[3] server epoch
 * key. An entry older than the build's last reset or the last change of server (RESET_SERVER),
 * or missing from one of its tag sets (that set was invalidated or evicted), is unusable: it is
 * removed and nil returned. So the eviction of any key under `maxmemory` fails safe (a miss),
 * never stale.
 */
export const GET_ENTRY = `
local v = redis.call('HMGET', KEYS[1], 'body', 'tags', 'seq')
if not v[1] then return false end
local reset = math.max(tonumber(redis.call('GET', ARGV[2]) or '0'),
  tonumber(redis.call('GET', ARGV[3]) or '0'))
if tonumber(v[3] or '0') < reset then
  redis.call('UNLINK', KEYS[1])
  return false
end
if v[2] then
  for tag in string.gmatch(v[2], '[^\\n]+') do
    if redis.call('SISMEMBER', ARGV[1] .. tag, KEYS[1]) == 0 then
      redis.call('UNLINK', KEYS[1])
      return false
    end
  end
end
return v[1]
`;

/**
 * PUT: KEYS[1] entry hash; ARGV[1] body, ARGV[2] tags joined by newlines, ARGV[3] the sequence
 * read before loading, ARGV[4] ttl ms, ARGV[5] tag-invalidation prefix, ARGV[6] tag-set prefix,
 * ARGV[7] build reset key, ARGV[8] server epoch key. Refuses (0) when a tag or the build was
 * invalidated after ARGV[3], or the server changed since: the data was read before that write
 * (or against a sequence this server never issued) and must not be cached.
 */
export const PUT_ENTRY = `
local since = tonumber(ARGV[3])
if tonumber(redis.call('GET', ARGV[7]) or '0') > since then return 0 end
if tonumber(redis.call('GET', ARGV[8]) or '0') > since then return 0 end
local tags = {}
for tag in string.gmatch(ARGV[2], '[^\\n]+') do
  if tonumber(redis.call('GET', ARGV[5] .. tag) or '0') > since then return 0 end
  tags[#tags + 1] = tag
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'body', ARGV[1], 'tags', ARGV[2], 'seq', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
for _, tag in ipairs(tags) do
  redis.call('SADD', ARGV[6] .. tag, KEYS[1])
  -- Every member expires within ttl of now, so the set may too.
  redis.call('PEXPIRE', ARGV[6] .. tag, ARGV[4])
end
return 1
`;

/** ACQUIRE: KEYS[1] lock; ARGV[1] token, ARGV[2] ttl ms, ARGV[3] sequence key → {taken, seq}. */
export const ACQUIRE_LOCK = `
local taken = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
local seq = redis.call('GET', ARGV[3]) or '0'
if taken then return {1, seq} end
return {0, seq}
`;

/** RELEASE: KEYS[1] lock; ARGV[1] token. Deletes the lock only for its owner. */
export const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * INVALIDATE: ARGV[1] sequence key, ARGV[2] tag-set prefix, ARGV[3] tag-invalidation prefix,
 * ARGV[4] how long to remember an invalidation (ms), ARGV[5..] tags. Removes every entry of every
 * tag and records the new sequence per tag, in one step. Returns the number of entries removed.
 */
export const INVALIDATE_TAGS = `
local seq = redis.call('INCR', ARGV[1])
local removed = 0
for i = 5, #ARGV do
  local set = ARGV[2] .. ARGV[i]
  local members = redis.call('SMEMBERS', set)
  for j = 1, #members, 500 do
    removed = removed + redis.call('UNLINK', unpack(members, j, math.min(j + 499, #members)))
  end
  redis.call('DEL', set)
  redis.call('SET', ARGV[3] .. ARGV[i], seq, 'PX', ARGV[4])
end
return removed
`;

/**
 * RESET: ARGV[1] sequence key, ARGV[2] build reset key, ARGV[3] ttl ms. From now on every entry
 * of the build written before is unusable (GET_ENTRY compares sequences); freeing them follows.
 */
export const RESET_BUILD = `
local seq = redis.call('INCR', ARGV[1])
redis.call('SET', ARGV[2], seq, 'PX', ARGV[3])
return seq
`;

/**
 * RESET_SERVER: ARGV[1] sequence key, ARGV[2] server epoch key, ARGV[3] server key, ARGV[4] this
 * server's run_id, ARGV[5] the highest sequence the caller saw from any server, ARGV[6] '1' when
 * the caller knows it was on another server before. Runs after every reconnect. When the data
 * here was written under another server (a promoted replica, a restarted Redis; ARGV[3] says
 * which one wrote it) or the caller was elsewhere, writes the old server took may be missing:
 * a new epoch makes every entry of every build written before unusable and refuses writes of
 * data read before. The sequence never goes back below what the caller saw, so sequences read
 * from the old server cannot pass for newer ones. Returns the new epoch, or 0 (nothing to do).
 */
export const RESET_SERVER = `
if redis.call('GET', ARGV[3]) == ARGV[4] and ARGV[6] ~= '1' then return 0 end
local seq = math.max(redis.call('INCR', ARGV[1]), tonumber(ARGV[5]) + 1)
redis.call('SET', ARGV[1], seq)
redis.call('SET', ARGV[2], seq)
redis.call('SET', ARGV[3], ARGV[4])
return seq
`;
