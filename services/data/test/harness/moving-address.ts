/**
 * One address whose target the platform moves, as a Kubernetes Service or a floating IP does:
 * a TCP forwarder on 127.0.0.1 that connects each new connection to the current target port.
 * Moving it ends the connections to the old target (their server is gone); new ones reach the
 * new target.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

/** A running forwarder. */
export interface MovingAddress {
  /** The port to dial (on 127.0.0.1). */
  readonly port: number;
  /** Sends new connections to `newTarget` and ends the current ones. */
  moveTo(newTarget: number): void;
  close(): Promise<void>;
}

/** Starts forwarding 127.0.0.1:<any free port> to 127.0.0.1:`targetPort`. */
export async function startMovingAddress(targetPort: number): Promise<MovingAddress> {
  let target = targetPort;
  const open = new Set<Socket>();
  const server: Server = createServer((downstream) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [downstream, upstream]) {
      open.add(socket);
      socket.on('error', () => undefined);
      // Either side ending ends both: the client sees the server go away, and vice versa.
      socket.on('close', () => {
        open.delete(socket);
        downstream.destroy();
        upstream.destroy();
      });
    }
    downstream.pipe(upstream);
    upstream.pipe(downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');
  return {
    port: address.port,
    moveTo(newTarget) {
      target = newTarget;
      for (const socket of open) socket.destroy();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
