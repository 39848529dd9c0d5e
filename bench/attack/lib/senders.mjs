// Open-loop senders for the attack bench: requests at a fixed rate from a given client address
// (X-Forwarded-For, which the relay trusts in this bench as it does behind the gateway), each
// class capped in flight so a stalled relay cannot grow this process without bound.
import http from 'node:http';
import net from 'node:net';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** One POST of `body` (bytes, or a list of byte chunks sent one after the other, uncopied);
 * resolves with { status, ms } (status 0 for a network error). */
export function post(url, { headers, body }, clientIp) {
  const chunks = Array.isArray(body) ? body : [body];
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': length, 'x-forwarded-for': clientIp },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

/**
 * Sends `build()` to `url` `rate` times a second until `stop()`; at most `maxInFlight` at once
 * (a tick that finds the cap reached counts as `skipped`). Answers the counters.
 */
export function sendAtRate({ url, rate, build, clientIps, maxInFlight = 64, onResult }) {
  const counts = { sent: 0, skipped: 0, byStatus: {} };
  let inFlight = 0;
  let next = 0;
  const periodMs = 1000 / rate;
  let due = performance.now();
  const pending = new Set();
  const timer = setInterval(() => {
    const now = performance.now();
    while (due <= now) {
      due += periodMs;
      if (inFlight >= maxInFlight) {
        counts.skipped += 1;
        continue;
      }
      const request = build();
      const ip = clientIps[next++ % clientIps.length];
      inFlight += 1;
      counts.sent += 1;
      const done = post(url, request, ip).then((result) => {
        inFlight -= 1;
        counts.byStatus[result.status] = (counts.byStatus[result.status] ?? 0) + 1;
        onResult?.(request, result);
        pending.delete(done);
      });
      pending.add(done);
    }
  }, 5);
  return {
    counts,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/**
 * Holds `connections` requests open, each declaring `declaredBytes` and sending one byte every
 * `intervalMs`; a connection the relay closes is reopened. Counts how many the relay cut.
 */
export function trickle(url, { connections, declaredBytes, intervalMs }, clientIp) {
  const { hostname, port, pathname } = new URL(url);
  const counts = { opened: 0, cutByRelay: 0 };
  const sockets = new Set();
  let stopped = false;
  const open = () => {
    if (stopped) return;
    const socket = net.connect(Number(port), hostname);
    counts.opened += 1;
    sockets.add(socket);
    socket.on('connect', () =>
      socket.write(
        `POST ${pathname} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: text/plain\r\n` +
          `content-length: ${declaredBytes}\r\nx-forwarded-for: ${clientIp}\r\n\r\n`,
      ),
    );
    const drip = setInterval(() => socket.write('['), intervalMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(drip);
      sockets.delete(socket);
      if (!stopped) {
        counts.cutByRelay += 1;
        setTimeout(open, 100);
      }
    });
  };
  for (let i = 0; i < connections; i++) open();
  return {
    counts,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
