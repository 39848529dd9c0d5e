/**
 * Behind the gateway (RELAY_TRUST_PROXY) the relay logs each request under the gateway's request
 * id (X-Request-Id); otherwise it ignores a client's and issues its own. The line comes from a real relay whose
 * spool fails its readiness read (an injected fault), which the relay logs as an internal error.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type RelayApp } from '../src/app.js';
import { loadRelayConfig } from '../src/config.js';
import { createSpool } from '../src/spool/spool.js';

const running: Array<{ relay: RelayApp; dir: string }> = [];
afterEach(async () => {
  for (const { relay, dir } of running.splice(0)) {
    await relay.shutdown(1000);
    await rm(dir, { recursive: true, force: true });
  }
});

/** A relay logging as main.ts sets it up, whose spool's stats() throws. */
async function startRelay(trustProxy: boolean) {
  const dir = await mkdtemp(join(tmpdir(), 'relay-ids-'));
  const config = loadRelayConfig({
    RELAY_SPOOL_DIR: dir,
    RELAY_TRUST_PROXY: String(trustProxy),
    RELAY_CLIENT_REPORT_INTERVAL: '1h',
  });
  const spool = createSpool({
    dir,
    maxBytes: config.RELAY_SPOOL_MAX_BYTES,
    projectShare: config.RELAY_SPOOL_PROJECT_SHARE,
    segmentBytes: config.RELAY_SPOOL_SEGMENT_BYTES,
    memoryBytes: config.RELAY_SPOOL_MEMORY_BYTES,
    fsync: false,
  });
  const failing = Object.assign(Object.create(spool) as typeof spool, {
    stats: () => {
      throw new Error('EIO: injected');
    },
  });
  const logged: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const relay = await buildApp({ config, logger, spool: failing });
  running.push({ relay, dir });
  return { relay, logged };
}

async function loggedIdFor(trustProxy: boolean, sent: string) {
  const { relay, logged } = await startRelay(trustProxy);
  const response = await relay.app.inject({ url: '/readyz', headers: { 'x-request-id': sent } });
  expect(response.statusCode).toBe(500);
  const line = logged.find((entry) => entry['msg'] === 'unhandled error');
  expect(line).toBeDefined();
  return line?.['reqId'];
}

const gatewayId = () => crypto.randomUUID().replaceAll('-', '');

describe('request ids', () => {
  it('behind the gateway, logs a request under the id the gateway sent', async () => {
    const id = gatewayId();
    expect(await loggedIdFor(true, id)).toBe(id);
  });

  it('without a trusted proxy, ignores a client’s X-Request-Id', async () => {
    const id = gatewayId();
    const logged = await loggedIdFor(false, id);
    expect(logged).toMatch(/^[0-9a-f]{32}$/);
    expect(logged).not.toBe(id);
  });

  it('ignores an id that is not the gateway’s format', async () => {
    expect(await loggedIdFor(true, 'forged"}')).toMatch(/^[0-9a-f]{32}$/);
  });
});
