import { Metadata, status } from '@grpc/grpc-js';
import type { CatalogClient } from './catalog-client.js';
import { ChangeKind } from '@strata/proto';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createChangeWatcher, type ChangeWatcher } from './change-watcher.js';

/** A stand-in for the data service's client: records each WatchChanges call's stream. */
function fakeClient() {
  const calls: { afterSequence: number; stream: PassThrough & { cancel(): void } }[] = [];
  const client = {
    watchChanges(request: { afterSequence: number }) {
      const stream = Object.assign(new PassThrough({ objectMode: true }), {
        cancel() {
          stream.emit('error', Object.assign(new Error('cancelled'), { code: status.CANCELLED }));
        },
      });
      calls.push({ afterSequence: request.afterSequence, stream });
      return stream;
    },
  } as unknown as Pick<CatalogClient, 'watchChanges'>;
  return { client, calls };
}

function registered(stream: PassThrough, from: number) {
  const metadata = new Metadata();
  metadata.set('strata-watch-from', String(from));
  stream.emit('metadata', metadata);
}

const change = (sequence: number, tags: string[], kind = ChangeKind.CHANGE_KIND_UPDATED) => ({
  sequence,
  kind,
  tags,
  itemId: 1,
  commitTime: undefined,
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

let watcher: ChangeWatcher | undefined;
afterEach(() => watcher?.stop());

function start(client: Pick<CatalogClient, 'watchChanges'>) {
  const invalidated: string[][] = [];
  let resets = 0;
  watcher = createChangeWatcher({
    client,
    onTags: async (tags) => void invalidated.push([...tags]),
    onReset: async () => void (resets += 1),
    logger: { info: () => undefined, warn: () => undefined },
    random: () => 0,
    backoff: { baseMs: 1, capMs: 1 },
  });
  watcher.start();
  return { invalidated, resets: () => resets, watcher };
}

describe('change watcher', () => {
  it('invalidates the tags of every change, covered from the point the service names', async () => {
    const { client, calls } = fakeClient();
    const { invalidated, watcher: w } = start(client);
    expect(calls[0]?.afterSequence).toBe(0);
    registered(calls[0]!.stream, 41);
    expect(w.lastSequence()).toBe(41);
    calls[0]!.stream.write(change(42, ['item:1', 'items']));
    calls[0]!.stream.write(change(43, ['item:2']));
    await until(() => w.lastSequence() === 43);
    expect(invalidated).toEqual([['item:1', 'items'], ['item:2']]);
    expect(w.connected()).toBe(true);
  });

  it('resumes after the last sequence it handled when the stream breaks or ends', async () => {
    const { client, calls } = fakeClient();
    const { watcher: w } = start(client);
    registered(calls[0]!.stream, 10);
    calls[0]!.stream.write(change(11, ['a']));
    await until(() => w.lastSequence() === 11);
    calls[0]!.stream.emit('error', Object.assign(new Error('gone'), { code: status.UNAVAILABLE }));
    await until(() => calls.length === 2);
    expect(calls[1]?.afterSequence).toBe(11);
    registered(calls[1]!.stream, 11);
    calls[1]!.stream.end(); // the service shut down (status OK): resume elsewhere
    await until(() => calls.length === 3);
    expect(calls[2]?.afterSequence).toBe(11);
  });

  it('drops everything on CHANGE_KIND_RESET, and when its resume point is refused', async () => {
    const { client, calls } = fakeClient();
    const { resets, watcher: w } = start(client);
    registered(calls[0]!.stream, 5);
    calls[0]!.stream.write(change(900, [], ChangeKind.CHANGE_KIND_RESET));
    await until(() => resets() === 1 && w.lastSequence() === 900);
    calls[0]!.stream.emit(
      'error',
      Object.assign(new Error('bad'), { code: status.INVALID_ARGUMENT }),
    );
    await until(() => calls.length === 2);
    expect(resets()).toBe(2);
    expect(calls[1]?.afterSequence).toBe(0);
  });

  it('stops for good when stopped', async () => {
    const { client, calls } = fakeClient();
    const { watcher: w } = start(client);
    w.stop();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    expect(w.connected()).toBe(false);
  });
});
