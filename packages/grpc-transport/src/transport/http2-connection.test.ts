/**
 * The connection pool against a real HTTP/2 server: it connects and answers probes, and a session
 * destroyed between its handshake and its 'connect' event (a GOAWAY read in the same turn does
 * that) is forgotten quietly instead of throwing out of the event.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConnectionPool } from './http2-connection.js';

let server: http2.Http2Server;
let address: string;
beforeAll(async () => {
  server = http2.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => vi.restoreAllMocks());

/** Makes the next session the pool opens destroyed just before its 'connect' listeners run. */
function destroyNextSessionBeforeConnect(): unknown[] {
  const thrown: unknown[] = [];
  const connect = http2.connect;
  vi.spyOn(http2, 'connect').mockImplementationOnce((...args: Parameters<typeof connect>) => {
    const session = connect(...args);
    const emit = session.emit.bind(session);
    session.emit = (event: string | symbol, ...rest: unknown[]) => {
      if (event !== 'connect') return emit(event, ...rest);
      session.destroy();
      try {
        return emit(event, ...rest);
      } catch (error) {
        thrown.push(error);
        return true;
      }
    };
    return session;
  });
  return thrown;
}

describe('connection pool', () => {
  it('connects and answers a probe', async () => {
    const pool = createConnectionPool({ address });
    try {
      expect(pool.state()).toBe('connecting');
      expect(await pool.probe(2000)).toBe(true);
      expect(pool.state()).toBe('ready');
    } finally {
      pool.close();
    }
  });

  it('forgets a session destroyed before its connect event, then reconnects', async () => {
    const thrown = destroyNextSessionBeforeConnect();
    const states: string[] = [];
    const pool = createConnectionPool({ address }, undefined, () => states.push(pool.state()));
    try {
      // The probe waits for 'connect' on the session that is about to be destroyed.
      expect(await pool.probe(2000)).toBe(false);
      expect(thrown).toEqual([]);
      expect(states).not.toContain('ready');
      expect(vi.mocked(http2.connect)).toHaveBeenCalledTimes(1);
      // The next probe opens a fresh connection, which connects normally.
      expect(await pool.probe(2000)).toBe(true);
      expect(pool.state()).toBe('ready');
    } finally {
      pool.close();
    }
  });
});
