import { expect, it } from 'vitest';
import { loadRelayConfig } from '../config.js';
import { createClientLimiters } from './client-limiters.js';

const metrics = { limitedLocally: () => undefined };
const admitted = (limiter: ReturnType<typeof createClientLimiters>['address'], tries: number) => {
  let count = 0;
  for (let i = 0; i < tries; i += 1) if (limiter?.take('203.0.113.9', 1000) === 0) count += 1;
  return count;
};

it('without Redis, one replica of several admits its share of each limit', () => {
  const config = loadRelayConfig({
    RELAY_RATE_LIMIT_PER_ADDRESS: '10',
    RELAY_RATE_LIMIT_PER_KEY: '30',
    RELAY_REPLICAS: '3',
  });
  const limiters = createClientLimiters(config, undefined, metrics);
  expect(admitted(limiters.address, 100)).toBe(4);
  expect(admitted(limiters.key, 100)).toBe(10);
});

it('alone, a relay admits the whole limit, and a limit of 0 stays off', () => {
  const config = loadRelayConfig({
    RELAY_RATE_LIMIT_PER_ADDRESS: '10',
    RELAY_RATE_LIMIT_PER_KEY: '0',
  });
  const limiters = createClientLimiters(config, undefined, metrics);
  expect(admitted(limiters.address, 100)).toBe(10);
  expect(limiters.key).toBeUndefined();
});
