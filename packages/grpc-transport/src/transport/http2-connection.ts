/**
 * The HTTP/2 connection to one data replica, and how it notices that connection is gone. A peer
 * that vanishes without closing (a killed container, a dropped NAT entry) leaves a socket that
 * accepts writes and never answers, so, like grpc-js's keepalive, the connection is pinged every
 * `keepaliveMs` and destroyed when a ping goes unanswered; and a call that passes its deadline
 * with no answer on the connection since it began makes new calls open a fresh one at once and
 * pings the old one.
 *
 * A lost connection is reopened in the background (1 s, doubling to 30 s while the peer stays
 * away), as a grpc-js subchannel does, so the first call after the replica comes back does not
 * pay for the handshake; the replica set (replicas/replica-set.ts) sends calls elsewhere
 * meanwhile. It dials an address the replica set resolved, so connecting needs no name lookup.
 */
import http2 from 'node:http2';
import type { TlsSettings } from './tls-settings.js';

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

/** Whether the replica can take calls now, as its connection tells. */
export type ConnectionState = 'connecting' | 'ready' | 'down';

/** Opens connections on demand and keeps at most one current. */
export interface ConnectionPool {
  /** ready: connected; connecting: opening (or never opened); down: lost, reopening later. */
  state(): ConnectionState;
  /** Opens the connection now if there is none (a new replica warms up before calls arrive). */
  warm(): void;
  /** Whether the replica answers an HTTP/2 PING within `timeoutMs` (connecting first if needed). */
  probe(timeoutMs: number): Promise<boolean>;
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

/** How to reach one replica. */
export interface ConnectionTarget {
  /** host:port to connect to (an address from the replica set, or a name). */
  readonly address: string;
  /** TLS settings; absent for plaintext. */
  readonly tls?: TlsSettings | undefined;
  /** The name the replica's certificate must carry, when `address` is not that name. */
  readonly serverName?: string | undefined;
}

export function createConnectionPool(
  target: ConnectionTarget,
  timing: ConnectionTiming = DEFAULT_TIMING,
  onStateChange: () => void = () => undefined,
): ConnectionPool {
  let current: Connection | undefined;
  let connected = false;
  let shut = false;
  let reconnectDelay = timing.reconnectMs;
  let reconnect: NodeJS.Timeout | undefined;

  function forget(connection: Connection) {
    if (current !== connection) return;
    current = undefined;
    connected = false;
    onStateChange();
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
    const session = http2.connect(`${target.tls ? 'https' : 'http'}://${target.address}`, {
      settings: { initialWindowSize: STREAM_WINDOW },
      ...(target.tls && {
        ca: target.tls.ca,
        cert: target.tls.cert,
        key: target.tls.key,
        ...(target.serverName && { servername: target.serverName }),
      }),
    });
    const connection: Connection = { session, lastAnswerAt: Date.now(), active: 0 };
    // Errors reach each call through its stream; the connection only has to be forgotten.
    session.on('error', () => undefined);
    session.once('connect', () => {
      // 'connect' comes a tick after the handshake; a GOAWAY or a failed ping may have destroyed
      // the session in between, and then 'close' follows and forgets it.
      if (session.destroyed) return;
      reconnectDelay = timing.reconnectMs;
      session.setLocalWindowSize(CONNECTION_WINDOW);
      if (current !== connection) return;
      connected = true;
      onStateChange();
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

  function currentConnection(): Connection {
    if (!current || current.session.closed || current.session.destroyed) {
      connected = false;
      current = open();
    }
    return current;
  }

  return {
    state: () => (connected ? 'ready' : current || !reconnect ? 'connecting' : 'down'),
    warm() {
      if (!shut && !current) current = open();
    },
    probe(timeoutMs) {
      if (shut) return Promise.resolve(false);
      const { session } = currentConnection();
      return new Promise<boolean>((resolve) => {
        const done = (answered: boolean) => {
          clearTimeout(timer);
          session.off('close', lost);
          resolve(answered);
        };
        const lost = () => done(false);
        const timer = setTimeout(lost, timeoutMs);
        session.once('close', lost);
        const sendPing = () => {
          if (session.destroyed) return done(false);
          // false: pings already in flight; the connection's own state has to do.
          if (!session.ping((error) => done(!error))) done(connected);
        };
        if (session.connecting) session.once('connect', sendPing);
        else sendPing();
      });
    },
    current: currentConnection,
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
