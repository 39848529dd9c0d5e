/**
 * The one HTTP/2 connection the unary caller sends on, and how it notices that connection is
 * gone. A peer that vanishes without closing (a killed container, a dropped NAT entry) leaves
 * a socket that accepts writes and never answers, so, like grpc-js's keepalive, the connection
 * is pinged every `keepaliveMs` and destroyed when a ping goes unanswered; and a call that
 * passes its deadline with no answer on the connection since it began makes new calls open a
 * fresh one at once and pings the old one.
 *
 * A lost connection is reopened in the background (1 s, doubling to 30 s while the peer stays
 * away), as a grpc-js channel does, so the first call after the data service comes back does
 * not pay for DNS and the handshake. Names are looked up with c-ares, not getaddrinfo in libuv's
 * threadpool (dns-lookup.ts): the compose drills showed hanging `getaddrinfo` calls (of a
 * stopped container's name, and ioredis's during a Redis outage) filling that pool, so that the
 * data service's name could not be looked up within a call's deadline.
 */
import http2 from 'node:http2';
import { createDnsLookup } from './dns-lookup.js';

/** Timing of the liveness checks. */
export interface ConnectionTiming {
  /** Ping interval (grpc-js's grpc.keepalive_time_ms as the gateway set it). */
  readonly keepaliveMs: number;
  /** How long a ping may go unanswered before the connection is dropped. */
  readonly pingTimeoutMs: number;
  /** First and longest wait before reopening a lost connection. */
  readonly reconnectMs: number;
  readonly maxReconnectMs: number;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  keepaliveMs: 30_000,
  pingTimeoutMs: 10_000,
  reconnectMs: 1_000,
  maxReconnectMs: 30_000,
};

/** One opened connection with what the caller tracks about it. */
export interface Connection {
  readonly session: http2.ClientHttp2Session;
  /** Date.now() of the last answer headers any call received on it. */
  lastAnswerAt: number;
  active: number;
}

/** Opens connections on demand and keeps at most one current. */
export interface ConnectionPool {
  /** The current connection, opened if there is none. */
  current(): Connection;
  /** A call started / ended on `connection` (an idle connection must not hold the process open). */
  began(connection: Connection): void;
  ended(connection: Connection): void;
  /** A call that began at `since` got no answer in time: check the connection. */
  suspect(connection: Connection, since: number): void;
  close(): void;
}

// Receive windows. HTTP/2's defaults (64 KiB for the whole connection) let only three or four
// ~20 KB ListItems answers be under way at once: the data service then waits for WINDOW_UPDATEs
// that the render thread sends only between renders.
const STREAM_WINDOW = 1024 * 1024;
const CONNECTION_WINDOW = 16 * 1024 * 1024;

export function createConnectionPool(
  authority: string,
  timing: ConnectionTiming = DEFAULT_TIMING,
): ConnectionPool {
  let current: Connection | undefined;
  let shut = false;
  let reconnectDelay = timing.reconnectMs;
  let reconnect: NodeJS.Timeout | undefined;
  // Out of libuv's threadpool: see dns-lookup.ts.
  const lookup = createDnsLookup();

  function forget(connection: Connection) {
    if (current !== connection) return;
    current = undefined;
    if (shut || reconnect) return;
    reconnect = setTimeout(() => {
      reconnect = undefined;
      if (!shut && !current) current = open();
    }, reconnectDelay);
    reconnect.unref();
    reconnectDelay = Math.min(reconnectDelay * 2, timing.maxReconnectMs);
  }

  function ping(connection: Connection) {
    const { session } = connection;
    if (session.destroyed) return;
    const timer = setTimeout(() => session.destroy(), timing.pingTimeoutMs);
    timer.unref();
    const sent = session.ping((error) => {
      clearTimeout(timer);
      if (error) session.destroy();
    });
    if (!sent) clearTimeout(timer); // pings already outstanding: their timers decide
  }

  function open(): Connection {
    const session = http2.connect(authority, {
      settings: { initialWindowSize: STREAM_WINDOW },
      lookup,
    });
    const connection: Connection = { session, lastAnswerAt: Date.now(), active: 0 };
    // Errors reach each call through its stream; the connection only has to be forgotten.
    session.on('error', () => undefined);
    session.once('connect', () => {
      reconnectDelay = timing.reconnectMs;
      session.setLocalWindowSize(CONNECTION_WINDOW);
    });
    session.on('goaway', () => forget(connection)); // calls in flight finish on it
    const keepalive = setInterval(() => ping(connection), timing.keepaliveMs);
    keepalive.unref();
    session.on('close', () => {
      clearInterval(keepalive);
      forget(connection);
    });
    session.unref();
    return connection;
  }

  return {
    current() {
      if (!current || current.session.closed || current.session.destroyed) current = open();
      return current;
    },
    began(connection) {
      if (connection.active++ === 0) connection.session.ref();
    },
    ended(connection) {
      if (--connection.active === 0 && !connection.session.destroyed) connection.session.unref();
    },
    suspect(connection, since) {
      if (connection.lastAnswerAt >= since) return; // others got answers: the call was just slow
      forget(connection);
      ping(connection);
      connection.session.close(); // calls in flight finish (or the ping's timeout ends them)
    },
    close() {
      shut = true;
      clearTimeout(reconnect);
      current?.session.close();
      current = undefined;
    },
  };
}
