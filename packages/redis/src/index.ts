export {
  closeRedisClient,
  openRedisClient,
  type RedisClientOptions,
  type RedisSentinelTarget,
  type RedisTarget,
  type RedisUrlTarget,
} from './redis-client.js';
export {
  checkRedisSettings,
  redisConfigFields,
  redisTargetFrom,
  type RedisSettings,
} from './redis-settings.js';
