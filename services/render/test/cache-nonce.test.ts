/**
 * The script nonce never enters the shared segment cache: a page one replica rendered (and
 * cached in Redis) is served by another replica from Redis with that response's own nonce, and
 * nothing stored in Redis holds any nonce a document was sent with.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '@strata/testing';
import {
  payloadRequest,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let redis: TestRedis;
let stack: CachedStack;
beforeAll(async () => {
  redis = await startTestRedis();
  stack = await startCachedStack({ count: 2, redisUrl: redis.url });
});
afterAll(async () => {
  await stack?.stop();
  await redis?.kill();
});

function nonceOf(response: LightMyRequestResponse): string {
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(
    String(response.headers['content-security-policy']),
  )?.[1];
  if (!nonce) throw new Error('no nonce in the policy');
  return nonce;
}

/** Every byte stored under every key in Redis, as text. */
async function everythingStored(url: string): Promise<string> {
  const client = new Redis(url);
  try {
    const parts: string[] = [];
    for (const key of await client.keys('*')) {
      const type = await client.type(key);
      if (type === 'string') parts.push((await client.get(key)) ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
      else parts.push(`${key}: ${type}`);
    }
    return parts.join('\n');
  } finally {
    client.disconnect();
  }
}

describe('nonces and the shared segment cache', () => {
  it('serves a page cached by another replica with this response’s nonce only', async () => {
    const [first, second] = stack.replicas as [Replica, Replica];
    const rendered = await first.app.inject({ url: '/bench/items/4' });
    const served = await second.app.inject({ url: '/bench/items/4' });
    expect(served.statusCode).toBe(200);
    expect(await second.counter('hits_total', { layer: 'store' })).toBeGreaterThan(0);

    const [before, now] = [nonceOf(rendered), nonceOf(served)];
    expect(now).not.toBe(before);
    expect(served.body).not.toContain(before);
    const scripts = [...served.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(2);
    for (const tag of scripts) expect(tag).toContain(` nonce="${now}"`);

    const payload = await second.app.inject(
      payloadRequest('/bench/items/4', '1;bench-root/bench-section/bench-items'),
    );
    expect(payload.statusCode).toBe(200);
    for (const nonce of [before, now, nonceOf(payload)]) expect(payload.body).not.toContain(nonce);

    const stored = await everythingStored(redis.url);
    expect(stored).toContain('Item 4');
    for (const nonce of [before, now, nonceOf(payload)]) expect(stored).not.toContain(nonce);
    expect(stored).not.toContain('nonce');
  });
});
