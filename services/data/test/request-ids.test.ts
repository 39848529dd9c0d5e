/**
 * The data service logs each call under the request id its caller sent (`x-request-id`
 * metadata, as the render service sends the gateway's id), and ignores one that does not look
 * like an id.
 */
import * as grpc from '@grpc/grpc-js';
import { CatalogServiceClient } from '@strata/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService, type RunningDataService } from '../src/index.js';

const logged: Record<string, unknown>[] = [];
let service: RunningDataService;
let client: CatalogServiceClient;
beforeAll(async () => {
  service = await startDataService(
    loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
    pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
  );
  client = new CatalogServiceClient(service.address, grpc.credentials.createInsecure());
}, 60_000);
afterAll(async () => {
  client?.close();
  await service?.stop();
});

/** The `reqId` of the line logged for a GetItem(id) sent with `requestId`. */
async function loggedIdFor(id: number, requestId: string): Promise<unknown> {
  const metadata = new grpc.Metadata();
  metadata.set('x-request-id', requestId);
  const before = logged.length;
  await new Promise((resolve) => client.getItem({ id }, metadata, () => resolve(undefined)));
  const line = logged.slice(before).find((entry) => entry['method'] === 'GetItem');
  expect(line).toBeDefined();
  return line?.['reqId'];
}

describe('request ids', () => {
  it('logs a call that succeeds or is refused under the caller’s request id', async () => {
    expect(await loggedIdFor(3, '0123456789abcdef0123456789abcdef')).toBe(
      '0123456789abcdef0123456789abcdef',
    );
    expect(await loggedIdFor(0, 'req-42')).toBe('req-42'); // INVALID_ARGUMENT, logged at info
  });

  it('does not log an id that is not one', async () => {
    expect(await loggedIdFor(3, 'x"} forged\\n{"level":60')).toBeUndefined();
    expect(await loggedIdFor(3, 'a'.repeat(65))).toBeUndefined();
  });
});
